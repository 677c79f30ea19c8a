"""The request log's statements (``app/services/request_log.py`` decides what a row holds).

Rows travel as one array per column on PostgreSQL (``unnest``): one statement text whatever the
batch's size, prepared once per connection. A ``VALUES`` list with one row per entry was a new
statement for every batch size, each parsed and planned again and each pushing the service's hot
statements out of asyncpg's per-connection cache.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from db.rows import Columns
from db.tables import RequestLogEntry

ENTRY = Columns(
    (
        ("id", "uuid"),
        ("organization_id", "uuid"),
        ("credential_id", "uuid"),
        ("method", "text"),
        ("path", "text"),
        ("status", "integer"),
        ("duration_ms", "double precision"),
        ("request_id", "text"),
        ("idempotency_key", "text"),
        ("created_at", "timestamptz"),
    )
)
NAMES = ", ".join(name for name, _ in ENTRY.names)
PRUNE_CREDENTIAL = """
    DELETE FROM request_log WHERE credential_id = {} AND created_at < (
        SELECT created_at FROM request_log WHERE credential_id = {}
        ORDER BY created_at DESC, id DESC LIMIT 1 OFFSET {})"""
"""Keep a credential's newest ``keep`` entries (its index, newest first)."""
PRUNE_OLD = "DELETE FROM request_log WHERE created_at < {}"


async def insert_entries(rows: Sequence[Sequence[Any]]) -> None:
    """Write rows of :data:`ENTRY`'s columns in one statement."""
    source, args = ENTRY.source(rows)
    await RequestLogEntry.raw(
        f"INSERT INTO request_log ({NAMES}) SELECT {NAMES} FROM {source}", *args
    )


async def prune_credential(credential_id: Any, keep: int) -> None:
    await RequestLogEntry.raw(PRUNE_CREDENTIAL, credential_id, credential_id, keep - 1)


async def prune_older_than(moment: datetime) -> None:
    await RequestLogEntry.raw(PRUNE_OLD, moment)
