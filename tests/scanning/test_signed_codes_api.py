"""Signed codes through the API (CONTRACT.md section 17): each ticket's ``signed_code`` verifies
with a stock Ed25519 key from ``scan-keys``; rotation, retirement (codes replaced, revocations),
the ``since`` chain of revocations, scopes, other organizations and bad input."""

from __future__ import annotations

import asyncio
import base64
from typing import Any
from uuid import UUID

import httpx
import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey
from httpx import AsyncClient

from app.services import scan_keys
from db.tables import AuditEntry, Ticket
from db.tables import ScanKey as ScanKeyTable
from tests.processes import serving
from tests.support import (
    Tenant,
    create_venue,
    gql_data,
    gql_error_codes,
    graphql,
    key_for,
    ok,
    order_tickets,
    place_order,
    problem,
)
from tests.testmode.support import in_test_mode


def unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def check_code(ticket: dict[str, Any], event_id: str, keys: list[dict[str, Any]]) -> str:
    """Verify ``ticket``'s code with ``cryptography`` alone; the kid of the key that signed it."""
    code = ticket["signed_code"]
    assert code.startswith("T1.") and len(code) == 186
    raw = unb64(code[3:])
    payload, signature = raw[:73], raw[73:]
    kid = base64.urlsafe_b64encode(payload[1:9]).rstrip(b"=").decode()
    [key] = [key for key in keys if key["kid"] == kid]
    assert key["algorithm"] == "Ed25519"
    Ed25519PublicKey.from_public_bytes(unb64(key["public_key"])).verify(signature, payload)
    ids = [str(UUID(bytes=payload[start : start + 16])) for start in (9, 25, 41, 57)]
    assert ids == [
        ticket["id"], event_id, ticket["ticket_type_id"], ticket["event_timeslot_id"]
    ]  # fmt: skip
    return kid


async def keys_of(client: AsyncClient, tenant: Tenant, event_id: str) -> list[dict[str, Any]]:
    body = ok(await client.get(f"/events/{event_id}/scan-keys", headers=tenant.headers))
    assert set(body) == {"keys"}
    for key in body["keys"]:
        assert set(key) == {"kid", "algorithm", "public_key", "created_at", "retired_at"}
    return list(body["keys"])


async def test_codes_verify_with_the_published_key(client: AsyncClient, tenant: Tenant) -> None:
    venue = await create_venue(client, tenant)
    event_id = venue.event["id"]
    order = await place_order(
        client, tenant, event_id, venue.timeslot["id"], [venue.ticket_type["id"]] * 2
    )
    tickets = await order_tickets(client, tenant, order)
    [key] = await keys_of(client, tenant, event_id)
    assert key["retired_at"] is None and key["created_at"].endswith("Z")
    assert {check_code(ticket, event_id, [key]) for ticket in tickets} == {key["kid"]}
    one = ok(await client.get(f"/tickets/{tickets[0]['id']}", headers=tenant.headers))
    assert one["signed_code"] == tickets[0]["signed_code"]
    assert tickets[0]["signed_code"] != tickets[1]["signed_code"]


async def test_rotation_and_retirement_change_which_codes_hold(
    client: AsyncClient, tenant: Tenant
) -> None:
    venue = await create_venue(client, tenant)
    event_id, slot, kind = venue.event["id"], venue.timeslot["id"], venue.ticket_type["id"]
    first_order = await place_order(client, tenant, event_id, slot, [kind, kind])
    early, cancelled = await order_tickets(client, tenant, first_order)
    ok(await client.post(f"/tickets/{cancelled['id']}/cancel", headers=tenant.headers))
    [old] = await keys_of(client, tenant, event_id)

    new = ok(await client.post(f"/events/{event_id}/scan-keys/rotate", headers=tenant.headers), 201)
    assert new["kid"] != old["kid"] and new["retired_at"] is None
    [late] = await order_tickets(
        client, tenant, await place_order(client, tenant, event_id, slot, [kind])
    )
    keys = await keys_of(client, tenant, event_id)
    assert [key["kid"] for key in keys] == [old["kid"], new["kid"]]
    assert check_code(late, event_id, keys) == new["kid"]
    assert check_code(early, event_id, keys) == old["kid"], "earlier codes stay good"

    refused = problem(
        await client.post(
            f"/events/{event_id}/scan-keys/{new['kid']}/retire", headers=tenant.headers
        ),
        409,
    )
    assert refused["type"].endswith("/current-scan-key") and "rotate" in refused["detail"]

    before = ok(await client.get(f"/events/{event_id}/revocations", headers=tenant.headers))
    assert [(r["ticket_id"], r["reason"], r["kid"]) for r in before["data"]] == [
        (cancelled["id"], "cancelled", None)
    ]
    retired = ok(
        await client.post(
            f"/events/{event_id}/scan-keys/{old['kid']}/retire", headers=tenant.headers
        )
    )
    assert retired["kid"] == old["kid"] and retired["retired_at"] is not None
    keys = await keys_of(client, tenant, event_id)
    assert [key["retired_at"] is not None for key in keys] == [True, False]
    renewed = ok(await client.get(f"/tickets/{early['id']}", headers=tenant.headers))
    assert renewed["signed_code"] != early["signed_code"]
    assert check_code(renewed, event_id, keys) == new["kid"]
    assert renewed["updated_at"] > early["updated_at"]
    after = ok(
        await client.get(
            f"/events/{event_id}/revocations",
            params={"since": before["next_since"]},
            headers=tenant.headers,
        )
    )
    assert [(r["ticket_id"], r["reason"], r["kid"]) for r in after["data"]] == [
        (early["id"], "code_replaced", old["kid"])
    ], "the cancelled ticket's code is replaced too, but it was revoked already"
    again = ok(
        await client.post(
            f"/events/{event_id}/scan-keys/{old['kid']}/retire", headers=tenant.headers
        )
    )
    assert again == retired, "retiring again changes nothing"
    entries = await AuditEntry.select(AuditEntry.action).where(
        AuditEntry.organization_id == tenant.org_id
    )
    actions = [entry["action"] for entry in entries]
    assert "scan_key.rotate" in actions and "scan_key.retire" in actions


async def test_verified_ticket_checks_the_signature_and_the_organization(
    client: AsyncClient, tenant: Tenant
) -> None:
    """What ``POST /scans`` uses for a ``signed_code`` (tests/scanning/test_signed_scans.py
    covers retired keys through the route)."""
    venue = await create_venue(client, tenant)
    kinds = [venue.ticket_type["id"]]
    order = await place_order(client, tenant, venue.event["id"], venue.timeslot["id"], kinds)
    [ticket] = await order_tickets(client, tenant, order)
    code = ticket["signed_code"]
    assert await scan_keys.verified_ticket(tenant.org_id, code) == UUID(ticket["id"])
    assert await scan_keys.verified_ticket(UUID(int=1), code) is None
    tampered = code[:-2] + ("AA" if code[-2:] != "AA" else "BA")
    assert await scan_keys.verified_ticket(tenant.org_id, tampered) is None
    assert await scan_keys.verified_ticket(tenant.org_id, "T1.nope") is None


async def test_a_stale_cached_key_never_signs_after_retirement(
    client: AsyncClient, tenant: Tenant
) -> None:
    """Another process still holding the retired key as current: its order is refused by the
    tickets' foreign key and placed again with the current key."""
    venue = await create_venue(client, tenant)
    event_id, slot, kind = venue.event["id"], venue.timeslot["id"], venue.ticket_type["id"]
    await place_order(client, tenant, event_id, slot, [kind])
    stale = scan_keys._cache[UUID(event_id)]
    [old] = await keys_of(client, tenant, event_id)
    new = ok(await client.post(f"/events/{event_id}/scan-keys/rotate", headers=tenant.headers), 201)
    ok(
        await client.post(
            f"/events/{event_id}/scan-keys/{old['kid']}/retire", headers=tenant.headers
        )
    )
    scan_keys._cache[UUID(event_id)] = stale
    [ticket] = await order_tickets(
        client, tenant, await place_order(client, tenant, event_id, slot, [kind])
    )
    assert check_code(ticket, event_id, await keys_of(client, tenant, event_id)) == new["kid"]


async def test_revocations_chain_by_since_without_gaps(client: AsyncClient, tenant: Tenant) -> None:
    venue = await create_venue(client, tenant)
    event_id = venue.event["id"]
    order = await place_order(
        client, tenant, event_id, venue.timeslot["id"], [venue.ticket_type["id"]] * 3
    )
    first, second, third = await order_tickets(client, tenant, order)
    path = f"/events/{event_id}/revocations"
    empty = ok(await client.get(path, headers=tenant.headers))
    assert empty["data"] == [] and empty["since"] is None and empty["next_since"].endswith("Z")
    ok(await client.post(f"/tickets/{first['id']}/cancel", headers=tenant.headers))
    page = ok(await client.get(path, params={"since": empty["next_since"]}, headers=tenant.headers))
    assert [r["ticket_id"] for r in page["data"]] == [first["id"]]
    assert page["data"][0]["reason"] == "cancelled" and page["since"] == empty["next_since"]
    ok(await client.post(f"/orders/{order['id']}/cancel", headers=tenant.headers))
    following = ok(
        await client.get(path, params={"since": page["next_since"]}, headers=tenant.headers)
    )
    assert sorted(r["ticket_id"] for r in following["data"]) == sorted([second["id"], third["id"]])
    last = ok(
        await client.get(path, params={"since": following["next_since"]}, headers=tenant.headers)
    )
    assert last["data"] == []
    everything = ok(await client.get(path, headers=tenant.headers))
    assert len(everything["data"]) == 3
    offset = ok(
        await client.get(
            path, params={"since": "2020-01-01T02:00:00+02:00"}, headers=tenant.headers
        )
    )
    assert len(offset["data"]) == 3 and offset["since"] == "2020-01-01T00:00:00Z"


async def test_concurrent_first_use_makes_one_key(client: AsyncClient, tenant: Tenant) -> None:
    venue = await create_venue(client, tenant)
    event_id, slot, kind = venue.event["id"], venue.timeslot["id"], venue.ticket_type["id"]
    orders = await asyncio.gather(
        place_order(client, tenant, event_id, slot, [kind]),
        place_order(client, tenant, event_id, slot, [kind]),
        client.get(f"/events/{event_id}/scan-keys", headers=tenant.headers),
        client.get(f"/events/{event_id}/scan-keys", headers=tenant.headers),
    )
    [key] = await keys_of(client, tenant, event_id)
    for order in orders[:2]:
        [ticket] = await order_tickets(client, tenant, order)
        assert check_code(ticket, event_id, [key]) == key["kid"]


async def test_a_first_rotation_racing_the_first_orders_makes_one_current_key(
    client: AsyncClient, tenant: Tenant
) -> None:
    """Whichever comes first, the rotation's key or an order's first key, the event ends with one
    key (the rotation was its first) or two (the rotation followed a first order's), never a
    refused write of the unique current key, and every code verifies with a published key."""
    venue = await create_venue(client, tenant)
    event_id, slot, kind = venue.event["id"], venue.timeslot["id"], venue.ticket_type["id"]
    *orders, rotated = await asyncio.gather(
        place_order(client, tenant, event_id, slot, [kind]),
        place_order(client, tenant, event_id, slot, [kind]),
        client.post(f"/events/{event_id}/scan-keys/rotate", headers=tenant.headers),
    )
    new = ok(rotated, 201)
    keys = await keys_of(client, tenant, event_id)
    assert len(keys) in (1, 2) and keys[-1] == new
    for order in orders:
        [ticket] = await order_tickets(client, tenant, order)
        check_code(ticket, event_id, keys)


async def test_scopes_other_organizations_and_bad_input(
    client: AsyncClient, tenant: Tenant, other_tenant: Tenant
) -> None:
    venue = await create_venue(client, tenant)
    event_id = venue.event["id"]
    key = ok(await client.post(f"/events/{event_id}/scan-keys/rotate", headers=tenant.headers), 201)
    reads = [f"/events/{event_id}/scan-keys", f"/events/{event_id}/revocations"]
    writes = [
        f"/events/{event_id}/scan-keys/rotate",
        f"/events/{event_id}/scan-keys/{key['kid']}/retire",
    ]
    no_read = await key_for(tenant, ["events.read", "events.write"])
    no_write = await key_for(tenant, ["tickets.read", "events.read"])
    for path in reads:
        refused = await client.get(path, headers=no_read)
        problem(refused, 403)
        assert 'scope="tickets.read"' in refused.headers["www-authenticate"]
        problem(await client.get(path, headers=other_tenant.headers), 404)
    for path in writes:
        refused = await client.post(path, headers=no_write)
        problem(refused, 403)
        assert 'scope="events.write"' in refused.headers["www-authenticate"]
        problem(await client.post(path, headers=other_tenant.headers), 404)
    for bad in ("yesterday", "2026-01-01T00:00:00", ""):
        body = problem(
            await client.get(reads[1], params={"since": bad}, headers=tenant.headers), 400
        )
        assert body["errors"][0]["field"] == "since"
    for kid in ("nope", "A" * 12, "!!!!!!!!!!!"):
        body = problem(
            await client.post(f"/events/{event_id}/scan-keys/{kid}/retire", headers=tenant.headers),
            400,
        )
        assert body["errors"][0]["field"] == "kid"
    problem(
        await client.post(
            f"/events/{event_id}/scan-keys/AAAAAAAAAAA/retire", headers=tenant.headers
        ),
        404,
    )
    problem(await client.get("/events/not-a-uuid/scan-keys", headers=tenant.headers), 400)


EVENT_KEYS = """
query ($id: ID!, $since: DateTime) {
  event(id: $id) {
    scanKeys { kid algorithm publicKey createdAt retiredAt }
    revocations(since: $since) { data { ticketId reason kid revokedAt } since nextSince }
    tickets(sort: "sequence:asc") { items { id signedCode } }
  }
}
"""
ROTATE = "mutation ($id: ID!) { rotateScanKey(eventId: $id) { kid retiredAt } }"
RETIRE = """
mutation ($id: ID!, $kid: String!) { retireScanKey(eventId: $id, kid: $kid) { kid retiredAt } }
"""


async def test_graphql_keys_codes_and_revocations(
    client: AsyncClient, tenant: Tenant, other_tenant: Tenant
) -> None:
    venue = await create_venue(client, tenant)
    event_id = venue.event["id"]
    order = await place_order(
        client, tenant, event_id, venue.timeslot["id"], [venue.ticket_type["id"]]
    )
    [ticket] = await order_tickets(client, tenant, order)
    event = gql_data(await graphql(client, tenant.headers, EVENT_KEYS, {"id": event_id}))["event"]
    [key] = event["scanKeys"]
    assert key["algorithm"] == "Ed25519" and key["retiredAt"] is None
    assert event["tickets"]["items"] == [{"id": ticket["id"], "signedCode": ticket["signed_code"]}]
    assert event["revocations"]["data"] == [] and event["revocations"]["nextSince"].endswith("Z")

    refused = await graphql(client, tenant.headers, RETIRE, {"id": event_id, "kid": key["kid"]})
    assert gql_error_codes(refused) == ["CONFLICT"]
    new = gql_data(await graphql(client, tenant.headers, ROTATE, {"id": event_id}))["rotateScanKey"]
    retired = gql_data(
        await graphql(client, tenant.headers, RETIRE, {"id": event_id, "kid": key["kid"]})
    )
    assert retired["retireScanKey"]["kid"] == key["kid"] and retired["retireScanKey"]["retiredAt"]
    since = event["revocations"]["nextSince"]
    after = gql_data(
        await graphql(client, tenant.headers, EVENT_KEYS, {"id": event_id, "since": since})
    )
    assert [k["kid"] for k in after["event"]["scanKeys"]] == [key["kid"], new["kid"]]
    [revoked] = after["event"]["revocations"]["data"]
    assert (revoked["ticketId"], revoked["reason"], revoked["kid"]) == (
        ticket["id"],
        "code_replaced",
        key["kid"],
    )
    assert after["event"]["tickets"]["items"][0]["signedCode"] != ticket["signed_code"]

    bad = await graphql(
        client, tenant.headers, EVENT_KEYS, {"id": event_id, "since": "2026-01-01T00:00:00"}
    )
    assert gql_error_codes(bad) == ["BAD_USER_INPUT"]
    other = await graphql(client, other_tenant.headers, ROTATE, {"id": event_id})
    assert gql_error_codes(other) == ["NOT_FOUND"]
    no_write = await key_for(tenant, ["events.read", "tickets.read"])
    assert gql_error_codes(await graphql(client, no_write, ROTATE, {"id": event_id})) == [
        "FORBIDDEN"
    ]


async def test_the_test_twin_has_keys_of_its_own(client: AsyncClient, tenant: Tenant) -> None:
    twin = await in_test_mode(tenant)
    venue = await create_venue(client, twin)
    event_id = venue.event["id"]
    kinds = [venue.ticket_type["id"]]
    order = await place_order(client, twin, event_id, venue.timeslot["id"], kinds)
    [ticket] = await order_tickets(client, twin, order)
    keys = await keys_of(client, twin, event_id)
    assert check_code(ticket, event_id, keys) == keys[0]["kid"]
    ok(await client.post(f"/events/{event_id}/scan-keys/rotate", headers=twin.headers), 201)
    ok(await client.get(f"/events/{event_id}/revocations", headers=twin.headers))
    for path in (f"/events/{event_id}/scan-keys", f"/events/{event_id}/revocations"):
        problem(await client.get(path, headers=tenant.headers), 404)
    problem(await client.post(f"/events/{event_id}/scan-keys/rotate", headers=tenant.headers), 404)


EVENTS_KEYS = "{ events(limit: 100) { items { id scanKeys { kid retiredAt } } } }"


async def test_graphql_keys_of_a_page_of_events(client: AsyncClient, tenant: Tenant) -> None:
    sold = await create_venue(client, tenant)
    empty = await create_venue(client, tenant)
    kinds = [sold.ticket_type["id"]]
    await place_order(client, tenant, sold.event["id"], sold.timeslot["id"], kinds)
    rotate = f"/events/{sold.event['id']}/scan-keys/rotate"
    ok(await client.post(rotate, headers=tenant.headers), 201)
    items = gql_data(await graphql(client, tenant.headers, EVENTS_KEYS))["events"]["items"]
    by_event = {item["id"]: item["scanKeys"] for item in items}
    assert len(by_event[sold.event["id"]]) == 2
    assert by_event[empty.event["id"]] == []  # no ticket signed yet, as in REST
    assert await keys_of(client, tenant, empty.event["id"]) == []
    assert await stored_keys(empty.event["id"]) == 0


async def stored_keys(event_id: str) -> int:
    return int(await ScanKeyTable.count().where(ScanKeyTable.event_id == UUID(event_id)))


async def test_reading_keys_writes_nothing_and_a_first_rotation_makes_one_key(
    client: AsyncClient, tenant: Tenant
) -> None:
    """CONTRACT.md section 17, docs/signed-codes.md "First use": a GET lists the keys there are
    (none before the event's first ticket is signed) and writes nothing; rotating an event that
    has no key yet makes one key, the current one, which signs the first tickets."""
    venue = await create_venue(client, tenant)
    event_id = venue.event["id"]
    for _ in range(2):
        assert await keys_of(client, tenant, event_id) == []
    event = gql_data(await graphql(client, tenant.headers, EVENT_KEYS, {"id": event_id}))["event"]
    assert event["scanKeys"] == []
    assert await stored_keys(event_id) == 0
    rotate = f"/events/{event_id}/scan-keys/rotate"
    first = ok(await client.post(rotate, headers=tenant.headers), 201)
    assert await keys_of(client, tenant, event_id) == [first]
    assert await stored_keys(event_id) == 1
    kinds = [venue.ticket_type["id"]]
    order = await place_order(client, tenant, event_id, venue.timeslot["id"], kinds)
    [ticket] = await order_tickets(client, tenant, order)
    assert check_code(ticket, event_id, [first]) == first["kid"]
    second = ok(await client.post(rotate, headers=tenant.headers), 201)
    assert await keys_of(client, tenant, event_id) == [first, second]


async def test_a_ticket_without_a_code_is_signed_when_read(
    client: AsyncClient, tenant: Tenant
) -> None:
    """A ticket an earlier release wrote during a rolling upgrade has no code: the first read
    signs and stores it."""
    venue = await create_venue(client, tenant)
    event_id = venue.event["id"]
    kinds = [venue.ticket_type["id"]]
    order = await place_order(client, tenant, event_id, venue.timeslot["id"], kinds)
    [ticket] = await order_tickets(client, tenant, order)
    await Ticket.update({Ticket.signed_code: None, Ticket.scan_key_id: None}).where(
        Ticket.id == UUID(ticket["id"])
    )
    [listed] = await order_tickets(client, tenant, order)
    check_code(listed, event_id, await keys_of(client, tenant, event_id))
    stored = await Ticket.select(Ticket.signed_code).where(Ticket.id == UUID(ticket["id"])).first()
    assert stored is not None and stored["signed_code"] == listed["signed_code"]


@pytest.mark.slow
async def test_first_orders_through_two_servers_make_one_key(
    client: AsyncClient, tenant: Tenant, database: None
) -> None:
    venue = await create_venue(client, tenant)
    event_id = venue.event["id"]
    body = {
        "event_id": event_id,
        "event_timeslot_id": venue.timeslot["id"],
        "buyer_name": "Ada",
        "buyer_email": "ada@example.com",
        "channel": "online",
        "payment_method": "card",
        "tickets": [{"ticket_type_id": venue.ticket_type["id"]}],
    }
    async with serving(2) as urls:
        servers = [
            httpx.AsyncClient(base_url=url, headers=tenant.headers, timeout=60.0) for url in urls
        ]
        try:
            answers = await asyncio.gather(
                *(servers[i % 2].post("/orders", json=body) for i in range(8)),
                *(servers[i % 2].get(f"/events/{event_id}/scan-keys") for i in range(2)),
            )
        finally:
            for server in servers:
                await server.aclose()
    assert [answer.status_code for answer in answers] == [201] * 8 + [200] * 2
    [key] = await keys_of(client, tenant, event_id)
    for answer in answers[-2:]:  # a read racing the first orders sees no key or that one
        assert answer.json()["keys"] in ([], [key])
    page = ok(
        await client.get(
            f"/events/{event_id}/tickets", params={"limit": 100}, headers=tenant.headers
        )
    )
    assert len(page["data"]) == 8
    assert {check_code(ticket, event_id, [key]) for ticket in page["data"]} == {key["kid"]}
