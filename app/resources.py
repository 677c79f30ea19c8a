"""The read side of a resource, declared once: its record, scope, sort fields, filters and parents.

Every read of a resource goes through its :class:`Resource`: one record by id (404 when it is not
the caller's), records by ids (for dataloaders), one page (REST lists and GraphQL root lists), the
same page for many parents (GraphQL's nested lists) and every matching record in chunks (exports).
So a list exists once, whether REST, a dataloader or an export asks for it, and its scope, bounds,
filters and sort fields are the same everywhere.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncGenerator, Awaitable, Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from decimal import Decimal
from typing import Any, Generic, Literal, NamedTuple, TypeVar
from uuid import UUID

import msgspec
from piccolo.columns import Column, Integer, Numeric, Timestamptz
from piccolo.querystring import QueryString
from piccolo.table import Table

from app.errors import FieldError, InvalidInput, NotFound
from app.ids import parse_id
from app.pagination import ListParams, Page, Pagination, encode_after, list_params
from app.principal import Principal
from app.records import mapper
from app.timeutil import parse_timestamp, require_offset
from db import lists
from db.counts import Counts

R = TypeVar("R", bound=msgspec.Struct)

Rows = Sequence[Mapping[str, Any]]
"""A batch of rows as read (asyncpg's records are read-only mappings)."""

Enrich = Callable[[Rows], Awaitable[Rows]]
"""A batch of rows with what their records need beyond their own columns added (one statement):
the rows may be read-only mappings (asyncpg's), so a row added to is returned as a copy
(``{**row, ...}``), and a row nothing is added to as it is."""

FilterKind = Literal["id", "timestamp", "text", "choice"]

EXPORT_CHUNK_ROWS = 1000
"""Records per chunk of an export: what one export holds in memory at a time."""


@dataclass(frozen=True, slots=True)
class Filter:
    """A list filter, declared once: REST makes it a query parameter (``rest.lists``), GraphQL an
    argument (``graphql_api.lists``), both with this name, description and bounds; the resource
    parses the value and adds ``column operator value`` to the list's conditions.

    ``name`` is the public name (the REST query parameter; GraphQL uses its camelCase). A value
    arrives as text (a query string) or already typed (GraphQL's ``DateTime`` and ``ID``)."""

    name: str
    column: str
    operator: Literal["=", ">=", "<"]
    description: str
    kind: FilterKind = "text"
    choices: tuple[str, ...] = ()
    max_length: int = 320
    lower: bool = False
    """Compare lower-cased (e-mail addresses are stored lower-cased)."""

    def values(self, parsed: Any) -> tuple[Any, ...]:
        """The values of the condition on ``parsed`` (:meth:`parse`'s), in order."""
        return (parsed,)

    def condition(self, *values: Any) -> QueryString:
        """The condition on its :meth:`values` (or ``db.lists.Slot`` s in their places)."""
        return lists.condition(f'"{self.column}" {self.operator} {{}}', *values)

    def parse(self, value: Any) -> Any:
        """The value as the condition takes it; :class:`InvalidInput` naming the filter."""
        if self.kind == "id":
            return value if isinstance(value, UUID) else parse_id(value, self.name)
        if self.kind == "timestamp":
            if isinstance(value, datetime):
                return require_offset(value, self.name)
            return parse_timestamp(value, self.name)
        if not isinstance(value, str):
            raise InvalidInput.field(self.name, "must be a string")
        if self.kind == "choice" and value not in self.choices:
            raise InvalidInput.field(self.name, f"must be one of {', '.join(self.choices)}")
        if not 1 <= len(value) <= self.max_length:
            raise InvalidInput.field(self.name, f"must be 1 to {self.max_length} characters long")
        if "\x00" in value:
            raise InvalidInput.field(self.name, "must not contain U+0000")
        return value.lower() if self.lower else value


@dataclass(frozen=True, slots=True)
class PrefixFilter(Filter):
    """Rows whose ``column`` starts with the given text, case-insensitive (``db.lists.starts_with``:
    the table needs an index on the column's lower-cased value)."""

    def values(self, parsed: Any) -> tuple[Any, ...]:
        return lists.prefix_range(parsed)

    def condition(self, *values: Any) -> QueryString:
        return lists.starts_with(self.column, *values)


def prefix_filter(column: str, description: str, *, max_length: int) -> PrefixFilter:
    """Rows whose ``column`` starts with the given text, ignoring case."""
    return PrefixFilter(column, column, ">=", description, max_length=max_length)


def id_filter(column: str, description: str) -> Filter:
    """Rows whose ``column`` holds the given id."""
    return Filter(column, column, "=", description, kind="id")


def choice_filter(column: str, choices: Sequence[str], description: str) -> Filter:
    """Rows whose ``column`` holds the given value, one of ``choices``."""
    return Filter(column, column, "=", description, kind="choice", choices=tuple(choices))


def text_filter(column: str, description: str, *, max_length: int, lower: bool = False) -> Filter:
    """Rows whose ``column`` equals the given text (exactly, or lower-cased with ``lower``)."""
    return Filter(column, column, "=", description, max_length=max_length, lower=lower)


def since(column: str, name: str, description: str) -> Filter:
    """Rows whose timestamp ``column`` is at or after the given one."""
    return Filter(name, column, ">=", description, kind="timestamp")


def until(column: str, name: str, description: str) -> Filter:
    """Rows whose timestamp ``column`` is before the given one."""
    return Filter(name, column, "<", description, kind="timestamp")


@dataclass(frozen=True, slots=True)
class Parent:
    """A column that groups the resource under another one, e.g. tickets under their event."""

    column: str
    table: type[Table]
    kind: str


@dataclass(frozen=True, slots=True)
class PageUnder(Generic[R]):
    """A parent's record, its page of records, and the records of the relations read with them,
    by resource and id (:meth:`PlannedPageUnder.read`)."""

    parent: Any
    page: Page[R]
    related: dict[Resource[Any], dict[UUID, Any]]


@dataclass(eq=False)
class Resource(Generic[R]):
    table: type[Table]
    record: type[R]
    kind: str
    """What a 404 calls one, e.g. "ticket type"."""
    scope: str | None
    """The scope a read needs; None: any credential, the service that reads says who may (the
    audit log and the OAuth applications: people signed in to the dashboard)."""
    sort_fields: tuple[str, ...] = ("created_at",)
    parents: Mapping[str, Parent] = field(default_factory=dict)
    filters: Mapping[str, Filter] = field(default_factory=dict)
    """Keyword (a Python name) -> filter; the keyword is the filter's name unless that is not
    a Python name (``from``)."""
    enrich: Enrich | None = None
    counts: Counts | None = None
    """Where the exact totals of pages narrowed only by equalities the counts know are kept."""
    sort_expressions: Mapping[str, Callable[[], str]] = field(default_factory=dict)
    """Sort field -> the SQL expression it orders by instead of its column (given the engine
    at query time), e.g. a name lower-cased, so that a list filtered by that expression's index
    walks the index in order. Such a sort has no keyset pages."""

    def allows(self, principal: Principal) -> bool:
        """Whether ``principal`` holds this resource's scope (any credential when it has none)."""
        return self.scope is None or self.scope in principal.scopes

    def _allow(self, principal: Principal) -> None:
        if self.scope is not None:
            principal.require(self.scope)

    def to_records(self, rows: Sequence[Mapping[str, Any]]) -> list[R]:
        return mapper(self.record).many(rows)

    def _owned(self, principal: Principal) -> QueryString:
        return _owned_by(principal.organization_id)

    def _parsed(self, filters: Mapping[str, Any]) -> dict[str, Any]:
        """The filters given (None: not given), each value parsed; every bad filter value is
        reported at once."""
        parsed: dict[str, Any] = {}
        errors: list[FieldError] = []
        for key, value in filters.items():
            if value is None:
                continue
            try:
                parsed[key] = self.filters[key].parse(value)
            except InvalidInput as error:
                errors += error.errors
        if errors:
            raise InvalidInput("; ".join(f"{e.field}: {e.message}" for e in errors), errors)
        return parsed

    def _conditions(self, principal: Principal, filters: Mapping[str, Any]) -> list[QueryString]:
        """The organization's rows that match every filter given (None: not given); every bad
        filter value is reported at once."""
        conditions = [self._owned(principal)]
        for key, value in self._parsed(filters).items():
            declared = self.filters[key]
            conditions.append(declared.condition(*declared.values(value)))
        return conditions

    def _equalities(
        self, parsed: Mapping[str, Any], within: tuple[str, Any] | None = None
    ) -> dict[str, Any] | None:
        """Column -> value of the filters given (:meth:`_parsed`) and the parent, when every one
        of them is an equality; None when one is not (a range, say)."""
        found: dict[str, Any] = {}
        for key, value in parsed.items():
            declared = self.filters[key]
            if declared.operator != "=":
                return None
            found[declared.column] = value
        if within is not None:
            found[within[0]] = within[1]
        return found

    def _gathered(
        self, parsed: Mapping[str, Any]
    ) -> tuple[dict[Hashable, Any], tuple[tuple[str, int, Any], ...]]:
        """The values of a kept statement's filters (``parsed``), by the names of their slots
        (:func:`_filtered`), and the filters as its shape holds them: each with the number of
        its values and, for a choice, its value."""
        gathered: dict[Hashable, Any] = {}
        given: list[tuple[str, int, Any]] = []
        for key, value in parsed.items():
            declared = self.filters[key]
            values = declared.values(value)
            gathered.update(((key, number), one) for number, one in enumerate(values))
            given.append((key, len(values), value if declared.kind == "choice" else None))
        return gathered, tuple(given)

    async def _within(
        self, principal: Principal, filters: Mapping[str, Any], within: tuple[str, UUID] | None
    ) -> list[QueryString]:
        """The conditions of a list: the filters', and with ``within`` = (parent column, id) the
        parent's, a 404 when that parent is not the caller's."""
        conditions = self._conditions(principal, filters)
        if within is not None:
            column, parent_id = within
            await self._require_parent(principal, self.parents[column], parent_id)
            conditions.append(lists.condition(f'"{column}" = {{}}', parent_id))
        return conditions

    async def _records(self, rows: Sequence[Mapping[str, Any]]) -> list[R]:
        """The records of ``rows``, with what the enrichment adds."""
        if self.enrich is not None and rows:
            rows = await self.enrich(rows)
        return self.to_records(rows)

    async def get(self, principal: Principal, record_id: UUID) -> R:
        """The caller's record ``record_id``; :class:`NotFound` when it is not theirs."""
        self._allow(principal)
        found = await self._load(principal, [record_id])
        if record_id not in found:
            raise NotFound.resource(self.kind, record_id)
        return found[record_id]

    async def load(self, principal: Principal, record_ids: Sequence[UUID]) -> dict[UUID, R]:
        """The caller's records among ``record_ids``, keyed by id (for dataloaders)."""
        self._allow(principal)
        return await self._load(principal, record_ids)

    async def _load(self, principal: Principal, record_ids: Sequence[UUID]) -> dict[UUID, R]:
        if not record_ids:
            return {}
        rows = await lists.fetch_rows(
            self.table,
            [self._owned(principal), lists.in_list("id", list(set(record_ids)))],
        )
        # Every resource's record has an id; R's bound, msgspec.Struct, declares no field.
        return {record.id: record for record in await self._records(rows)}  # type: ignore[attr-defined]

    def params(
        self, limit: int | None, offset: int | None, sort: str | None, after: str | None = None
    ) -> ListParams:
        return list_params(
            limit=limit, offset=offset, sort=sort, allowed=self.sort_fields, after=after
        )

    def _after(self, params: ListParams) -> tuple[Any, UUID]:
        """The values of a keyset page's condition (:func:`_after`): the cursor's sort value as
        the column compares it, and its row's id."""
        assert params.after is not None
        if params.sort_field in self.sort_expressions:
            raise InvalidInput.field("after", f"not available with sort {params.sort_field}")
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
        return value, params.after.id

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
        self._allow(principal)
        params = self.params(limit, offset, sort, after)
        parsed = self._parsed(filters)
        gathered, given = self._gathered(parsed)
        gathered["organization"] = principal.organization_id
        if within is not None:
            gathered["parent"] = within[1]
        if params.after is not None:
            gathered["after"], gathered["after id"] = self._after(params)
        narrowed = self._equalities(parsed, within)
        counts = self.counts
        counted = counts is not None and narrowed is not None and counts.answers(narrowed)
        # A keyset page reads one row more than it shows: whether it exists is has_more.
        extra = 1 if params.after is not None else 0
        shape = _PageShape(
            self,
            given,
            within[0] if within is not None else None,
            params.after is not None,
            self._order(params),
            params.limit + extra,
            params.offset,
            counted,
        )
        found = await lists.fetch_kept_page(self.table, shape, gathered, _page_parts)
        if within is not None and not found.values["parent"]:
            raise NotFound.resource(self.parents[within[0]].kind, within[1])
        if counts is not None and counted and narrowed is not None:
            await counts.fold_if_spread(self.table, narrowed, int(found.values["shards"] or 0))
        more = len(found.rows) > params.limit if extra else None
        rows = found.rows[: params.limit]
        page = _page(await self._records(rows), found.total, params, rows, more)
        if params.sort_field in self.sort_expressions:
            page.pagination.next_after = None
        return page

    async def export(
        self,
        principal: Principal,
        *,
        within: tuple[str, UUID] | None = None,
        sort: str | None = None,
        **filters: Any,
    ) -> AsyncGenerator[list[R], None]:
        """Every record of the list :meth:`page` would show, in the page's order, as chunks of
        at most ``EXPORT_CHUNK_ROWS`` records read from one cursor (no pagination, memory of one
        chunk whatever the size). Scope, filters and the parent are checked here, before the
        first record, so that a bad request fails as a whole; close the iterator (``aclose``)
        when stopping early, which gives the connection back."""
        self._allow(principal)
        params = self.params(None, None, sort)
        conditions = await self._within(principal, filters, within)
        return self._export(conditions, self._order(params))

    async def _export(
        self, conditions: list[QueryString], order: lists.Order
    ) -> AsyncGenerator[list[R], None]:
        rows = lists.stream_rows(self.table, conditions, order, EXPORT_CHUNK_ROWS)
        async with contextlib.aclosing(rows):
            async for chunk in rows:
                yield await self._records(chunk)

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
        """The same page of records for each of ``parent_ids`` (one statement on PostgreSQL, two
        on SQLite, plus the enrichment, however many parents); a parent that is not the caller's
        gets an empty page."""
        self._allow(principal)
        params = self.params(limit, offset, sort)
        column = self.parents[parent].column
        found = await lists.fetch_pages(
            self.table,
            column,
            parent_ids,
            self._conditions(principal, filters),
            self._order(params),
            params.limit,
            params.offset,
            totals=self._kept_totals(principal, column, filters),
        )
        pages: Mapping[UUID, tuple[Sequence[Mapping[str, Any]], int]] = found
        every_row = [row for rows, _ in found.values() for row in rows]
        if self.enrich is not None and every_row:
            enriched = iter(await self.enrich(every_row))
            pages = {
                parent_id: ([next(enriched) for _ in rows], total)
                for parent_id, (rows, total) in found.items()
            }
        return {
            parent_id: _page(self.to_records(rows), total, params, rows)
            for parent_id, (rows, total) in pages.items()
        }

    def plan_under(
        self,
        parent: Resource[Any],
        column: str,
        related: Sequence[tuple[str, Resource[Any]]] = (),
        *,
        limit: int | None = None,
        offset: int | None = None,
        sort: str | None = None,
        **filters: Any,
    ) -> PlannedPageUnder[R]:
        """What reading the record of ``parent`` with the page :meth:`pages` gives under it and
        the records of the ``related`` resources (:meth:`PlannedPageUnder.read`) takes from
        these arguments alone: made once for arguments that are the same for every request.
        :class:`InvalidInput` when they are not a page's."""
        params = self.params(limit, offset, sort)
        column = self.parents[column].column
        parsed = self._parsed(filters)
        values, given = self._gathered(parsed)
        narrowed = self._equalities(parsed)
        counts = self.counts
        shape = _PageUnderShape(
            self,
            parent,
            column,
            given,
            self._order(params),
            params.limit,
            params.offset,
            counts is not None
            and narrowed is not None
            and counts.answers({**narrowed, column: None}),
            tuple(related),
        )
        return PlannedPageUnder(shape, params, values)

    def _kept_totals(
        self, principal: Principal, column: str, filters: Mapping[str, Any]
    ) -> Callable[[QueryString], QueryString] | None:
        """The statement reading the kept totals of the pages under ``column``'s values (given
        the condition selecting them), when the counts answer for ``filters``; None: count."""
        narrowed = self._equalities(self._parsed(filters))
        counts = self.counts
        if counts is None or narrowed is None or not counts.answers({**narrowed, column: None}):
            return None
        return lambda within: counts.totals(principal.organization_id, column, within, narrowed)

    async def _require_parent(self, principal: Principal, parent: Parent, parent_id: UUID) -> None:
        if not await lists.exists(
            parent.table, [self._owned(principal), lists.condition('"id" = {}', parent_id)]
        ):
            raise NotFound.resource(parent.kind, parent_id)

    def _order(self, params: ListParams) -> lists.Order:
        expression = self.sort_expressions.get(params.sort_field)
        return lists.Order(
            params.sort_field, params.descending, expression() if expression else None
        )


def _owned_by(organization_id: Any) -> QueryString:
    """The rows of the organization (its id, or a ``db.lists.Slot`` in its place)."""
    return lists.condition('"organization_id" = {}', organization_id)


class _PageShape(NamedTuple):
    """What the statement of a page of :meth:`Resource.page` depends on, besides its values
    (``db.lists.fetch_kept_page``): the resource; the filters given, in order, each with the
    number of its values and, for a choice, its value (one of a few, and the counts pick their
    columns by a status); the parent's column; whether a cursor starts the page; the order and
    bounds; whether the kept counts answer the total."""

    resource: Resource[Any]
    filters: tuple[tuple[str, int, Any], ...]
    within: str | None
    after: bool
    order: lists.Order
    limit: int
    offset: int
    counted: bool


def _filtered(
    resource: Resource[Any], organization: lists.Slot, filters: tuple[tuple[str, int, Any], ...]
) -> tuple[list[QueryString], dict[str, Any]]:
    """The conditions of a kept statement's organization and ``filters`` (as its shape holds
    them: :meth:`Resource._gathered`), a slot in the place of each value, and the equalities
    the counts would read (a choice by its value, which picks their columns)."""
    conditions = [_owned_by(organization)]
    equalities: dict[str, Any] = {}
    for key, count, choice in filters:
        declared = resource.filters[key]
        slots = [lists.Slot((key, number)) for number in range(count)]
        conditions.append(declared.condition(*slots))
        equalities[declared.column] = choice if choice is not None else slots[0]
    return conditions, equalities


def _page_parts(shape: _PageShape) -> lists.PageParts:
    """The parts of the statement of the pages of ``shape``, a ``db.lists.Slot`` in the place of
    each value: the organization's (``"organization"``), each filter's (its key and the value's
    number), the parent's id (``"parent"``) and the cursor's (``"after"``, ``"after id"``), as
    :meth:`Resource.page` gathers them."""
    resource = shape.resource
    organization = lists.Slot("organization")
    conditions, equalities = _filtered(resource, organization, shape.filters)
    scalars: dict[str, QueryString] = {}
    if shape.within is not None:
        parent_id = lists.Slot("parent")
        conditions.append(lists.condition(f'"{shape.within}" = {{}}', parent_id))
        scalars["parent"] = lists.exists_query(
            resource.parents[shape.within].table,
            [_owned_by(organization), lists.condition('"id" = {}', parent_id)],
        )
        equalities[shape.within] = parent_id
    if shape.after:
        comparison = "<" if shape.order.descending else ">"
        conditions.append(
            lists.condition(
                f'("{shape.order.column}", "id") {comparison} ({{}}, {{}})',
                lists.Slot("after"),
                lists.Slot("after id"),
            )
        )
    total = None
    if shape.counted:
        assert resource.counts is not None
        total = resource.counts.total(organization, equalities)
        scalars["shards"] = lists.condition('counted."shards"')
    return lists.PageParts(conditions, shape.order, shape.limit, shape.offset, total, scalars)


class _PageUnderShape(NamedTuple):
    """What the statement of :class:`PlannedPageUnder` depends on besides its values: the
    resource, its parent's and the parent's column, the filters given (as in
    :class:`_PageShape`), the order and bounds, whether the kept counts answer the total, and
    the relations read (last, so that a caller who may not read some of them gets the same
    shape with fewer: ``_PageUnderShape(*shape[:-1], fewer)``)."""

    resource: Resource[Any]
    parent: Resource[Any]
    column: str
    filters: tuple[tuple[str, int, Any], ...]
    order: lists.Order
    limit: int
    offset: int
    counted: bool
    related: tuple[tuple[str, Resource[Any]], ...]


@dataclass(frozen=True, slots=True)
class PlannedPageUnder(Generic[R]):
    """A page under its parent as its arguments decide it (:meth:`Resource.plan_under`): the
    statement's shape, the page's parameters and its filters' values."""

    shape: _PageUnderShape
    params: ListParams
    values: Mapping[Hashable, Any]

    async def read(self, principal: Principal, parent_id: UUID) -> PageUnder[R] | None:
        """The record ``parent_id`` of the parent (as its ``load`` reads it), the page under it
        and the records of the relations whose ids the page's rows hold in the key columns
        named, in one statement (``db.lists.fetch_page_under``). None when the parent is not
        the caller's, and on SQLite: the caller then reads them its usual way. The page's and
        the parent's scopes are required; a related resource whose scope the caller lacks is
        left out (its fields answer their own refusal)."""
        shape = self.shape
        resource: Resource[R] = shape.resource
        parent = shape.parent
        resource._allow(principal)
        parent._allow(principal)
        related = shape.related
        if not all(other.allows(principal) for _, other in related):
            related = tuple((key, other) for key, other in related if other.allows(principal))
            shape = _PageUnderShape(*shape[:-1], related)
        gathered = {**self.values, "organization": principal.organization_id, "parent": parent_id}
        found = await lists.fetch_page_under(resource.table, shape, gathered, _page_under_parts)
        if found is None or found.parent is None:
            return None
        [parent_record] = await parent._records([found.parent])
        records: dict[Resource[Any], dict[UUID, Any]] = {}
        for (_, other), rows in zip(related, found.related, strict=True):
            records.setdefault(other, {}).update(
                (record.id, record) for record in await other._records(rows)
            )
        params = self.params
        page = _page(await resource._records(found.rows), found.total, params, found.rows)
        return PageUnder(parent_record, page, records)


def _page_under_parts(shape: _PageUnderShape) -> lists.PageUnderParts:
    """The parts of the statement of the pages under a parent of ``shape``, a ``db.lists.Slot``
    in the place of each value, named as :meth:`PlannedPageUnder.read` gathers them (as
    :func:`_page_parts` names them)."""
    resource = shape.resource
    organization = lists.Slot("organization")
    parent_id = lists.Slot("parent")
    conditions, equalities = _filtered(resource, organization, shape.filters)
    within = lists.condition(f'"{shape.column}" = {{}}', parent_id)
    total = None
    if shape.counted:
        assert resource.counts is not None
        total = resource.counts.totals(organization, shape.column, within, equalities)
    return lists.PageUnderParts(
        shape.parent.table,
        [_owned_by(organization), lists.condition('"id" = {}', parent_id)],
        [*conditions, within],
        shape.order,
        shape.limit,
        shape.offset,
        total,
        [
            lists.Related(key, other.table, [_owned_by(organization)])
            for key, other in shape.related
        ],
    )


def _page(
    records: list[R],
    total: int,
    params: ListParams,
    rows: Sequence[Mapping[str, Any]],
    more: bool | None = None,
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
