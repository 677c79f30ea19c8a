"""Rows and columns: the columns of a table that a record names, and rows of named, typed
columns sent to a statement as one relation (``db/scans.py``, ``db/request_log.py``): one array
per column on PostgreSQL, ``VALUES`` rows on SQLite."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import msgspec
from piccolo.columns import Column
from piccolo.table import Table

from db.tables import Organization


def postgres() -> bool:
    """The tables live in PostgreSQL (SQLite otherwise, the demo's): one process has one
    database (``db/engine.py``)."""
    return Organization._meta.db.engine_type != "sqlite"


def columns_of(table: type[Table], record: type[msgspec.Struct]) -> list[Column]:
    """The columns of ``table`` that ``record`` names, in the record's order (its other fields
    are selected from joins, or computed)."""
    names = {column._meta.name: column for column in table._meta.columns}
    return [names[field] for field in record.__struct_fields__ if field in names]


@dataclass(frozen=True, slots=True)
class Columns:
    """Rows of named, typed columns as a relation ``v`` a statement can select from."""

    names: tuple[tuple[str, str], ...]
    """(name, PostgreSQL type) of each column."""

    def source(self, rows: Sequence[Sequence[Any]]) -> tuple[str, list[Any]]:
        """``(sql, args)``: the rows as a table expression aliased ``v``."""
        if postgres():
            arrays = ", ".join(f"{{}}::{kind}[]" for _, kind in self.names)
            names = ", ".join(name for name, _ in self.names)
            columns = [list(column) for column in zip(*rows, strict=True)]
            return f"unnest({arrays}) AS v({names})", columns
        row = "(" + ", ".join(["{}"] * len(self.names)) + ")"
        aliases = ", ".join(f"column{i} AS {name}" for i, (name, _) in enumerate(self.names, 1))
        values = ", ".join([row] * len(rows))
        return f"(SELECT {aliases} FROM (VALUES {values})) AS v", [
            value for row_values in rows for value in row_values
        ]
