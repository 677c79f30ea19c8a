"""Row locks that order a change against concurrent ones (PostgreSQL).

On SQLite a write transaction holds the database's write lock for its whole length, so the rows
need no lock of their own and the query is left as it is (SQLite has no ``FOR ...`` clause).
"""

from __future__ import annotations

from typing import Any, Literal, TypeVar

from piccolo.query import Select

from db.rows import postgres

Strength = Literal["UPDATE", "NO KEY UPDATE", "SHARE", "KEY SHARE"]

Q = TypeVar("Q", bound=Select[Any])


def locked(query: Q, strength: Strength) -> Q:
    """``query`` with ``FOR <strength>`` of its table's rows, on PostgreSQL."""
    if not postgres():
        return query
    return query.lock_rows(strength, of=(query.table,))
