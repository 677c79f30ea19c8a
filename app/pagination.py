"""List parameters and the pagination envelope shared by every list (CONTRACT.md section 2)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

import msgspec

from app.errors import FieldError, InvalidInput

T = TypeVar("T")

DEFAULT_LIMIT = 25
MAX_LIMIT = 100
MAX_OFFSET = 2**31 - 1
"""Far beyond any list, and small enough that ``offset + limit`` stays a valid SQL integer."""
DEFAULT_SORT = "created_at:desc"


class Pagination(msgspec.Struct):
    total: int
    limit: int
    offset: int
    has_more: bool


class Page(msgspec.Struct, Generic[T]):
    data: list[T]
    pagination: Pagination


@dataclass(frozen=True, slots=True)
class ListParams:
    limit: int
    offset: int
    sort_field: str
    descending: bool


def list_params(
    *, limit: int | None, offset: int | None, sort: str | None, allowed: Sequence[str]
) -> ListParams:
    """Validate the common list parameters; every problem is reported, none is clamped."""
    errors: list[FieldError] = []
    limit = DEFAULT_LIMIT if limit is None else limit
    offset = 0 if offset is None else offset
    if not 1 <= limit <= MAX_LIMIT:
        errors.append(FieldError("limit", f"must be between 1 and {MAX_LIMIT}, got {limit}"))
    if not 0 <= offset <= MAX_OFFSET:
        errors.append(FieldError("offset", f"must be between 0 and {MAX_OFFSET}, got {offset}"))
    field, _, direction = (DEFAULT_SORT if sort is None else sort).partition(":")
    if field not in allowed:
        errors.append(
            FieldError("sort", f"unknown sort field {field!r}; allowed: {', '.join(allowed)}")
        )
    elif direction not in {"asc", "desc"}:
        errors.append(FieldError("sort", "must be field:asc or field:desc"))
    if errors:
        raise InvalidInput("; ".join(f"{e.field}: {e.message}" for e in errors), errors)
    return ListParams(limit=limit, offset=offset, sort_field=field, descending=direction == "desc")
