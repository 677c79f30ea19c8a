"""`POST /scans` (and its batch, and GraphQL) with a ticket's `signed_code` (CONTRACT.md section
17): its signature is checked before anything else, a bad one is not found, and a good one scans
the ticket it names with the same result as its scannable code."""

from __future__ import annotations

import uuid
from typing import Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.hazmat.primitives.serialization import load_pem_private_key
from httpx import AsyncClient

from app import signed_codes
from app.services import scan_keys
from db.tables import ScanKey
from tests.scanning.support import principal_of
from tests.support import (
    Tenant,
    create_scanner,
    gql_data,
    gql_error_codes,
    graphql,
    ok,
    open_door,
    operation,
    problem,
)


async def scan_signed(client: AsyncClient, tenant: Tenant, code: str, **body: Any) -> Any:
    return await client.post("/scans", json={"signed_code": code, **body}, headers=tenant.headers)


def tampered(code: str) -> str:
    """The code with one character of its signature changed."""
    last = "A" if code[-2] != "A" else "B"
    return code[:-2] + last + code[-1]


async def event_key(event_id: str) -> Ed25519PrivateKey:
    row = await ScanKey.select(ScanKey.private_pem).where(ScanKey.event_id == event_id).first()
    assert row is not None
    key = load_pem_private_key(row["private_pem"].encode(), password=None)
    assert isinstance(key, Ed25519PrivateKey)
    return key


def claims_of(
    ticket: dict[str, Any], event_id: str, kid: bytes, **changed: Any
) -> signed_codes.Claims:
    fields = {
        "ticket_id": uuid.UUID(ticket["id"]),
        "event_id": uuid.UUID(event_id),
        "ticket_type_id": uuid.UUID(ticket["ticket_type_id"]),
        "timeslot_id": uuid.UUID(ticket["event_timeslot_id"]),
    }
    return signed_codes.Claims(kid, **{**fields, **changed})


async def test_a_signed_code_admits_with_the_result_of_its_scannable_code(
    client: AsyncClient, tenant: Tenant
) -> None:
    door = await open_door(client, tenant, tickets=2)
    first, second = door.tickets
    by_signed = ok(await scan_signed(client, tenant, first["signed_code"]))
    by_code = ok(
        await client.post(
            "/scans", json={"scannable_code": second["scannable_code"]}, headers=tenant.headers
        )
    )
    assert by_signed["status"] == "valid" and by_signed["ticket_id"] == first["id"]
    assert set(by_signed) == set(by_code)
    assert {**by_signed, "ticket_id": None, "scanned_at": None} == {
        **by_code,
        "ticket_id": None,
        "scanned_at": None,
    }
    again = ok(await scan_signed(client, tenant, first["signed_code"]))
    assert again["status"] == "scanned" and again["scanned_at"] == by_signed["scanned_at"]


async def test_a_bad_signed_code_is_not_found_before_anything_else(
    client: AsyncClient, tenant: Tenant, other_tenant: Tenant
) -> None:
    door = await open_door(client, tenant, tickets=1)
    elsewhere = await open_door(client, tenant, tickets=1)
    theirs = await open_door(client, other_tenant, tickets=1)
    [ticket] = door.tickets
    code = ticket["signed_code"]
    stranger = Ed25519PrivateKey.generate()
    event_id = door.venue.event["id"]
    unknown_kid = signed_codes.sign(
        stranger, claims_of(ticket, event_id, signed_codes.kid_of(stranger.public_key()))
    )
    key = await event_key(event_id)
    kid = signed_codes.kid_of(key.public_key())
    [other] = elsewhere.tickets
    other_event = signed_codes.sign(key, claims_of(other, elsewhere.venue.event["id"], kid))
    their_scanner = await create_scanner(client, other_tenant)
    for bad in (tampered(code), unknown_kid, other_event, theirs.tickets[0]["signed_code"]):
        found = problem(await scan_signed(client, tenant, bad), 404)
        assert "signed_code" in found["detail"]
        # Before the scanner: a scanner of another organization would be a 403.
        problem(await scan_signed(client, tenant, bad, scanner_id=their_scanner["id"]), 404)
    problem(await scan_signed(client, tenant, "T1.short"), 404)
    assert ok(await scan_signed(client, tenant, code))["status"] == "valid"


async def test_a_retired_keys_code_is_not_found_and_the_new_code_admits(
    client: AsyncClient, tenant: Tenant
) -> None:
    door = await open_door(client, tenant, tickets=1)
    [ticket] = door.tickets
    old_code = ticket["signed_code"]
    problem(await scan_signed(client, tenant, tampered(old_code)), 404)  # the key is cached now
    principal = await principal_of(tenant)
    event_id = uuid.UUID(door.venue.event["id"])
    old = await scan_keys.event_keys(principal, event_id)
    await scan_keys.rotate_key(principal, event_id)
    await scan_keys.retire_key(principal, event_id, old.keys[0].kid)
    problem(await scan_signed(client, tenant, old_code), 404)
    fresh = ok(await client.get(f"/tickets/{ticket['id']}", headers=tenant.headers))
    assert fresh["signed_code"] != old_code
    assert ok(await scan_signed(client, tenant, fresh["signed_code"]))["status"] == "valid"


async def test_a_batch_takes_signed_codes(client: AsyncClient, tenant: Tenant) -> None:
    door = await open_door(client, tenant, tickets=2)
    first, second = door.tickets
    body = {
        "scans": [
            {"signed_code": first["signed_code"], "nonce": "s-1"},
            {"signed_code": tampered(second["signed_code"]), "nonce": "s-2"},
            {"signed_code": first["signed_code"], "nonce": "s-3"},
            {"scannable_code": second["scannable_code"], "nonce": "s-4"},
        ]
    }
    results = ok(await client.post("/scans/batch", json=body, headers=tenant.headers))["results"]
    assert [(r["nonce"], r["status"]) for r in results] == [
        ("s-1", "valid"), ("s-2", "not_found"), ("s-3", "scanned"), ("s-4", "valid"),
    ]  # fmt: skip
    assert results[0]["ticket_id"] == first["id"] and results[1]["ticket_id"] is None
    both = {"scannable_code": second["scannable_code"], "signed_code": second["signed_code"]}
    refused = problem(
        await client.post(
            "/scans/batch", json={"scans": [{**both, "nonce": "s-5"}]}, headers=tenant.headers
        ),
        400,
    )
    assert refused["errors"][0]["field"] == "scans[0].ticket_id"
    problem(await client.post("/scans", json=both, headers=tenant.headers), 400)


async def test_graphql_scans_a_signed_code(client: AsyncClient, tenant: Tenant) -> None:
    door = await open_door(client, tenant, tickets=1)
    [ticket] = door.tickets
    document = operation("ScanSignedCode")
    answer = await graphql(client, tenant.headers, document, {"code": ticket["signed_code"]})
    result = gql_data(answer)["scanTicket"]
    assert result["status"] == "valid" and result["ticketId"] == ticket["id"]
    assert result["inside"] is True and result["scannedBefore"] is False
    bad = {"code": tampered(ticket["signed_code"])}
    assert gql_error_codes(await graphql(client, tenant.headers, document, bad)) == ["NOT_FOUND"]
