"""The test twin itself (CONTRACT.md section 18): one per organization however many ask for it
at once, with the live organization's name, currency and time zone, and no members of its own."""

from __future__ import annotations

import asyncio

from app.services.organizations import memberships_of, set_timezone
from app.services.test_mode import mode_of, twin
from db.tables import Organization
from tests.support import Tenant


async def test_one_twin_however_many_ask_and_it_follows_the_live_time_zone(
    tenant: Tenant,
) -> None:
    twins = set(await asyncio.gather(*(twin(tenant.org_id) for _ in range(8))))
    assert len(twins) == 1
    [made] = twins
    assert made != tenant.org_id
    assert await twin(made) == made
    assert await mode_of(made) == (tenant.org_id, True)
    assert await mode_of(tenant.org_id) == (tenant.org_id, False)

    await set_timezone(tenant.org_id, "Europe/Amsterdam")
    rows = await Organization.select(
        Organization.id, Organization.name, Organization.currency, Organization.timezone
    ).where(Organization.id.is_in([tenant.org_id, made]))
    live, test = sorted(rows, key=lambda row: row["id"] != tenant.org_id)
    assert {**test, "id": live["id"]} == live
    assert test["timezone"] == "Europe/Amsterdam"
    assert [m.organization_id for m in await memberships_of(tenant.user_id)] == [tenant.org_id]
