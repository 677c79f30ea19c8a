"""Where a page's statement runs: on asyncpg's pool outside a transaction, and on the
transaction's own connection inside one (``db.lists``, ``db.transactions.in_transaction``), so
that a page read in a transaction sees the transaction's uncommitted changes and never waits for
a second connection."""

from __future__ import annotations

import uuid

import httpx
import pytest

from app.principal import Principal
from app.services.tickets import TICKETS
from db.tables import Ticket
from db.transactions import in_transaction, transaction
from tests.support import Tenant, create_venue, place_order


def reader(tenant: Tenant) -> Principal:
    return Principal(
        organization_id=tenant.org_id,
        user_id=tenant.user_id,
        scopes=frozenset({"tickets.read"}),
        credential="api_key",
        credential_id=tenant.key_id,
    )


async def test_a_page_read_in_a_transaction_sees_its_changes_and_one_read_outside_does_not(
    client: httpx.AsyncClient, tenant: Tenant
) -> None:
    venue = await create_venue(client, tenant)
    event_id = uuid.UUID(venue.event["id"])
    order = await place_order(
        client, tenant, venue.event["id"], venue.timeslot["id"], [venue.ticket_type["id"]] * 2
    )
    principal = reader(tenant)
    assert not in_transaction()
    before = await TICKETS.page(principal, within=("event_id", event_id))
    assert {ticket.owner_name for ticket in before.data} != {"Renamed"}

    with pytest.raises(RuntimeError):
        async with transaction():
            assert in_transaction()
            await Ticket.update({Ticket.owner_name: "Renamed"}).where(
                Ticket.order_id == uuid.UUID(order["id"])
            )
            inside = await TICKETS.page(principal, within=("event_id", event_id))
            assert [ticket.owner_name for ticket in inside.data] == ["Renamed", "Renamed"]
            assert inside.pagination.total == 2
            raise RuntimeError("roll back")

    after = await TICKETS.page(principal, within=("event_id", event_id))
    assert after == before
