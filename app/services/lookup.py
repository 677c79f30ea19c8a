"""Rows of the caller's organization, read or changed; a row of another organization is a 404
that does not reveal it."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any
from uuid import UUID

from piccolo.table import Table

from app.errors import NotFound
from db.locks import Strength, locked


def owned(
    table: type[Table], row_id: UUID, organization_id: UUID, event_id: UUID | None = None
) -> list[Any]:
    """The conditions naming row ``row_id`` of ``organization_id`` (and of ``event_id``, when a
    path below an event names one)."""
    where = [
        table._meta.primary_key == row_id,
        table._meta.get_column_by_name("organization_id") == organization_id,
    ]
    if event_id is not None:
        where.append(table._meta.get_column_by_name("event_id") == event_id)
    return where


async def owned_row(
    table: type[Table],
    row_id: UUID,
    organization_id: UUID,
    kind: str,
    *,
    event_id: UUID | None = None,
    lock: Strength | None = None,
) -> dict[str, Any]:
    """The row (of ``event_id`` when a path names one), locked ``FOR lock`` when asked; a 404
    naming the ``kind`` of row otherwise."""
    query = table.select().where(*owned(table, row_id, organization_id, event_id))
    rows = await (query if lock is None else locked(query, lock)).limit(1)
    if not rows:
        raise NotFound.resource(kind, row_id)
    return rows[0]


async def update_row(
    table: type[Table], where: Sequence[Any], changes: Mapping[Any, Any]
) -> dict[str, Any] | None:
    """The row ``where`` matches after ``changes`` (column or name: value), written by one
    ``UPDATE ... RETURNING`` so that the conditions hold when it writes; with no change, the row
    as it is. None when no row matches."""
    if changes:
        rows = await table.update(dict(changes)).where(*where).returning(*table.all_columns())
    else:
        rows = await table.select().where(*where)
    return rows[0] if rows else None


async def update_owned(
    table: type[Table],
    row_id: UUID,
    organization_id: UUID,
    kind: str,
    changes: Mapping[Any, Any],
    *,
    event_id: UUID | None = None,
) -> dict[str, Any]:
    """:func:`owned_row` after ``changes`` (:func:`update_row`)."""
    row = await update_row(table, owned(table, row_id, organization_id, event_id), changes)
    if row is None:
        raise NotFound.resource(kind, row_id)
    return row
