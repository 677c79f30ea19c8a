"""List parameters (CONTRACT.md section 2): bounds, defaults, sort parsing, and every problem
reported at once."""

from __future__ import annotations

import pytest

from app.errors import InvalidInput
from app.pagination import DEFAULT_LIMIT, MAX_LIMIT, MAX_OFFSET, ListParams, list_params

ALLOWED = ("created_at", "title", "starts_at")


def params(
    limit: int | None = None, offset: int | None = None, sort: str | None = None
) -> ListParams:
    return list_params(limit=limit, offset=offset, sort=sort, allowed=ALLOWED)


def refused(**given: object) -> dict[str, str]:
    """The field errors of refused parameters, by field."""
    with pytest.raises(InvalidInput) as raised:
        params(**given)
    return {error.field: error.message for error in raised.value.errors}


def test_defaults_are_25_from_0_newest_first() -> None:
    assert params() == ListParams(
        limit=DEFAULT_LIMIT, offset=0, sort_field="created_at", descending=True
    )
    assert DEFAULT_LIMIT == 25


def test_limit_is_1_to_100_and_never_clamped() -> None:
    assert params(limit=1).limit == 1
    assert params(limit=MAX_LIMIT).limit == MAX_LIMIT == 100
    for limit in (0, -1, MAX_LIMIT + 1):
        assert refused(limit=limit) == {"limit": f"must be between 1 and 100, got {limit}"}


def test_offset_is_0_to_the_largest_sql_integer() -> None:
    assert params(offset=0).offset == 0
    assert params(offset=MAX_OFFSET).offset == MAX_OFFSET == 2**31 - 1
    assert set(refused(offset=-1)) == {"offset"}
    assert set(refused(offset=MAX_OFFSET + 1)) == {"offset"}


def test_sort_is_field_and_direction() -> None:
    assert params(sort="title:asc") == ListParams(DEFAULT_LIMIT, 0, "title", descending=False)
    assert params(sort="starts_at:desc") == ListParams(DEFAULT_LIMIT, 0, "starts_at", True)


@pytest.mark.parametrize("sort", ["title", "title:", "title:up", "title:ASC", "title:asc:desc"])
def test_the_direction_is_required_and_exact(sort: str) -> None:
    assert refused(sort=sort) == {"sort": "must be field:asc or field:desc"}


@pytest.mark.parametrize("sort", ["", ":asc", "price:asc", "Title:asc", "title :asc"])
def test_an_unknown_or_empty_field_names_the_allowed_ones(sort: str) -> None:
    message = refused(sort=sort)["sort"]
    assert message.startswith("unknown sort field")
    assert message.endswith("allowed: created_at, title, starts_at")


def test_every_problem_is_reported_at_once() -> None:
    with pytest.raises(InvalidInput) as raised:
        params(limit=0, offset=-5, sort="price:asc")
    assert [error.field for error in raised.value.errors] == ["limit", "offset", "sort"]
    assert raised.value.detail.startswith("limit: must be between 1 and 100")
