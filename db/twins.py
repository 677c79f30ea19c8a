"""The SQL of test twins (CONTRACT.md section 18): one organization row per live organization,
linked to it by ``live_organization_id`` (unique: ``organizations_live_twin``)."""

from __future__ import annotations

from uuid import UUID, uuid4

from app.timeutil import utcnow
from db.tables import Organization

MAKE_TWIN = """
    INSERT INTO organizations (id, name, currency, timezone, created_at, live_organization_id)
    SELECT {}, name, currency, timezone, {}, id FROM organizations
    WHERE id = {} AND live_organization_id IS NULL
    ON CONFLICT (live_organization_id) DO NOTHING"""
"""The twin of a live organization, unless it has one (two at once: one wins, nothing fails)."""
TWIN_OF = "SELECT id FROM organizations WHERE live_organization_id = {}"
MODE_OF = "SELECT live_organization_id FROM organizations WHERE id = {}"


async def twin_of(live_id: UUID) -> UUID | None:
    """The test twin of ``live_id``, made if missing; None when ``live_id`` is no live
    organization."""
    rows = await Organization.raw(TWIN_OF, live_id)
    if not rows:
        await Organization.raw(MAKE_TWIN, uuid4(), utcnow(), live_id)
        rows = await Organization.raw(TWIN_OF, live_id)
    return rows[0]["id"] if rows else None


async def live_of(organization_id: UUID) -> tuple[UUID, bool] | None:
    """(the live organization, whether ``organization_id`` is a test twin), or None when it
    does not exist."""
    rows = await Organization.raw(MODE_OF, organization_id)
    if not rows:
        return None
    live = rows[0]["live_organization_id"]
    return (organization_id, False) if live is None else (live, True)
