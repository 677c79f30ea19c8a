"""Database rows to records: the one place where a stored row becomes the record a client sees.

A record (a msgspec Struct in ``app/schemas``) is the only declaration of its fields. A row maps
onto it by field name, so a column that a record names reaches REST, GraphQL and the OpenAPI
document without any mapping code. What the drivers leave to do is done here, once, for every
record: JSON columns arrive as text (PostgreSQL and SQLite alike) and are decoded; timestamps are
normalized to UTC, so that output always carries ``Z``; NUMERIC money becomes the number the
records carry.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from datetime import UTC, datetime
from functools import cache
from operator import attrgetter, itemgetter
from types import GenericAlias
from typing import Any, Generic, TypeVar

import msgspec

R = TypeVar("R", bound=msgspec.Struct)

_CONTAINERS = (
    msgspec.inspect.DictType,
    msgspec.inspect.ListType,
    msgspec.inspect.StructType,
)


def _kinds(field_type: msgspec.inspect.Type) -> tuple[msgspec.inspect.Type, ...]:
    if isinstance(field_type, msgspec.inspect.UnionType):
        return field_type.types
    return (field_type,)


def _as_utc(value: Any) -> Any:
    if isinstance(value, datetime) and value.utcoffset() != UTC.utcoffset(None):
        return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)
    return value


class RowMapper(Generic[R]):
    """Maps a row (a mapping of column names to values) onto the record ``R``.

    Only the fields that need it are touched before ``msgspec.convert`` builds the record: JSON
    text for container fields, timestamps for datetime fields (a timestamp already in UTC, as
    PostgreSQL's arrive, is left as it is). Columns the record does not name are ignored.

    Many rows (:meth:`many`) are read as arrays of the record's values, in its field order:
    msgspec converts an array into an ``array_like`` Struct in a fifth of the time it converts a
    mapping into a Struct, and an asyncpg ``Record`` is read by position far faster than by name.
    The conversion is the same (the same field types, validation and coercions, derived from the
    record: ``_rows_of``); each record is then made from its converted values.
    """

    def __init__(self, record: type[R]) -> None:
        self.record = record
        times: list[str] = []
        texts: list[str] = []
        info = msgspec.inspect.type_info(record)
        assert isinstance(info, msgspec.inspect.StructType)
        for field in info.fields:
            kinds = _kinds(field.type)
            if any(isinstance(kind, _CONTAINERS) for kind in kinds):
                texts.append(field.name)
            elif any(isinstance(kind, msgspec.inspect.DateTimeType) for kind in kinds):
                times.append(field.name)
        self._times = tuple(times)
        self._texts = tuple(texts)
        self._many = GenericAlias(list, (record,))
        self._fields = record.__struct_fields__
        self._time_positions = tuple(self._fields.index(name) for name in times)
        self._text_positions = tuple(self._fields.index(name) for name in texts)
        self._by_name = _getter(self._fields)
        self._by_position: dict[
            tuple[str, ...], tuple[tuple[int, ...], Callable[[Any], tuple[Any, ...]]]
        ] = {}
        self._arrays = _rows_of(record)

    def __call__(self, row: Mapping[str, Any]) -> R:
        return msgspec.convert(self._prepared(row), self.record, strict=False)

    def many(self, rows: Sequence[Mapping[str, Any]]) -> list[R]:
        """Every row as a record, in one conversion of the rows' values (a page of 25 tickets
        in about half the time of a conversion of 25 mappings). Rows lacking a field the record
        declares go through the mappings instead (the field's default, or msgspec's error)."""
        if not rows:
            return []
        try:
            columns = self._columns(rows)
        except (KeyError, IndexError):
            return self._convert([self._prepared(row) for row in rows])
        for position in self._time_positions:
            columns[position] = _in_utc(columns[position])
        for position in self._text_positions:
            columns[position] = _decoded(columns[position])
        values = [list(zip(*columns, strict=True))]
        converted = msgspec.convert(values, self._arrays, strict=False).rows
        record, astuple = self.record, msgspec.structs.astuple
        return [record(*astuple(item)) for item in converted]

    def _columns(self, rows: Sequence[Mapping[str, Any]]) -> list[Sequence[Any]]:
        """The rows' values of each of the record's fields, in the record's order. Rows that are
        all one statement's asyncpg ``Record`` s (which share their columns, and iterate over
        their values like tuples) are turned into columns at once, and the record's picked by
        position; dicts are read by name, and among ``Record`` s a dict (an enrichment's copy)
        too. KeyError when a row lacks a field."""
        first = rows[0]
        kind = first.__class__
        if kind is dict:
            return list(zip(*map(self._by_name, rows), strict=True))
        positions, by_position = self._positions(tuple(first.keys()))
        if [*map(type, rows)].count(kind) == len(rows):
            every = list(zip(*rows, strict=True))
            return [every[position] for position in positions]
        by_name = self._by_name
        values = [by_position(row) if row.__class__ is kind else by_name(row) for row in rows]
        return list(zip(*values, strict=True))

    def _positions(
        self, columns: tuple[str, ...]
    ) -> tuple[tuple[int, ...], Callable[[Any], tuple[Any, ...]]]:
        """The positions of the record's fields among ``columns``, and the reader of their
        values from a row by position (cached: a statement's rows have one set of columns)."""
        found = self._by_position.get(columns)
        if found is None:
            position = {name: index for index, name in enumerate(columns)}
            positions = tuple(position[name] for name in self._fields)
            found = positions, _getter(positions)
            self._by_position[columns] = found
        return found

    def _convert(self, prepared: list[Mapping[str, Any]]) -> list[R]:
        records: list[R] = msgspec.convert(prepared, self._many, strict=False)
        return records

    def _prepared(self, row: Mapping[str, Any]) -> Mapping[str, Any]:
        if not (self._times or self._texts) and row.__class__ is dict:
            return row
        return self._fixed(copied(row))

    def _fixed(self, row: dict[str, Any]) -> dict[str, Any]:
        for name in self._times:
            value = row.get(name)
            if value is not None and (value.__class__ is not datetime or value.tzinfo is not UTC):
                row[name] = _as_utc(value)
        for name in self._texts:
            value = row.get(name)
            if isinstance(value, str | bytes):
                row[name] = msgspec.json.decode(value)
        return row


_zone = attrgetter("tzinfo")


def _in_utc(column: Sequence[Any]) -> Sequence[Any]:
    """A column of timestamps, each in UTC (the column itself when all are: PostgreSQL's). The
    check reads each value's type and zone in C (``map``, and ``list.count``, which compares
    by identity first: no value's zone is hashed), not in a loop of Python's."""
    present = [*filter(None, column)]
    count = len(present)
    datetimes = [*map(type, present)].count(datetime) == count
    if datetimes and [*map(_zone, present)].count(UTC) == count:
        return column
    return [_as_utc(value) for value in column]


def _decoded(column: Sequence[Any]) -> list[Any]:
    """A column of JSON text (as both databases give a JSON column), decoded. When every value
    is text, they are decoded at once as the items of one JSON array (each text is one JSON
    value, so the items are the values, in order), one call where 25 texts took 25."""
    decode = msgspec.json.decode
    try:
        values: list[Any] = decode("[" + ",".join(column) + "]")
    except (TypeError, msgspec.DecodeError):
        pass  # a value is not text (a NULL), or one is not JSON: decoded one by one
    else:
        if len(values) == len(column):
            return values
    return [decode(value) if isinstance(value, _TEXT) else value for value in column]


_TEXT = (str, bytes)


def _getter(keys: Sequence[Any]) -> Callable[[Any], tuple[Any, ...]]:
    """The reader of ``keys``' values from a row, as a tuple."""
    if len(keys) == 1:
        [key] = keys
        return lambda row: (row[key],)
    return itemgetter(*keys)


def _rows_of(record: type[msgspec.Struct]) -> type[Any]:
    """An ``array_like`` Struct holding, as ``rows``, a list of the ``array_like`` Struct of
    ``record``'s fields and types, in its order: what a batch of rows' values is converted into
    before the records are made from them. The list is a Struct's field rather than the target
    of the conversion itself (``list[...]``), since msgspec keeps what it derives from a Struct
    type with the type but derives it again from a ``list[...]`` on every call (7 us)."""
    fields = [(field.name, field.type) for field in msgspec.structs.fields(record)]
    values = msgspec.defstruct(f"{record.__name__}Values", fields, array_like=True)
    rows = GenericAlias(list, (values,))
    return msgspec.defstruct(f"{record.__name__}Rows", [("rows", rows)], array_like=True)


def copied(row: Mapping[str, Any]) -> dict[str, Any]:
    """``row`` as a new dict. Read through its keys and values, an asyncpg ``Record`` (a page's
    rows) copies in two thirds of the time ``dict(record)`` takes; a dict is copied as one.
    msgspec converts a dict many times faster than any other mapping, so a record is always made
    from one."""
    if row.__class__ is dict:
        return dict(row)
    return dict(zip(row.keys(), row.values(), strict=True))


@cache
def mapper(record: type[R]) -> RowMapper[R]:
    """The (cached) mapper of ``record``."""
    return RowMapper(record)


def to_record(record: type[R], row: Mapping[str, Any]) -> R:
    """``row`` as the record ``record``."""
    record_mapper: RowMapper[R] = mapper(record)
    return record_mapper(row)
