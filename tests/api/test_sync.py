"""Sync (CONTRACT.md section 11): every change of a ticket or an order moves its ``updated_at``,
and ``updated_since`` gives a device or an integration exactly what changed since it last looked,
through REST and GraphQL alike."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from typing import Any

from httpx import AsyncClient

from tests.support import (
    Tenant,
    create_scanner,
    create_venue,
    gql_data,
    graphql,
    ok,
    operation,
    order_tickets,
    place_order,
)

Change = Callable[[], Awaitable[Any]]


def stamp() -> str:
    return datetime.now(UTC).isoformat().replace("+00:00", "Z")


async def changed_tickets(client: AsyncClient, tenant: Tenant, event_id: str, since: str) -> set:
    page = ok(
        await client.get(
            f"/events/{event_id}/tickets",
            params={"updated_since": since, "limit": 100},
            headers=tenant.headers,
        )
    )
    return {ticket["id"] for ticket in page["data"]}


async def changed_orders(client: AsyncClient, tenant: Tenant, since: str) -> set:
    page = ok(
        await client.get(
            "/orders", params={"updated_since": since, "limit": 100}, headers=tenant.headers
        )
    )
    return {order["id"] for order in page["data"]}


class Shop:
    """An event with two orders of two tickets each, confirmed, and a scanner."""

    def __init__(self, client: AsyncClient, tenant: Tenant) -> None:
        self.client = client
        self.tenant = tenant

    async def open(self) -> Shop:
        self.venue = await create_venue(self.client, self.tenant)
        self.event_id = self.venue.event["id"]
        types = [self.venue.ticket_type["id"]] * 2
        self.orders = [
            await place_order(
                self.client, self.tenant, self.event_id, self.venue.timeslot["id"], types,
                confirm=True,
            )
            for _ in range(2)
        ]  # fmt: skip
        self.tickets = [await order_tickets(self.client, self.tenant, o) for o in self.orders]
        await create_scanner(self.client, self.tenant)
        return self

    async def after(self, change: Change) -> tuple[set, set]:
        """The ticket ids and order ids that ``updated_since`` reports after ``change``."""
        since = stamp()
        await change()
        return (
            await changed_tickets(self.client, self.tenant, self.event_id, since),
            await changed_orders(self.client, self.tenant, since),
        )

    def post(self, path: str, **body: Any) -> Change:
        return lambda: self.client.post(path, json=body or None, headers=self.tenant.headers)


async def test_creating_an_order_is_a_change_of_the_order_and_its_tickets(
    client: AsyncClient, tenant: Tenant
) -> None:
    shop = await Shop(client, tenant).open()
    placed: dict[str, Any] = {}

    async def place() -> None:
        placed["order"] = await place_order(
            client, tenant, shop.event_id, shop.venue.timeslot["id"],
            [shop.venue.ticket_type["id"]] * 3,
        )  # fmt: skip

    tickets, orders = await shop.after(place)
    order = placed["order"]
    assert orders == {order["id"]}
    assert tickets == {t["id"] for t in await order_tickets(client, tenant, order)}
    assert order["updated_at"] == order["created_at"]


async def test_confirming_changes_the_order(client: AsyncClient, tenant: Tenant) -> None:
    shop = await Shop(client, tenant).open()
    pending = await place_order(
        client, tenant, shop.event_id, shop.venue.timeslot["id"], [shop.venue.ticket_type["id"]]
    )
    tickets, orders = await shop.after(shop.post(f"/orders/{pending['id']}/confirm"))
    assert orders == {pending["id"]}
    assert tickets == set()
    confirmed = ok(await client.get(f"/orders/{pending['id']}", headers=tenant.headers))
    assert confirmed["updated_at"] > pending["updated_at"]


async def test_scanning_changes_the_ticket(client: AsyncClient, tenant: Tenant) -> None:
    shop = await Shop(client, tenant).open()
    ticket = shop.tickets[0][1]
    scan = shop.post("/scans", scannable_code=ticket["scannable_code"])
    tickets, orders = await shop.after(scan)
    assert tickets == {ticket["id"]} and orders == set()
    scanned = ok(await client.get(f"/tickets/{ticket['id']}", headers=tenant.headers))
    assert scanned["status"] == "scanned" and scanned["updated_at"] > ticket["updated_at"]
    # A scan that admits nothing (already scanned) changes nothing.
    assert await shop.after(scan) == (set(), set())


async def test_cancelling_a_ticket_changes_the_ticket(client: AsyncClient, tenant: Tenant) -> None:
    shop = await Shop(client, tenant).open()
    ticket = shop.tickets[1][0]
    cancel = shop.post(f"/tickets/{ticket['id']}/cancel")
    assert await shop.after(cancel) == ({ticket["id"]}, set())
    assert await shop.after(cancel) == (set(), set())  # cancelling again changes nothing


async def test_cancelling_an_order_changes_it_and_its_live_tickets(
    client: AsyncClient, tenant: Tenant
) -> None:
    shop = await Shop(client, tenant).open()
    order, (first, second) = shop.orders[0], shop.tickets[0]
    await shop.after(shop.post(f"/tickets/{first['id']}/cancel"))
    tickets, orders = await shop.after(shop.post(f"/orders/{order['id']}/cancel"))
    assert orders == {order["id"]}
    assert tickets == {second["id"]}  # the ticket cancelled before does not change again


async def test_refunding_changes_the_order(client: AsyncClient, tenant: Tenant) -> None:
    shop = await Shop(client, tenant).open()
    order = shop.orders[1]
    refund = shop.post(f"/orders/{order['id']}/refund", amount=10)
    assert await shop.after(refund) == (set(), {order["id"]})


async def test_a_device_downloads_once_then_receives_only_changes(
    client: AsyncClient, tenant: Tenant
) -> None:
    """The door app's loop: all tickets sorted by ``updated_at``, then polls from the newest
    ``updated_at`` it holds; GraphQL answers the same as REST."""
    shop = await Shop(client, tenant).open()
    everything = ok(
        await client.get(
            f"/events/{shop.event_id}/tickets",
            params={"sort": "updated_at:asc", "limit": 100},
            headers=tenant.headers,
        )
    )["data"]
    assert len(everything) == 4
    assert [t["updated_at"] for t in everything] == sorted(t["updated_at"] for t in everything)
    newest = everything[-1]["updated_at"]
    ticket = shop.tickets[0][0]
    await shop.post("/scans", scannable_code=ticket["scannable_code"])()
    since = {t["id"] for t in everything if t["updated_at"] == newest}
    rest = await changed_tickets(client, tenant, shop.event_id, newest)
    assert rest == since | {ticket["id"]}

    data = gql_data(
        await graphql(
            client,
            tenant.headers,
            operation("ChangedSince"),
            {"eventId": shop.event_id, "since": newest},
        )
    )
    assert {t["id"] for t in data["tickets"]["items"]} == rest
    assert {t["id"] for t in data["event"]["tickets"]["items"]} == rest
    orders = await changed_orders(client, tenant, newest)
    assert {o["id"] for o in data["orders"]["items"]} == orders
    assert {o["id"] for o in data["event"]["orders"]["items"]} == orders
