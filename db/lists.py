"""The SQL behind every list: one page of a table's rows, or the same page for each of many parents.

A page is one statement whatever its size: the rows of the page with their count (or a total
kept by ``db/counts.py``) as a subquery and the page's bounds written in, a statement whose plan
PostgreSQL keeps (:func:`fetch_page`). The rows are whole rows (``SELECT *``), mapped onto
records by field name (``app/records.py``), so a new column named by a record needs no change
here.

For many parents (GraphQL's nested lists), PostgreSQL runs one ``LATERAL`` subquery per parent,
each an index range scan of exactly one page, in the same statement as the parents' totals;
SQLite, which has no ``LATERAL``, numbers each parent's rows with a window function (fine at the
demo's size) and counts in a second statement. For a single parent (the page under a root
lookup, GraphQL's commonest), PostgreSQL runs the one-page statement.

An export (:func:`stream_rows`) reads every matching row in chunks from one statement's cursor,
so that the memory it takes is one chunk's whatever the number of rows.

Conditions are Piccolo ``QueryString`` fragments, so values always travel as parameters. Column
and table names come from the table classes and the services' declared sort fields, never from
input.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncGenerator, Callable, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar, cast

import asyncpg
from piccolo.engine.postgres import PostgresEngine
from piccolo.engine.sqlite import SQLiteEngine
from piccolo.querystring import QueryString
from piccolo.table import Table

from db.engine import postgres_pool
from db.rows import postgres
from db.transactions import in_transaction

Row = dict[str, Any]


PageRows = dict[Any, tuple[list[Row], int]]
"""Each parent's page of rows with its total."""


@dataclass(frozen=True, slots=True)
class Order:
    """``ORDER BY column, id`` in one direction (the id breaks ties so paging is stable), or by
    ``expression`` (an indexed expression of the column, e.g. :func:`lowered`) and id."""

    column: str
    descending: bool
    expression: str | None = None

    def sql(self, alias: str = "") -> str:
        prefix = f"{alias}." if alias else ""
        direction = "DESC" if self.descending else "ASC"
        target = self.expression or f'{prefix}"{self.column}"'
        return f'{target} {direction}, {prefix}"id" {direction}'


def condition(sql: str, *args: Any) -> QueryString:
    """A condition with ``{}`` placeholders for ``args``, e.g. ``condition('"status" = {}', s)``."""
    return QueryString(sql, *args)


def compose(template: str, *parts: QueryString) -> QueryString:
    """``template`` with each ``{}`` replaced by the next part, as one flat ``QueryString``.

    The statement is the same as ``QueryString(template, *parts)`` (Piccolo writes a nested
    fragment's text in place of its ``{}``), but Piccolo then has one fragment to walk when it
    compiles the statement, on every execution, instead of a tree of them (a 25-ticket page's
    statement compiles in 16 us instead of 37)."""
    first, *pieces = template.split("{}")
    text = first + "".join(part.template + piece for part, piece in zip(parts, pieces, strict=True))
    return QueryString(text, *(arg for part in parts for arg in part.args))


def _all(conditions: Sequence[QueryString]) -> QueryString:
    if not conditions:
        return QueryString("TRUE")
    return compose(" AND ".join(["{}"] * len(conditions)), *conditions)


def in_list(column: str, values: Sequence[Any]) -> QueryString:
    """``column`` is one of ``values`` (one array parameter on PostgreSQL)."""
    if postgres():
        return QueryString(f'"{column}" = ANY({{}})', list(values))
    placeholders = ", ".join(["{}"] * len(values))
    return QueryString(f'"{column}" IN ({placeholders})', *values)


def lowered(column: str) -> str:
    """``column`` lower-cased and compared byte-wise: the expression of a case-insensitive name
    index (``COLLATE "C"`` on PostgreSQL; SQLite compares byte-wise anyway)."""
    if postgres():
        return f'lower("{column}") COLLATE "C"'
    return f'lower("{column}")'


def prefix_range(prefix: str) -> tuple[str] | tuple[str, str]:
    """The bounds of the :func:`lowered` values that start with ``prefix`` (:func:`starts_with`'s
    values): the lowest, and the first past them unless there is none. SQLite's ``lower`` folds
    ASCII only, so the prefix is folded alike."""
    low = prefix.lower() if postgres() else "".join(c.lower() if c.isascii() else c for c in prefix)
    if not low or ord(low[-1]) == 0x10FFFF:
        return (low,)
    return (low, low[:-1] + chr(ord(low[-1]) + 1))


def starts_with(column: str, low: Any, high: Any = None) -> QueryString:
    """:func:`lowered` ``column`` starts with a prefix, given as its :func:`prefix_range`: a
    range of that expression, which an index on exactly it serves (and walks in order, when the
    list is sorted by it too)."""
    expression = lowered(column)
    if high is None:
        return QueryString(f"{expression} >= {{}}", low)
    return QueryString(f"{expression} >= {{}} AND {expression} < {{}}", low, high)


async def _rows(table: type[Table], query: QueryString) -> list[Row]:
    rows: list[Row] = await table.raw(query.template, *query.args)
    return rows


async def _records(
    table: type[Table], template: str, values: Sequence[Any], compiled: str | None = None
) -> Sequence[Mapping[str, Any]]:
    """The rows of the flat statement ``template`` (a ``{}`` for each of ``values``) as
    read-only mappings: on PostgreSQL outside a transaction, asyncpg's records from the pool as
    they come (what Piccolo's ``raw`` runs, without its query object around the statement and
    without copying each record into a dict: a 25-ticket page's rows cost about 60 us less CPU);
    inside a transaction (whose connection Piccolo holds) and on SQLite, Piccolo's ``raw``.
    ``compiled``: the text Piccolo compiles it into for PostgreSQL, when known already (a
    statement kept per shape)."""
    pool = None if in_transaction() else postgres_pool(table._meta.db)
    if pool is None:
        rows: list[Row] = await table.raw(template, *values)
        return rows
    if compiled is None:
        compiled, values = QueryString(template, *values).compile_string(engine_type="postgres")
    # An asyncpg ``Record`` is a read-only mapping of column names (its stubs do not say so).
    return cast(Sequence[Mapping[str, Any]], await pool.fetch(compiled, *values))


async def fetch_rows(
    table: type[Table], conditions: Sequence[QueryString], *, order: Order | None = None
) -> list[Row]:
    """Every row matching ``conditions`` (for reads by id, at most a page's worth)."""
    name = table._meta.tablename
    order_by = f" ORDER BY {order.sql()}" if order else ""
    return await _rows(
        table, QueryString(f'SELECT * FROM "{name}" WHERE {{}}{order_by}', _all(conditions))
    )


async def exists(table: type[Table], conditions: Sequence[QueryString]) -> bool:
    """Whether any row matches ``conditions``."""
    name = table._meta.tablename
    query = QueryString(f'SELECT 1 AS found FROM "{name}" WHERE {{}} LIMIT 1', _all(conditions))
    return bool(await _rows(table, query))


@dataclass(slots=True)
class OnePage:
    """A page of rows (read-only mappings: copy one to change it), how many match in all, and
    the values of the ``scalars`` asked with them."""

    rows: list[Mapping[str, Any]]
    total: int
    values: dict[str, Any]


SHAPES_KEPT = 512
"""Statements kept per shape (:func:`fetch_kept_page`, :func:`fetch_page_under`): every page
shape in use, with room; when full, the kept ones are dropped and composed again as they come."""


@dataclass(frozen=True, slots=True)
class PageParts:
    """What the statement of a page is made of (:func:`fetch_page`'s arguments)."""

    conditions: Sequence[QueryString]
    order: Order
    limit: int
    offset: int
    total: QueryString | None = None
    scalars: Mapping[str, QueryString] = field(default_factory=dict)


def _page_query(name: str, parts: PageParts) -> QueryString:
    """The statement of a page of the table ``name`` (:func:`fetch_page`)."""
    order = parts.order
    where = _all(parts.conditions)
    counted = parts.total or compose(f'SELECT COUNT(*) AS total FROM "{name}" WHERE {{}}', where)
    asked = "".join(f', {{}} AS "{key}__"' for key in parts.scalars)
    return compose(
        f'SELECT counted."total" AS "total__"{asked}, page.* '
        f"FROM (SELECT 1) AS one LEFT JOIN ({{}}) AS counted ON TRUE "
        f'LEFT JOIN (SELECT * FROM "{name}" WHERE {{}} ORDER BY {order.sql()} '
        f"LIMIT {int(parts.limit)} OFFSET {int(parts.offset)}) AS page ON TRUE "
        f"ORDER BY {order.sql('page')}",
        *parts.scalars.values(),
        counted,
        where,
    )


def _one_page(rows: Sequence[Mapping[str, Any]], scalars: Iterable[str]) -> OnePage:
    """The page of a page's statement's ``rows``: the page's rows, each joined to the one row of
    its total and scalars, or that row alone, its columns of the table null, when the page has
    no rows (:func:`_page_query`)."""
    first = rows[0]
    return OnePage(
        list(rows) if first["id"] is not None else [],
        int(first["total__"] or 0),
        {key: first[f"{key}__"] for key in scalars},
    )


async def fetch_page(
    table: type[Table],
    conditions: Sequence[QueryString],
    order: Order,
    limit: int,
    offset: int,
    *,
    total: QueryString | None = None,
    scalars: Mapping[str, QueryString] = {},
) -> OnePage:
    """One page of the rows matching ``conditions`` and how many match in all, in one statement
    whose plan the database keeps.

    ``total`` is the statement answering the count (at most one row, with a ``total`` column;
    ``db/counts.py``), else the rows are counted. ``scalars`` are more expressions read in the
    same statement (name -> SQL; ``counted."column"`` names another column of ``total``'s row),
    e.g. whether the page's parent is the caller's.

    The page's bounds are written into the statement (they are integers, and the few page sizes
    make few statements): with them as parameters PostgreSQL plans the statement again on every
    execution (about 0.3 ms of the server's CPU), since its generic plan cannot know the page's
    size. A page with no rows still answers one row of nulls, carrying the total and scalars.

    Composed and compiled on every call; a caller that knows the page's shape before making any
    part has the statement kept per shape and gathers only its values: :func:`fetch_kept_page`."""
    parts = PageParts(conditions, order, limit, offset, total, scalars)
    query = _page_query(table._meta.tablename, parts)
    return _one_page(await _records(table, query.template, query.args), scalars)


class Slot:
    """The place of a value in a statement kept per shape (:func:`fetch_kept_page`), named by
    the key under which each caller gathers that value. The statement is composed with slots
    for its values, so its text cannot depend on one (writing a slot into text is an error)."""

    __slots__ = ("name",)

    def __init__(self, name: Hashable) -> None:
        self.name = name

    def __format__(self, spec: str) -> str:
        raise TypeError(f"the slot {self.name!r} has no value to write into a statement's text")

    def __repr__(self) -> str:
        return f"Slot({self.name!r})"


@dataclass(frozen=True, slots=True)
class _Kept:
    """A statement kept per shape: as composed (a ``{}`` for each value), as Piccolo compiled
    it, the names of its values in order, and the names of what its caller reads from its first
    row (a page's scalars, the relations of a page under its parent)."""

    template: str
    compiled: str
    names: tuple[Hashable, ...]
    columns: tuple[str, ...]


_kept: dict[tuple[bool, Hashable], _Kept] = {}
_kept_under: dict[Hashable, _Kept] = {}

S = TypeVar("S", bound=Hashable)


def _kept_statement(
    kept: dict[Any, _Kept],
    key: Hashable,
    composed: Callable[[], tuple[QueryString, tuple[str, ...]]],
) -> _Kept:
    """The statement kept in ``kept`` under ``key``, else the one ``composed`` gives (with the
    names of the columns its caller reads from its first row), compiled and kept. Each of its
    values must be a :class:`Slot`: the names of the slots Piccolo compiled, in its order, say
    which gathered value goes where."""
    statement = kept.get(key)
    if statement is not None:
        return statement
    query, columns = composed()
    compiled, slots = query.compile_string(engine_type="postgres")
    names: list[Hashable] = []
    for slot in slots:
        if not isinstance(slot, Slot):
            raise TypeError(f"a value of a kept statement's parts is not a Slot: {slot!r}")
        names.append(slot.name)
    if len(kept) >= SHAPES_KEPT:
        kept.clear()
    statement = kept[key] = _Kept(query.template, compiled, tuple(names), columns)
    return statement


async def fetch_kept_page(
    table: type[Table], shape: S, gathered: Mapping[Hashable, Any], parts: Callable[[S], PageParts]
) -> OnePage:
    """:func:`fetch_page` of the parts ``parts(shape)`` gives, each value in them a
    :class:`Slot`: composed and compiled once per ``shape`` (and engine), the only input of
    ``parts``, so that it fixes the statement's text; each call then gives only its values,
    ``gathered`` by the slots' names. Their order is the one Piccolo compiled: the slots it
    compiled are the statement's values, each replaced by the value gathered under its name."""

    def composed() -> tuple[QueryString, tuple[str, ...]]:
        page = parts(shape)
        return _page_query(table._meta.tablename, page), tuple(page.scalars)

    kept = _kept_statement(_kept, (postgres(), shape), composed)
    values = [gathered[name] for name in kept.names]
    return _one_page(await _records(table, kept.template, values, kept.compiled), kept.columns)


@dataclass(frozen=True, slots=True)
class Related:
    """A to-one relation of a page's rows read in the page's statement (:func:`fetch_page_under`):
    the rows of ``table`` matching ``conditions`` whose id a page row's ``key`` column holds."""

    key: str
    table: type[Table]
    conditions: Sequence[QueryString]


@dataclass(slots=True)
class PageUnder:
    """The parent's row (None when no row matched its conditions), its page of rows, how many
    match in all, and the rows of each :class:`Related` relation (each row once)."""

    parent: Mapping[str, Any] | None
    rows: list[Mapping[str, Any]]
    total: int
    related: list[list[Mapping[str, Any]]]


@dataclass(frozen=True, slots=True)
class PageUnderParts:
    """What the statement of a page under its parent is made of (:func:`fetch_page_under`):
    the parent's table and the conditions of its row, the page's conditions, order and bounds,
    the statement answering its total (else the rows are counted) and the relations read with
    it."""

    parent: type[Table]
    parent_conditions: Sequence[QueryString]
    conditions: Sequence[QueryString]
    order: Order
    limit: int
    offset: int
    total: QueryString | None = None
    related: Sequence[Related] = ()


def _page_under_query(name: str, parts: PageUnderParts) -> QueryString:
    """The statement of a page of the table ``name`` under its parent (:func:`fetch_page_under`)."""
    order = parts.order
    parent_name = parts.parent._meta.tablename
    where = _all(parts.conditions)
    counted = parts.total or compose(f'SELECT COUNT(*) AS total FROM "{name}" WHERE {{}}', where)
    joins = [
        compose(
            f'ARRAY(SELECT r{number} FROM "{join.table._meta.tablename}" AS r{number} '
            f'WHERE {{}} AND r{number}."id" = ANY(ARRAY(SELECT page."{join.key}" FROM page))) '
            f'AS "r{number}__"',
            _all(join.conditions),
        )
        for number, join in enumerate(parts.related)
    ]
    return compose(
        f'WITH page AS MATERIALIZED (SELECT * FROM "{name}" WHERE {{}} ORDER BY {order.sql()} '
        f"LIMIT {int(parts.limit)} OFFSET {int(parts.offset)}) "
        f'SELECT (SELECT parent__ FROM "{parent_name}" AS parent__ WHERE {{}}) AS "parent__", '
        f'(SELECT counted."total" FROM ({{}}) AS counted) AS "total__", '
        f'ARRAY(SELECT page::"{name}" FROM page ORDER BY {order.sql()}) AS "rows__"'
        + "".join(", {}" for _ in joins),
        where,
        _all(parts.parent_conditions),
        counted,
        *joins,
    )


async def fetch_page_under(
    table: type[Table],
    shape: S,
    gathered: Mapping[Hashable, Any],
    parts: Callable[[S], PageUnderParts],
) -> PageUnder | None:
    """A parent's row, its page of ``table``'s rows with their total, and the rows of each
    relation, of the parts ``parts(shape)`` gives, in one statement (one round trip where
    reading them one after the other costs three): GraphQL's page under a root record
    (``graphql_api.prefetch``). None on SQLite, whose caller reads them its usual way. As in
    :func:`fetch_kept_page`, each value of the parts is a :class:`Slot`, the statement is
    composed and compiled once per ``shape``, and each call gives only its values, ``gathered``
    by the slots' names.

    Each part is a whole row of its table (a composite value, which asyncpg reads as a record of
    the table's columns, like the rows of ``SELECT *``); the page's bounds are written into the
    statement, as in :func:`fetch_page`. A relation's rows are found by their ids as an array
    (``= ANY``), which walks the primary key: as ``IN (SELECT ...)`` PostgreSQL planned a hash
    join over a sequential scan of the whole table (0.85 ms for 2,500 orders). After a migration
    changed one of the tables, asyncpg drops the connection's outdated knowledge of its row type
    and raises; the statement is then run once more."""
    if not postgres():
        return None

    def composed() -> tuple[QueryString, tuple[str, ...]]:
        under = parts(shape)
        relations = tuple(f"r{number}__" for number in range(len(under.related)))
        return _page_under_query(table._meta.tablename, under), relations

    kept = _kept_statement(_kept_under, shape, composed)
    values = [gathered[name] for name in kept.names]
    try:
        [row] = await _records(table, kept.template, values, kept.compiled)
    except asyncpg.exceptions.OutdatedSchemaCacheError:
        [row] = await _records(table, kept.template, values, kept.compiled)
    return PageUnder(
        row["parent__"],
        list(row["rows__"]),
        int(row["total__"] or 0),
        [list(row[column]) for column in kept.columns],
    )


def exists_query(table: type[Table], conditions: Sequence[QueryString]) -> QueryString:
    """``EXISTS`` a row of ``table`` matching ``conditions``: a scalar of :func:`fetch_page`."""
    name = table._meta.tablename
    return compose(f'EXISTS (SELECT 1 FROM "{name}" WHERE {{}})', _all(conditions))


async def fetch_pages(
    table: type[Table],
    parent: str,
    parent_ids: Sequence[Any],
    conditions: Sequence[QueryString],
    order: Order,
    limit: int,
    offset: int,
    *,
    totals: Callable[[QueryString], QueryString] | None = None,
) -> PageRows:
    """The same page for each of ``parent_ids`` (rows whose ``parent`` column holds the id), and
    each parent's count, however many parents there are: one statement on PostgreSQL, two on
    SQLite. ``totals`` (given the condition selecting the parents) is the statement reading the
    counts instead of counting them (``db/counts.py``)."""
    ids = list(dict.fromkeys(parent_ids))
    if not ids:
        return {}
    name = table._meta.tablename
    where = _all(conditions)
    within = in_list(parent, ids)
    counted = (
        totals(within)
        if totals is not None
        else compose(
            f'SELECT "{parent}" AS parent, COUNT(*) AS total FROM "{name}" '
            f'WHERE {{}} AND {{}} GROUP BY "{parent}"',
            within,
            where,
        )
    )
    if postgres() and len(ids) == 1:
        # One parent (the page under a root lookup, GraphQL's commonest): the plain page, whose
        # plan PostgreSQL keeps, with the parent's total.
        one = await fetch_page(
            table,
            [condition(f'"{parent}" = {{}}', ids[0]), where],
            order,
            limit,
            offset,
            total=counted,
        )
        return {ids[0]: ([dict(row) for row in one.rows], one.total)}
    if postgres():
        return _pages_by_parent(
            ids,
            await _rows(
                table,
                QueryString(
                    f"WITH totals AS ({{}}) "
                    f'SELECT parents.id AS "parent__", totals.total AS "total__", page.* '
                    f"FROM unnest({{}}::uuid[]) WITH ORDINALITY AS parents(id, position) "
                    f"LEFT JOIN totals ON totals.parent = parents.id "
                    f'LEFT JOIN LATERAL (SELECT * FROM "{name}" WHERE "{parent}" = parents.id '
                    f"AND {{}} ORDER BY {order.sql()} LIMIT {{}} OFFSET {{}}) AS page ON TRUE "
                    f"ORDER BY parents.position, {order.sql('page')}",
                    counted,
                    ids,
                    where,
                    limit,
                    offset,
                ),
            ),
        )
    rows = await _rows(
        table,
        QueryString(
            f'SELECT * FROM (SELECT *, ROW_NUMBER() OVER (PARTITION BY "{parent}" '
            f'ORDER BY {order.sql()}) AS position__ FROM "{name}" WHERE {{}} AND {{}}) '
            f"WHERE position__ > {{}} AND position__ <= {{}} ORDER BY position__",
            within,
            where,
            offset,
            offset + limit,
        ),
    )
    found_totals = {row["parent"]: int(row["total"]) for row in await _rows(table, counted)}
    grouped: dict[Any, list[Row]] = {parent_id: [] for parent_id in ids}
    for row in rows:
        grouped[row[parent]].append(row)
    return {
        parent_id: (found, found_totals.get(parent_id, 0)) for parent_id, found in grouped.items()
    }


def _pages_by_parent(ids: list[Any], rows: list[Row]) -> dict[Any, tuple[list[Row], int]]:
    """The rows of the one-statement pages, by parent: each row carries its parent and its
    parent's total; a parent without a row on its page has one row of nulls."""
    pages: dict[Any, tuple[list[Row], int]] = {parent_id: ([], 0) for parent_id in ids}
    for row in rows:
        parent_id, total = row.pop("parent__"), row.pop("total__")
        found = pages[parent_id][0]
        if row["id"] is not None:
            found.append(row)
        pages[parent_id] = (found, int(total or 0))
    return pages


async def stream_rows(
    table: type[Table], conditions: Sequence[QueryString], order: Order, chunk_rows: int
) -> AsyncGenerator[list[Row], None]:
    """Every row matching ``conditions`` in ``order``, ``chunk_rows`` at a time, from one
    statement's cursor: on PostgreSQL a server-side cursor inside a read-only transaction on a
    pooled connection, on SQLite the statement stepped on a connection of its own. The
    connection is held until the iterator ends or is closed (``aclose``: a client that went
    away), then given back (the transaction rolled back)."""
    name = table._meta.tablename
    query = QueryString(
        f'SELECT * FROM "{name}" WHERE {{}} ORDER BY {order.sql()}', _all(conditions)
    )
    engine = table._meta.db
    if isinstance(engine, PostgresEngine):
        chunks = _postgres_chunks(engine, query, chunk_rows)
    elif isinstance(engine, SQLiteEngine):
        chunks = _sqlite_chunks(engine, query, chunk_rows)
    else:
        raise TypeError(f"no export for {type(engine).__name__}")
    async with contextlib.aclosing(chunks):
        async for rows in chunks:
            yield rows


async def _postgres_chunks(
    engine: PostgresEngine, query: QueryString, chunk_rows: int
) -> AsyncGenerator[list[Row], None]:
    sql, args = query.compile_string(engine_type="postgres")
    assert engine.pool is not None, "the connection pool is not started (db.engine.start_engine)"
    async with engine.pool.acquire() as connection, connection.transaction(readonly=True):
        cursor = await connection.cursor(sql, *args)
        while True:
            records = await cursor.fetch(chunk_rows)
            if records:
                yield [dict(record) for record in records]
            if len(records) < chunk_rows:
                return


async def _sqlite_chunks(
    engine: SQLiteEngine, query: QueryString, chunk_rows: int
) -> AsyncGenerator[list[Row], None]:
    sql, args = query.compile_string(engine_type="sqlite")
    connection = await engine.get_connection()
    try:
        async with connection.execute(sql, args) as cursor:
            while True:
                # Piccolo's SQLite connections make each row a dict (its ``dict_factory``).
                rows = cast(list[Row], await cursor.fetchmany(chunk_rows))
                if rows:
                    yield rows
                if len(rows) < chunk_rows:
                    return
    finally:
        await connection.close()
