"""List parameters and the pagination envelope shared by every list (CONTRACT.md section 2).

Besides ``offset``, a list takes ``after``: the ``next_after`` cursor of the page before, naming
the sort value and the id of that page's last row. The next page then starts right after that row
(keyset pagination): one index range scan however deep, where a deep ``offset`` reads and skips
every row before it. docs/decisions.md says what a client sees.
"""

from __future__ import annotations

import base64
import binascii
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Generic, TypeVar
from uuid import UUID

import msgspec

from app.errors import FieldError, InvalidInput

T = TypeVar("T")

DEFAULT_LIMIT = 25
MAX_LIMIT = 100
MAX_OFFSET = 2**31 - 1
"""Far beyond any list, and small enough that ``offset + limit`` stays a valid SQL integer."""
DEFAULT_SORT = "created_at:desc"
MAX_AFTER_LENGTH = 512
"""Longer than any cursor the lists give out."""


class Pagination(msgspec.Struct):
    total: int
    limit: int
    offset: int
    has_more: bool
    next_after: str | None = None
    """Send as ``after`` for the page that follows this one (null on the last page)."""


class Page(msgspec.Struct, Generic[T]):
    data: list[T]
    pagination: Pagination


@dataclass(frozen=True, slots=True)
class After:
    """Where a keyset page starts: after the row with this sort value and id."""

    value: Any
    """As JSON carried it (a timestamp or an amount is a string); the list converts it."""
    id: UUID


@dataclass(frozen=True, slots=True)
class ListParams:
    limit: int
    offset: int
    sort_field: str
    descending: bool
    after: After | None = None

    @property
    def sort(self) -> str:
        return f"{self.sort_field}:{'desc' if self.descending else 'asc'}"


def encode_after(sort: str, value: Any, row_id: UUID) -> str:
    """The cursor of the row with sort ``value`` and ``row_id`` in a list sorted by ``sort``."""
    raw = msgspec.json.encode([sort, value, str(row_id)])
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def decode_after(cursor: str, sort: str) -> After:
    """The row a cursor names; :class:`InvalidInput` unless it is a cursor of a list sorted by
    ``sort``."""
    try:
        if len(cursor) > MAX_AFTER_LENGTH:
            raise ValueError(cursor)
        raw = base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4))
        cursor_sort, value, row_id = msgspec.json.decode(raw, type=tuple[str, Any, UUID])
    except (binascii.Error, ValueError, msgspec.ValidationError):
        raise InvalidInput.field(
            "after", "not a cursor: send the next_after of a page of this list"
        ) from None
    if cursor_sort != sort:
        raise InvalidInput.field(
            "after", f"the cursor is of a page sorted by {cursor_sort}; send that sort with it"
        )
    return After(value, row_id)


def list_params(
    *,
    limit: int | None,
    offset: int | None,
    sort: str | None,
    allowed: Sequence[str],
    after: str | None = None,
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
    if after is not None and offset:
        errors.append(FieldError("after", "send either after or offset, not both"))
    if errors:
        raise InvalidInput("; ".join(f"{e.field}: {e.message}" for e in errors), errors)
    descending = direction == "desc"
    params = ListParams(limit=limit, offset=offset, sort_field=field, descending=descending)
    if after is None:
        return params
    return ListParams(limit, offset, field, descending, decode_after(after, params.sort))
