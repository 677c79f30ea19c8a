"""List parameters and the pagination envelope shared by every list (CONTRACT.md section 2)."""

from __future__ import annotations

import operator
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import reduce
from typing import Any, Generic, TypeVar

import msgspec
from piccolo.columns import Column
from piccolo.columns.combination import Combinable, WhereRaw
from piccolo.query.functions.aggregate import Count
from piccolo.table import Table

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


async def fetch_page(
    table: type[Table],
    where: Sequence[Combinable],
    params: ListParams,
    to_record: Callable[[dict[str, Any]], T],
) -> Page[T]:
    """One page of ``table`` rows matching ``where``, sorted with ``id`` as the tie-breaker.

    Two statements, whatever the page size: the count and the page itself.
    """
    ascending = not params.descending
    rows = (
        await table.select()
        .where(*where)
        .order_by(table._meta.get_column_by_name(params.sort_field), ascending=ascending)
        .order_by(table._meta.primary_key, ascending=ascending)
        .limit(params.limit)
        .offset(params.offset)
    )
    total = await table.count().where(*where)
    data = [to_record(row) for row in rows]
    return Page(
        data=data,
        pagination=Pagination(
            total=total,
            limit=params.limit,
            offset=params.offset,
            has_more=params.offset + len(data) < total,
        ),
    )


async def fetch_pages(
    table: type[Table],
    parent: Column,
    parent_ids: Sequence[Any],
    where: Sequence[Combinable],
    params: ListParams,
    to_record: Callable[[dict[str, Any]], T],
) -> dict[Any, Page[T]]:
    """The same page of ``table`` rows for each of ``parent_ids`` (the rows whose ``parent``
    column holds that id), sorted as :func:`fetch_page` sorts.

    Two statements, whatever the number of parents: a window function numbers each parent's rows
    so that one query returns every page, and one grouped count gives the totals. This is what
    lets GraphQL resolve a nested list under a list without a query per item.
    """
    if not parent_ids:
        return {}
    ids = list(dict.fromkeys(parent_ids))
    conditions = reduce(operator.and_, [parent.is_in(ids), *where])
    name = table._meta.tablename
    key = table._meta.primary_key._meta.db_column_name
    sort_column = table._meta.get_column_by_name(params.sort_field)
    direction = "DESC" if params.descending else "ASC"
    ranked = (
        f'"{name}"."{key}" IN (SELECT ranked.id FROM (SELECT "{name}"."{key}" AS id, '
        f'ROW_NUMBER() OVER (PARTITION BY "{name}"."{parent._meta.db_column_name}" '
        f'ORDER BY "{name}"."{sort_column._meta.db_column_name}" {direction}, '
        f'"{name}"."{key}" {direction}) AS position FROM "{name}" WHERE '
        "{}) AS ranked WHERE ranked.position > {} AND ranked.position <= {})"
    )
    ascending = not params.descending
    rows = (
        await table.select()
        .where(
            WhereRaw(ranked, conditions.querystring, params.offset, params.offset + params.limit)
        )
        .order_by(parent)
        .order_by(sort_column, ascending=ascending)
        .order_by(table._meta.primary_key, ascending=ascending)
    )
    counts = (
        await table.select(parent.as_alias("parent"), Count(alias="total"))
        .where(conditions)
        .group_by(parent)
    )
    totals = {row["parent"]: row["total"] for row in counts}
    grouped: dict[Any, list[T]] = {parent_id: [] for parent_id in ids}
    for row in rows:
        grouped[row[parent._meta.name]].append(to_record(row))
    return {
        parent_id: Page(
            data=data,
            pagination=Pagination(
                total=totals.get(parent_id, 0),
                limit=params.limit,
                offset=params.offset,
                has_more=params.offset + len(data) < totals.get(parent_id, 0),
            ),
        )
        for parent_id, data in grouped.items()
    }
