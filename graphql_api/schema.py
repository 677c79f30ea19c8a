"""The Strawberry schema served at ``/graphql``; its SDL is committed as schema.graphql."""

from __future__ import annotations

from pathlib import Path

from strawberry.schema.config import StrawberryConfig

from graphql_api.documents import PreparedDocuments
from graphql_api.errors import TicketingSchema
from graphql_api.resolvers import Mutation, Query
from graphql_api.scalars import SCALAR_OVERRIDES

SDL_PATH = Path(__file__).with_name("schema.graphql")

schema = TicketingSchema(
    query=Query,
    mutation=Mutation,
    extensions=[PreparedDocuments],
    scalar_overrides=SCALAR_OVERRIDES,
    config=StrawberryConfig(auto_camel_case=True),
)


def sdl() -> str:
    return str(schema) + "\n"


if __name__ == "__main__":
    SDL_PATH.write_text(sdl())
