"""The committed SDL is the schema the code serves."""

from __future__ import annotations

from graphql_api.schema import SDL_PATH, sdl


def test_committed_sdl_matches_the_code() -> None:
    assert SDL_PATH.read_text() == sdl(), (
        "graphql/schema.graphql is out of date; regenerate it with "
        "`.venv/bin/python -m graphql_api.schema` and review the diff"
    )
