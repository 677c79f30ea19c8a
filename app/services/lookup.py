"""One row of the caller's organization, or a 404 that does not reveal other organizations."""

from __future__ import annotations

from typing import Any
from uuid import UUID

from piccolo.table import Table

from app.errors import NotFound


async def owned_row(
    table: type[Table], row_id: UUID, organization_id: UUID, kind: str
) -> dict[str, Any]:
    row = (
        await table.select()
        .where(
            table._meta.primary_key == row_id,
            table._meta.get_column_by_name("organization_id") == organization_id,
        )
        .first()
    )
    if row is None:
        raise NotFound.resource(kind, row_id)
    return row
