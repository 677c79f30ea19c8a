"""Idempotency keys (CONTRACT.md section 10) through REST and GraphQL, in-process against the run's
PostgreSQL: replay, mismatch, bad keys, concurrency, credentials, error answers, pruning."""

from __future__ import annotations

import asyncio
import uuid
from datetime import timedelta
from typing import Any

import httpx
from httpx import AsyncClient, Response
from piccolo.engine.base import Engine

from app.services import idempotency
from app.timeutil import utcnow
from db.tables import Order, OutboxEvent, Scan, Timeslot
from tests.statements import count_statements
from tests.support import (
    Tenant,
    Venue,
    create_venue,
    gql_data,
    key_for,
    ok,
    open_door,
    operation,
    problem,
)


def order_body(venue: Venue, buyer: str = "Ada Buyer", tickets: int = 2) -> dict[str, Any]:
    return {
        "event_id": venue.event["id"],
        "event_timeslot_id": venue.timeslot["id"],
        "buyer_name": buyer,
        "buyer_email": "ada@example.com",
        "channel": "api",
        "payment_method": "card",
        "tickets": [{"ticket_type_id": venue.ticket_type["id"]}] * tickets,
    }


def keyed(headers: dict[str, str], key: str) -> dict[str, str]:
    return {**headers, "Idempotency-Key": key}


async def orders_of(tenant: Tenant) -> list[dict[str, Any]]:
    return await Order.select(Order.id, Order.buyer_name).where(
        Order.organization_id == tenant.org_id
    )


async def events_of(tenant: Tenant, event_type: str) -> int:
    return await OutboxEvent.count().where(
        OutboxEvent.organization_id == tenant.org_id, OutboxEvent.event_type == event_type
    )


async def sold(venue: Venue) -> int:
    row = await Timeslot.select(Timeslot.sold).where(Timeslot.id == venue.timeslot["id"]).first()
    assert row is not None
    return row["sold"]


async def test_a_repeated_order_is_replayed_and_placed_once(
    client: AsyncClient, tenant: Tenant
) -> None:
    venue = await create_venue(client, tenant)
    headers = keyed(tenant.headers, f"order-{uuid.uuid4()}")
    first = await client.post("/orders", json=order_body(venue), headers=headers)
    created = ok(first, 201)
    assert "idempotent-replayed" not in first.headers

    again = await client.post("/orders", json=order_body(venue), headers=headers)
    assert again.status_code == 201
    assert again.headers["idempotent-replayed"] == "true"
    assert again.content == first.content
    assert again.headers["content-type"] == first.headers["content-type"]
    assert again.headers["x-request-id"] != first.headers["x-request-id"]
    assert [row["id"] for row in await orders_of(tenant)] == [uuid.UUID(created["id"])]
    assert await events_of(tenant, "order.created") == 1
    assert await sold(venue) == 2


async def test_without_a_key_each_request_runs(client: AsyncClient, tenant: Tenant) -> None:
    venue = await create_venue(client, tenant)
    for _ in range(2):
        ok(await client.post("/orders", json=order_body(venue), headers=tenant.headers), 201)
    assert len(await orders_of(tenant)) == 2


async def test_a_key_used_for_another_request_is_a_422(client: AsyncClient, tenant: Tenant) -> None:
    venue = await create_venue(client, tenant)
    headers = keyed(tenant.headers, "reused-key")
    ok(await client.post("/orders", json=order_body(venue), headers=headers), 201)
    other_body = await client.post("/orders", json=order_body(venue, "Bob"), headers=headers)
    body = problem(other_body, 422)
    assert body["type"] == "/problems/idempotency-key-reused"
    other_path = await client.post(
        f"/events/{venue.event['id']}/ticket_types",
        json={"name": "VIP", "price": 1},
        headers=headers,
    )
    assert problem(other_path, 422)["type"] == "/problems/idempotency-key-reused"
    other_query = await client.post("/orders?x=1", json=order_body(venue), headers=headers)
    assert problem(other_query, 422)["type"] == "/problems/idempotency-key-reused"
    assert len(await orders_of(tenant)) == 1


async def test_a_malformed_key_is_a_400(client: AsyncClient, tenant: Tenant) -> None:
    venue = await create_venue(client, tenant)
    for bad in ["", "x" * 256, "has space", "tab\tkey", "caf\u00e9"]:
        headers = {**tenant.headers, "Idempotency-Key": bad.encode("latin-1")}
        response = await client.post("/orders", json=order_body(venue), headers=headers)  # type: ignore[arg-type]
        body = problem(response, 400)
        assert "Idempotency-Key" in body["detail"], body
    ok(
        await client.post(
            "/orders", json=order_body(venue), headers=keyed(tenant.headers, "~" * 255)
        ),
        201,
    )
    assert len(await orders_of(tenant)) == 1


async def test_a_key_on_a_read_or_without_credential_changes_nothing(
    client: AsyncClient, tenant: Tenant
) -> None:
    assert (
        await client.get("/orders", headers=keyed(tenant.headers, "bad key"))
    ).status_code == 200
    response = await client.post("/orders", json={}, headers={"Idempotency-Key": "k"})
    problem(response, 401)
    token = await client.post(
        "/oauth2/token", data={"grant_type": "password"}, headers={"Idempotency-Key": "bad key"}
    )
    assert token.json()["error"] == "unsupported_grant_type"  # not a credential of the API


async def test_twenty_simultaneous_requests_with_one_key_place_one_order(
    client: AsyncClient, tenant: Tenant
) -> None:
    venue = await create_venue(client, tenant)
    headers = keyed(tenant.headers, f"race-{uuid.uuid4()}")
    responses = await asyncio.gather(
        *(client.post("/orders", json=order_body(venue), headers=headers) for _ in range(20))
    )
    fresh = [
        r for r in responses if r.status_code == 201 and "idempotent-replayed" not in r.headers
    ]
    replayed = [r for r in responses if r.headers.get("idempotent-replayed") == "true"]
    busy = [r for r in responses if r.status_code == 409]
    assert len(fresh) == 1, [r.status_code for r in responses]
    assert len(fresh) + len(replayed) + len(busy) == 20
    for response in busy:
        assert problem(response, 409)["type"] == "/problems/idempotency-key-in-progress"
        assert response.headers["retry-after"] == "1"
    for response in replayed:
        assert response.content == fresh[0].content
    assert len(await orders_of(tenant)) == 1
    assert await events_of(tenant, "order.created") == 1
    assert await sold(venue) == 2
    again = await client.post("/orders", json=order_body(venue), headers=headers)
    assert again.headers["idempotent-replayed"] == "true" and again.content == fresh[0].content


async def test_keys_belong_to_their_credential(client: AsyncClient, tenant: Tenant) -> None:
    venue = await create_venue(client, tenant)
    other_key = await key_for(tenant, ["orders.write"])
    first = ok(
        await client.post("/orders", json=order_body(venue), headers=keyed(tenant.headers, "same")),
        201,
    )
    second = ok(
        await client.post("/orders", json=order_body(venue), headers=keyed(other_key, "same")), 201
    )
    assert first["id"] != second["id"]
    assert len(await orders_of(tenant)) == 2


async def test_an_error_answer_is_replayed_too(client: AsyncClient, tenant: Tenant) -> None:
    venue = await create_venue(client, tenant, capacity=1)
    headers = keyed(tenant.headers, "too-many")
    refused = await client.post("/orders", json=order_body(venue, tickets=2), headers=headers)
    assert problem(refused, 409)["type"] == "/problems/sold-out"
    again = await client.post("/orders", json=order_body(venue, tickets=2), headers=headers)
    assert again.status_code == 409 and again.headers["idempotent-replayed"] == "true"
    assert again.content == refused.content
    assert await orders_of(tenant) == [] and await sold(venue) == 0


async def test_a_failed_service_change_is_undone_and_its_answer_kept(
    client: AsyncClient, tenant: Tenant
) -> None:
    """A cancelled order's refund over its total: the refund service raises after nothing was
    changed; the answer (409) is kept, the order is as it was."""
    venue = await create_venue(client, tenant)
    order = ok(await client.post("/orders", json=order_body(venue), headers=tenant.headers), 201)
    headers = keyed(tenant.headers, "refund")
    path = f"/orders/{order['id']}/refund"
    problem(await client.post(path, json={"amount": 1000}, headers=headers), 409)
    ok(await client.post(path, json={"amount": 10}, headers=keyed(tenant.headers, "refund-2")))
    replayed = await client.post(path, json={"amount": 1000}, headers=headers)
    assert replayed.status_code == 409 and replayed.headers["idempotent-replayed"] == "true"
    row = await Order.select(Order.refunded).where(Order.id == order["id"]).first()
    assert row is not None and float(row["refunded"]) == 10.0


async def test_graphql_mutation_with_a_key_runs_once(client: AsyncClient, tenant: Tenant) -> None:
    venue = await create_venue(client, tenant)
    body = order_body(venue)
    variables = {
        "input": {
            "eventId": body["event_id"],
            "eventTimeslotId": body["event_timeslot_id"],
            "buyerName": body["buyer_name"],
            "buyerEmail": body["buyer_email"],
            "channel": body["channel"],
            "paymentMethod": body["payment_method"],
            "tickets": [{"ticketTypeId": t["ticket_type_id"]} for t in body["tickets"]],
        }
    }
    request = {"query": operation("PlaceOrder"), "variables": variables}
    headers = keyed(tenant.headers, "graphql-order")

    async def send() -> Response:
        return await client.post("/graphql", json=request, headers=headers)

    first = await send()
    placed = gql_data(ok(first))["placeOrder"]
    assert len(placed["tickets"]["items"]) == 2
    again = await send()
    assert again.status_code == 200 and again.headers["idempotent-replayed"] == "true"
    assert again.content == first.content
    assert len(await orders_of(tenant)) == 1
    other = await client.post(
        "/graphql", json={**request, "operationName": "PlaceOrder"}, headers=headers
    )
    assert problem(other, 422)["type"] == "/problems/idempotency-key-reused"


async def test_graphql_query_with_a_key_resolves_its_fields_in_one_transaction(
    client: AsyncClient, tenant: Tenant
) -> None:
    """Sibling fields resolve concurrently on the request's one connection."""
    venue = await create_venue(client, tenant)
    for _ in range(3):
        ok(await client.post("/orders", json=order_body(venue), headers=tenant.headers), 201)
    request = {"query": operation("EventWithRelations"), "variables": {"id": venue.event["id"]}}
    plain = await client.post("/graphql", json=request, headers=tenant.headers)
    keyed_response = await client.post(
        "/graphql", json=request, headers=keyed(tenant.headers, "query")
    )
    gql_data(ok(keyed_response))
    assert keyed_response.json() == ok(plain)


async def test_expired_keys_are_pruned_and_may_run_again(
    client: AsyncClient, tenant: Tenant
) -> None:
    venue = await create_venue(client, tenant)
    headers = keyed(tenant.headers, "yesterday")
    ok(await client.post("/orders", json=order_body(venue), headers=headers), 201)
    day_ago = utcnow() - idempotency.LIFETIME - timedelta(seconds=1)
    await Order.raw(
        "UPDATE idempotency_keys SET expires_at = {} WHERE organization_id = {}",
        day_ago + idempotency.LIFETIME - timedelta(seconds=1),
        tenant.org_id,
    )
    assert await idempotency.prune() >= 1
    left = await Order.raw(
        "SELECT count(*) AS n FROM idempotency_keys WHERE organization_id = {}", tenant.org_id
    )
    assert left[0]["n"] == 0
    again = await client.post("/orders", json=order_body(venue), headers=headers)
    assert ok(again, 201) and "idempotent-replayed" not in again.headers
    assert len(await orders_of(tenant)) == 2


PRUNE = "DELETE FROM idempotency_keys"
"""The lazy pruning (at most once a minute per process), not the request's."""


async def test_a_key_costs_a_fixed_number_of_statements(
    client: AsyncClient, tenant: Tenant
) -> None:
    """Measured, not timed: the statements an order costs without a key, with a new key, and as
    a replay (a replay runs nothing of the order's)."""
    venue = await create_venue(client, tenant)
    ok(await client.post("/orders", json=order_body(venue), headers=tenant.headers), 201)  # warm
    counted: dict[str, list[str]] = {}
    headers = keyed(tenant.headers, "counted")
    for name, sent in (("plain", tenant.headers), ("first", headers), ("replay", headers)):
        with count_statements() as counter:
            ok(await client.post("/orders", json=order_body(venue), headers=sent), 201)
            counted[name] = [sql for sql in counter.statements if not sql.startswith(PRUNE)]
    # An order outright without a key is one statement that commits by itself (no BEGIN or
    # COMMIT); with one: BEGIN, the lock, the read, a savepoint around the service's statement,
    # the answer's INSERT, COMMIT.
    assert len(counted["plain"]) == 1, counted
    assert len(counted["first"]) == len(counted["plain"]) + 6, counted
    assert len(counted["replay"]) == 4, counted  # BEGIN, lock, read, COMMIT


async def client_token(client: AsyncClient, client_id: str, secret: str | None) -> dict[str, str]:
    response = await client.post(
        "/oauth2/token", data={"grant_type": "client_credentials"}, auth=(client_id, secret or "")
    )
    return {"Authorization": f"Bearer {ok(response)['access_token']}"}


async def test_oauth_keys_belong_to_the_client_and_user(
    client: AsyncClient, tenant: Tenant
) -> None:
    """Two tokens of one client (a refreshed token, say) share their keys; another client using
    the same key string has its own."""
    from app.services.oauth.clients import create_client

    venue = await create_venue(client, tenant)
    registered = [
        await create_client(
            tenant.org_id, tenant.email, name, ["https://app.example.com/cb"], "orders.write"
        )
        for name in ("Box office", "Reseller")
    ]
    first_token = await client_token(client, registered[0].client_id, registered[0].client_secret)
    second_token = await client_token(client, registered[0].client_id, registered[0].client_secret)
    other_client = await client_token(client, registered[1].client_id, registered[1].client_secret)
    assert first_token != second_token
    placed = await client.post("/orders", json=order_body(venue), headers=keyed(first_token, "k"))
    ok(placed, 201)
    retried = await client.post("/orders", json=order_body(venue), headers=keyed(second_token, "k"))
    assert retried.headers["idempotent-replayed"] == "true" and retried.content == placed.content
    other = await client.post("/orders", json=order_body(venue), headers=keyed(other_client, "k"))
    assert ok(other, 201)["id"] != placed.json()["id"]
    assert len(await orders_of(tenant)) == 2


async def test_a_patch_with_a_key_is_replayed(client: AsyncClient, tenant: Tenant) -> None:
    venue = await create_venue(client, tenant)
    path = f"/events/{venue.event['id']}"
    headers = keyed(tenant.headers, "rename")
    renamed = await client.patch(path, json={"title": "Renamed"}, headers=headers)
    assert ok(renamed)["title"] == "Renamed"
    ok(await client.patch(path, json={"title": "Changed since"}, headers=tenant.headers))
    again = await client.patch(path, json={"title": "Renamed"}, headers=headers)
    assert again.headers["idempotent-replayed"] == "true" and again.content == renamed.content
    assert ok(await client.get(path, headers=tenant.headers))["title"] == "Changed since"


async def test_a_server_error_keeps_nothing_and_the_retry_runs(
    database: Engine, tenant: Tenant
) -> None:
    """A route that changes something and then fails (500): the change is rolled back with the
    request, no answer is kept, and the retry runs the route again."""
    from litestar import Litestar, post
    from litestar.middleware import ASGIMiddleware
    from litestar.types import ASGIApp, Receive, Scope, Send

    from app.principal import SCOPES, Principal
    from db.tables import Organization
    from db.transactions import transaction
    from rest.idempotency import IdempotencyMiddleware
    from rest.problems import EXCEPTION_HANDLERS

    principal = Principal(
        tenant.org_id, tenant.user_id, frozenset(SCOPES), "api_key", tenant.key_id
    )
    name = f"Failing {uuid.uuid4().hex[:6]}"
    runs: list[int] = []

    class Authenticated(ASGIMiddleware):
        async def handle(
            self, scope: Scope, receive: Receive, send: Send, next_app: ASGIApp
        ) -> None:
            scope["user"] = principal
            await next_app(scope, receive, send)

    @post("/fail")
    async def fail() -> None:
        runs.append(1)
        async with transaction():
            await Organization(name=name).save()
        raise RuntimeError("fails after its change")

    app = Litestar(
        [fail],
        middleware=[Authenticated(), IdempotencyMiddleware()],
        exception_handlers=EXCEPTION_HANDLERS,
    )
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url="http://test") as http:
        for attempt in (1, 2):
            response = await http.post("/fail", headers={"Idempotency-Key": "fails"})
            problem(response, 500)
            assert "idempotent-replayed" not in response.headers
            assert len(runs) == attempt
    assert not await Organization.exists().where(Organization.name == name)


async def test_the_document_states_the_key_on_every_authenticated_post_and_patch(
    client: AsyncClient,
) -> None:
    document = ok(await client.get("/schema/openapi.json"))
    covered = 0
    for path, item in document["paths"].items():
        for method, described in item.items():
            names = {parameter["name"] for parameter in described.get("parameters", [])}
            if method in {"post", "patch"} and not path.startswith("/oauth2/"):
                covered += 1
                assert "Idempotency-Key" in names, (method, path)
                responses = described["responses"]
                assert "idempotency-key-in-progress" in responses["409"]["description"]
                assert "idempotency-key-reused" in responses["422"]["description"]
                success = next(status for status in responses if status.startswith("2"))
                assert "Idempotent-Replayed" in responses[success]["headers"]
            else:
                assert "Idempotency-Key" not in names, (method, path)
    assert covered >= 20


async def test_a_repeated_scan_logs_one_attempt_and_one_event(
    client: AsyncClient, tenant: Tenant
) -> None:
    """A door app retrying a scan (``POST /scans``, and the batch) with its key: one scan log
    entry and one ``ticket.scanned`` each, the first result answered again."""
    door = await open_door(client, tenant, tickets=2)
    first_code, second_code = (ticket["scannable_code"] for ticket in door.tickets)
    scan = {"scannable_code": first_code, "scanner_id": door.scanner["id"]}
    batch = {
        "scanner_id": door.scanner["id"],
        "scans": [{"scannable_code": second_code, "nonce": "n1"}],
    }
    for path, body, key in (("/scans", scan, "scan"), ("/scans/batch", batch, "batch")):
        headers = keyed(tenant.headers, key)
        first = await client.post(path, json=body, headers=headers)
        assert first.status_code == 200, first.text
        again = await client.post(path, json=body, headers=headers)
        assert again.headers["idempotent-replayed"] == "true" and again.content == first.content
    assert await Scan.count().where(Scan.organization_id == tenant.org_id) == 2
    assert await events_of(tenant, "ticket.scanned") == 2
