"""The read side of a resource, declared once: its record, scope, sort fields, filters and parents.

Every read of a resource goes through its :class:`Resource`: one record by id (404 when it is not
the caller's), records by ids (for dataloaders), one page (REST lists and GraphQL root lists) and
the same page for many parents (GraphQL's nested lists). So a list exists once, whether REST or
a dataloader asks for it, and its scope, bounds and sort fields are the same everywhere.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from decimal import Decimal
from typing import Any, Generic, TypeVar
from uuid import UUID

import msgspec
from piccolo.columns import Column, Integer, Numeric, Timestamptz
from piccolo.querystring import QueryString
from piccolo.table import Table

from app.errors import InvalidInput, NotFound
from app.pagination import ListParams, Page, Pagination, encode_after, list_params
from app.principal import Principal
from app.records import mapper
from db import lists
from db.counts import Counts, equalities
from db.lists import Row

R = TypeVar("R", bound=msgspec.Struct)

Filter = Callable[[Any], QueryString]
"""Turns a filter's value (never None) into a condition."""

Enrich = Callable[[list[Row]], Awaitable[None]]
"""Adds to a batch of rows what their records need beyond their own columns (one statement)."""


def equals(column: str) -> Filter:
    return lambda value: lists.condition(f'"{column}" = {{}}', value)


@dataclass(frozen=True, slots=True)
class Parent:
    """A column that groups the resource under another one, e.g. tickets under their event."""

    column: str
    table: type[Table]
    kind: str


@dataclass(eq=False)
class Resource(Generic[R]):
    table: type[Table]
    record: type[R]
    kind: str
    """What a 404 calls one, e.g. "ticket type"."""
    scope: str
    sort_fields: tuple[str, ...] = ("created_at",)
    parents: Mapping[str, Parent] = field(default_factory=dict)
    filters: Mapping[str, Filter] = field(default_factory=dict)
    enrich: Enrich | None = None
    counts: Counts | None = None
    """Where the exact totals of unfiltered (or status-filtered) pages are kept, if anywhere."""

    def to_records(self, rows: list[Row]) -> list[R]:
        to_record = mapper(self.record)
        return [to_record(row) for row in rows]

    def _owned(self, principal: Principal) -> QueryString:
        return lists.condition('"organization_id" = {}', principal.organization_id)

    def _conditions(self, principal: Principal, filters: Mapping[str, Any]) -> list[QueryString]:
        conditions = [self._owned(principal)]
        for name, value in filters.items():
            if value is not None:
                conditions.append(self.filters[name](value))
        return conditions

    async def _records(self, rows: list[Row]) -> list[R]:
        if self.enrich is not None and rows:
            await self.enrich(rows)
        return self.to_records(rows)

    async def get(self, principal: Principal, record_id: UUID) -> R:
        """The caller's record ``record_id``; :class:`NotFound` when it is not theirs."""
        principal.require(self.scope)
        found = await self._load(principal, [record_id])
        if record_id not in found:
            raise NotFound.resource(self.kind, record_id)
        return found[record_id]

    async def load(self, principal: Principal, record_ids: Sequence[UUID]) -> dict[UUID, R]:
        """The caller's records among ``record_ids``, keyed by id (for dataloaders)."""
        principal.require(self.scope)
        return await self._load(principal, record_ids)

    async def _load(self, principal: Principal, record_ids: Sequence[UUID]) -> dict[UUID, R]:
        if not record_ids:
            return {}
        rows = await lists.fetch_rows(
            self.table,
            [self._owned(principal), lists.in_list("id", list(set(record_ids)), self.table)],
        )
        return {record.id: record for record in await self._records(rows)}  # type: ignore[attr-defined]

    def params(
        self, limit: int | None, offset: int | None, sort: str | None, after: str | None = None
    ) -> ListParams:
        return list_params(
            limit=limit, offset=offset, sort=sort, allowed=self.sort_fields, after=after
        )

    def _after(self, params: ListParams) -> QueryString:
        """The condition of a keyset page: rows after the cursor's, in the page's order."""
        assert params.after is not None
        column = self.table._meta.get_column_by_name(params.sort_field)
        if column._meta.null:
            raise InvalidInput.field(
                "after",
                f"not available with sort {params.sort_field}, which may be empty; use offset",
            )
        try:
            value = _column_value(column, params.after.value)
        except (TypeError, ValueError, ArithmeticError):
            raise InvalidInput.field("after", "not a cursor of this list") from None
        comparison = "<" if params.descending else ">"
        return lists.condition(
            f'("{params.sort_field}", "id") {comparison} ({{}}, {{}})', value, params.after.id
        )

    async def page(
        self,
        principal: Principal,
        *,
        within: tuple[str, UUID] | None = None,
        limit: int | None = None,
        offset: int | None = None,
        sort: str | None = None,
        after: str | None = None,
        **filters: Any,
    ) -> Page[R]:
        """One page of the caller's records; ``within`` = (parent column, id) keeps one parent's
        records and is a 404 when that parent is not the caller's. ``after`` (a page's
        ``next_after``) starts the page after that page's last row."""
        principal.require(self.scope)
        params = self.params(limit, offset, sort, after)
        conditions = self._conditions(principal, filters)
        if params.after is not None:
            conditions.append(self._after(params))
        if within is not None:
            column, parent_id = within
            await self._require_parent(principal, self.parents[column], parent_id)
            conditions.append(lists.condition(f'"{column}" = {{}}', parent_id))
        narrowed = equalities(filters, [within] if within else [])
        counts, counted = self.counts, None
        if counts is not None and counts.answers(narrowed):
            counted = lambda: counts.total(self.table, principal.organization_id, narrowed)  # noqa: E731
        # A keyset page reads one row more than it shows: whether it exists is has_more.
        extra = 1 if params.after is not None else 0
        rows, total = await lists.fetch_page(
            self.table, conditions, _order(params), params.limit + extra, params.offset,
            total=counted,
        )  # fmt: skip
        more = len(rows) > params.limit if extra else None
        rows = rows[: params.limit]
        return _page(await self._records(rows), total, params, rows, more)

    async def pages(
        self,
        principal: Principal,
        parent: str,
        parent_ids: Sequence[UUID],
        *,
        limit: int | None = None,
        offset: int | None = None,
        sort: str | None = None,
        **filters: Any,
    ) -> dict[UUID, Page[R]]:
        """The same page of records for each of ``parent_ids`` (two statements, plus the
        enrichment, however many parents); a parent that is not the caller's gets an empty page."""
        principal.require(self.scope)
        params = self.params(limit, offset, sort)
        column = self.parents[parent].column
        narrowed = equalities(filters)
        counts, counted = self.counts, None
        if counts is not None and counts.answers({**narrowed, column: None}):
            counted = lambda within: counts.totals(  # noqa: E731
                self.table, principal.organization_id, column, within, narrowed
            )
        found = await lists.fetch_pages(
            self.table,
            column,
            parent_ids,
            self._conditions(principal, filters),
            _order(params),
            params.limit,
            params.offset,
            totals=counted,
        )
        every_row = [row for rows, _ in found.values() for row in rows]
        if self.enrich is not None and every_row:
            await self.enrich(every_row)
        return {
            parent_id: _page(self.to_records(rows), total, params, rows)
            for parent_id, (rows, total) in found.items()
        }

    async def _require_parent(self, principal: Principal, parent: Parent, parent_id: UUID) -> None:
        if not await lists.exists(
            parent.table, [self._owned(principal), lists.condition('"id" = {}', parent_id)]
        ):
            raise NotFound.resource(parent.kind, parent_id)


def _order(params: ListParams) -> lists.Order:
    return lists.Order(params.sort_field, params.descending)


def _page(
    records: list[R], total: int, params: ListParams, rows: list[Row], more: bool | None = None
) -> Page[R]:
    """The page of ``records`` (from ``rows``); ``more`` says whether rows follow a keyset page
    (an offset page knows it from the total)."""
    has_more = params.offset + len(records) < total if more is None else more
    last = rows[-1] if rows and has_more else None
    return Page(
        data=records,
        pagination=Pagination(
            total=total,
            limit=params.limit,
            offset=params.offset,
            has_more=has_more,
            next_after=(
                encode_after(params.sort, last[params.sort_field], last["id"])
                if last is not None
                else None
            ),
        ),
    )


def _column_value(column: Column, value: Any) -> Any:
    """A cursor's sort value (as JSON carried it) as the column compares it."""
    if isinstance(column, Timestamptz):
        return datetime.fromisoformat(value)
    if isinstance(column, Numeric):
        return Decimal(value)
    if isinstance(column, Integer):
        if not isinstance(value, int):
            raise TypeError(value)
        return value
    if not isinstance(value, str):
        raise TypeError(value)
    return value
