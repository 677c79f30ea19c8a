"""What a subscriber can do to a subscription (CONTRACT.md section 14): edit it, send a test event,
retry a delivery, rotate the secret. Over REST through the in-process runner (the demo's mode),
with real receivers on 127.0.0.1 and the stock Standard Webhooks verifier; the same operations
through GraphQL and the arq worker are in tests/webhooks/test_webhooks_worker.py."""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import AsyncIterator
from dataclasses import replace
from datetime import UTC, datetime, timedelta

import pytest
from httpx import AsyncClient
from standardwebhooks.webhooks import Webhook as StockVerifier
from standardwebhooks.webhooks import WebhookVerificationError

from app.settings import get_settings
from db.tables import WebhookDelivery
from tests.conftest import AppClient
from tests.statements import count_statements
from tests.support import (
    Tenant,
    gql_data,
    gql_error_codes,
    graphql,
    key_for,
    ok,
    operation,
    problem,
)
from tests.webhooks.support import (
    Operations,
    Receiver,
    emit,
    in_process_runner,
    relay_refs,
    settled_log,
    snake,
    subscribe,
    verified,
)


@pytest.fixture
async def runner(database: None) -> AsyncIterator[None]:
    async with in_process_runner():
        yield


@pytest.fixture
def rest(client: AsyncClient, tenant: Tenant) -> Operations:
    return Operations(client, tenant, "rest")


async def test_edit_changes_only_the_fields_sent(
    client: AsyncClient, tenant: Tenant, rest: Operations
) -> None:
    hook = await subscribe(client, tenant, "http://127.0.0.1:9/a", ["order.created"])
    record = {key: value for key, value in hook.items() if key != "secret"}
    assert await rest.update(hook["id"]) == record
    edited = await rest.update(
        hook["id"],
        url="http://127.0.0.1:9/b",
        event_types=["ticket.scanned", "order.created", "ticket.scanned"],
        description="Door sync",
    )
    assert edited == {
        **record,
        "url": "http://127.0.0.1:9/b",
        "event_types": ["ticket.scanned", "order.created"],
        "description": "Door sync",
    }
    assert ok(await client.get(f"/webhooks/{hook['id']}", headers=tenant.headers)) == edited
    assert (await rest.update(hook["id"], active=False))["active"] is False


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"url": ""}, "url"),
        ({"url": "ftp://hooks.example.com/x"}, "url"),
        ({"url": "https://user:pass@hooks.example.com/x"}, "url"),
        ({"event_types": []}, "event_types"),
        ({"event_types": ["order.shipped"]}, "event_types"),
        ({"event_types": ["webhook.test"]}, "event_types"),
        ({"description": "x" * 256}, "description"),
        ({"active": "yes"}, "active"),
        ({"secret": "mine"}, "secret"),
    ],
)
async def test_bad_edits_are_400_naming_the_field(
    client: AsyncClient, tenant: Tenant, body: dict, field: str
) -> None:
    hook = await subscribe(client, tenant, "http://127.0.0.1:9/a")
    result = problem(
        await client.patch(f"/webhooks/{hook['id']}", json=body, headers=tenant.headers), 400
    )
    assert field in result["detail"]


async def test_edit_checks_a_new_url_as_creation_does(
    app_client: AppClient, client: AsyncClient, tenant: Tenant
) -> None:
    hook = await subscribe(client, tenant, "http://127.0.0.1:9/a")
    async with app_client(allow_private_webhooks=False, redis_url="redis://unused") as strict:
        for url in ("https://127.0.0.1/hook", "https://[::ffff:10.0.0.1]/hook"):
            body = problem(
                await strict.patch(
                    f"/webhooks/{hook['id']}", json={"url": url}, headers=tenant.headers
                ),
                400,
            )
            assert body["errors"][0]["field"] == "url"
        public = "https://93.184.215.14/hook"
        edited = ok(
            await strict.patch(
                f"/webhooks/{hook['id']}", json={"url": public}, headers=tenant.headers
            )
        )
    assert edited["url"] == public


async def test_operations_need_webhooks_write_and_hide_other_organizations(
    client: AsyncClient, tenant: Tenant, other_tenant: Tenant
) -> None:
    hook = await subscribe(client, tenant, "http://127.0.0.1:9/a")
    await emit(tenant, "order.created")
    [delivery] = await _relayed_log(client, tenant, hook["id"])
    base = f"/webhooks/{hook['id']}"
    calls = [
        ("PATCH", base, {"description": "x"}),
        ("POST", f"{base}/test", None),
        ("POST", f"{base}/deliveries/{delivery['id']}/retry", None),
        ("POST", f"{base}/rotate-secret", None),
    ]
    reader = await key_for(tenant, ["webhooks.read"])
    for method, path, body in calls:
        denied = await client.request(method, path, json=body, headers=reader)
        problem(denied, 403)
        assert 'scope="webhooks.write"' in denied.headers["www-authenticate"]
        problem(await client.request(method, path, json=body, headers=other_tenant.headers), 404)
        problem(await client.request(method, path, json=body), 401)
    problem(await client.patch("/webhooks/not-a-uuid", json={}, headers=tenant.headers), 400)
    problem(await client.post(f"{base}/deliveries/not-a-uuid/retry", headers=tenant.headers), 400)
    problem(
        await client.post(f"{base}/deliveries/{uuid.uuid4()}/retry", headers=tenant.headers), 404
    )
    other_hook = await subscribe(client, other_tenant, "http://127.0.0.1:9/b")
    problem(
        await client.post(
            f"/webhooks/{other_hook['id']}/deliveries/{delivery['id']}/retry",
            headers=other_tenant.headers,
        ),
        404,
    )


async def _relayed_log(client: AsyncClient, tenant: Tenant, hook_id: str) -> list[dict]:
    await relay_refs(tenant)
    return ok(await client.get(f"/webhooks/{hook_id}/deliveries", headers=tenant.headers))["data"]


async def test_a_test_event_goes_to_that_subscription_only_signed(
    client: AsyncClient, tenant: Tenant, rest: Operations, runner: None
) -> None:
    async with Receiver() as target, Receiver() as bystander:
        hook = await subscribe(client, tenant, target.url, ["ticket.cancelled"])
        await subscribe(client, tenant, bystander.url)
        delivery_id = await rest.test(hook["id"])
        [received] = await target.wait_for(1)
        [delivery] = await settled_log(client, tenant, hook["id"])
    payload = verified(received, hook["secret"])
    assert set(payload) == {"id", "event_type", "timestamp", "data"}
    assert payload["event_type"] == "webhook.test"
    assert payload["data"] == {"webhook_id": hook["id"]}
    assert payload["timestamp"].endswith("Z")
    assert received.headers["webhook-id"] == payload["id"]
    assert bystander.requests == []
    assert delivery["id"] == delivery_id
    assert delivery["event_id"] == payload["id"]
    assert delivery["event_type"] == "webhook.test"
    assert delivery["status"] == "delivered"


async def test_a_disabled_subscription_gets_no_test_and_no_retry_until_re_enabled(
    client: AsyncClient, tenant: Tenant, rest: Operations, runner: None
) -> None:
    async with Receiver(statuses=[410]) as receiver:
        hook = await subscribe(client, tenant, receiver.url, ["order.created"])
        await emit(tenant, "order.created")
        [gone] = await settled_log(client, tenant, hook["id"])
        assert (
            ok(await client.get(f"/webhooks/{hook['id']}", headers=tenant.headers))["active"]
            is False
        )
        base = f"/webhooks/{hook['id']}"
        problem(await client.post(f"{base}/test", headers=tenant.headers), 409)
        problem(
            await client.post(f"{base}/deliveries/{gone['id']}/retry", headers=tenant.headers),
            409,
        )

        assert (await rest.update(hook["id"], active=True))["active"] is True
        await emit(tenant, "order.created")
        await rest.retry(hook["id"], gone["id"])
        log = await settled_log(client, tenant, hook["id"], count=2)
    assert {d["status"] for d in log} == {"delivered"}
    assert len(receiver.requests) == 3
    retried = next(d for d in log if d["id"] == gone["id"])
    assert [a["status_code"] for a in retried["attempt_log"]] == [410, 200]


async def test_retry_makes_a_new_attempt_of_a_failed_delivery_with_the_same_webhook_id(
    client: AsyncClient, tenant: Tenant, rest: Operations, runner: None
) -> None:
    async with Receiver(statuses=[400]) as receiver:
        hook = await subscribe(client, tenant, receiver.url, ["order.created"])
        event_id = await emit(tenant, "order.created")
        [failed] = await settled_log(client, tenant, hook["id"])
        assert failed["status"] == "failed"
        assert await rest.retry(hook["id"], failed["id"]) == failed["id"]
        received = await receiver.wait_for(2)
        [retried] = await settled_log(client, tenant, hook["id"])
    assert [r.headers["webhook-id"] for r in received] == [str(event_id)] * 2
    assert verified(received[1], hook["secret"])["id"] == str(event_id)
    assert retried["status"] == "delivered"
    assert retried["attempts"] == 2
    assert [(a["attempt"], a["status_code"]) for a in retried["attempt_log"]] == [
        (1, 400),
        (2, 200),
    ]


async def test_retry_gives_an_exhausted_delivery_one_more_attempt(
    client: AsyncClient, tenant: Tenant, rest: Operations
) -> None:
    settings = replace(get_settings(), webhook_max_attempts=2, webhook_retry_base_seconds=0)
    async with Receiver(statuses=[503, 503, 503]) as receiver, in_process_runner(settings):
        hook = await subscribe(client, tenant, receiver.url, ["order.created"])
        await emit(tenant, "order.created")
        [exhausted] = await settled_log(client, tenant, hook["id"])
        assert exhausted["status"] == "exhausted"
        await rest.retry(hook["id"], exhausted["id"])
        await receiver.wait_for(3)
        [again] = await settled_log(client, tenant, hook["id"])
        assert again["status"] == "exhausted"
        assert [a["status_code"] for a in again["attempt_log"]] == [503, 503, 503]
        await rest.retry(hook["id"], exhausted["id"])
        await receiver.wait_for(4)
        [delivered] = await settled_log(client, tenant, hook["id"])
    assert delivered["status"] == "delivered"
    assert [a["status_code"] for a in delivered["attempt_log"]] == [503, 503, 503, 200]


async def test_retry_of_a_delivery_whose_attempt_is_in_flight_is_a_conflict(
    client: AsyncClient, tenant: Tenant
) -> None:
    hook = await subscribe(client, tenant, "http://127.0.0.1:9/a", ["order.created"])
    await emit(tenant, "order.created")
    [delivery] = await _relayed_log(client, tenant, hook["id"])
    path = f"/webhooks/{hook['id']}/deliveries/{delivery['id']}/retry"
    started = datetime.now(UTC)
    await WebhookDelivery.update({WebhookDelivery.attempt_started_at: started}).where(
        WebhookDelivery.id == uuid.UUID(delivery["id"])
    )
    body = problem(await client.post(path, headers=tenant.headers), 409)
    assert "in flight" in body["detail"]
    # An attempt that outlived its lease was cut short: it no longer blocks a retry.
    await WebhookDelivery.update(
        {WebhookDelivery.attempt_started_at: started - timedelta(minutes=1)}
    ).where(WebhookDelivery.id == uuid.UUID(delivery["id"]))
    ok(await client.post(path, headers=tenant.headers), 202)


async def test_rotation_signs_with_both_secrets_for_a_day_new_first(
    client: AsyncClient, tenant: Tenant, rest: Operations, runner: None
) -> None:
    async with Receiver() as receiver:
        hook = await subscribe(client, tenant, receiver.url, ["order.created"])
        rotated = await rest.rotate(hook["id"])
        order_id = uuid.uuid4()
        await emit(tenant, "order.created", order_id=order_id)
        [received] = await receiver.wait_for(1)
    old, new = hook["secret"], rotated["secret"]
    assert new.startswith("whsec_") and new != old
    assert {
        k: v for k, v in rotated.items() if k not in {"secret", "previous_secret_expires_at"}
    } == {k: v for k, v in hook.items() if k != "secret"}
    expires = datetime.fromisoformat(rotated["previous_secret_expires_at"])
    assert timedelta(hours=23, minutes=59) < expires - datetime.now(UTC) <= timedelta(hours=24)
    first, second = received.headers["webhook-signature"].split(" ")
    assert verified(received, new) == verified(received, old)
    for signature, secret, other in ((first, new, old), (second, old, new)):
        alone = {**received.headers, "webhook-signature": signature}
        data = StockVerifier(secret).verify(received.body, alone)["data"]
        assert data["order_id"] == str(order_id)
        with pytest.raises(WebhookVerificationError):
            StockVerifier(other).verify(received.body, alone)
    listed = ok(await client.get(f"/webhooks/{hook['id']}", headers=tenant.headers))
    assert "secret" not in listed and "previous_secret_expires_at" not in listed


async def test_a_rotated_out_secret_stops_signing_when_it_expires(
    client: AsyncClient, tenant: Tenant, rest: Operations, runner: None
) -> None:
    from db.tables import Webhook as WebhookTable

    async with Receiver() as receiver:
        hook = await subscribe(client, tenant, receiver.url, ["order.created"])
        rotated = await rest.rotate(hook["id"])
        await WebhookTable.update(
            {WebhookTable.previous_secret_expires_at: datetime.now(UTC) - timedelta(seconds=1)}
        ).where(WebhookTable.id == uuid.UUID(hook["id"]))
        await emit(tenant, "order.created")
        [received] = await receiver.wait_for(1)
    assert " " not in received.headers["webhook-signature"]
    verified(received, rotated["secret"])
    with pytest.raises(WebhookVerificationError):
        verified(received, hook["secret"])


async def test_rotating_twice_keeps_only_the_last_two_secrets(
    client: AsyncClient, tenant: Tenant, rest: Operations, runner: None
) -> None:
    async with Receiver() as receiver:
        hook = await subscribe(client, tenant, receiver.url, ["order.created"])
        second = await rest.rotate(hook["id"])
        third = await rest.rotate(hook["id"])
        await emit(tenant, "order.created")
        [received] = await receiver.wait_for(1)
    assert len(received.headers["webhook-signature"].split(" ")) == 2
    verified(received, third["secret"])
    verified(received, second["secret"])
    with pytest.raises(WebhookVerificationError):
        verified(received, hook["secret"])


async def test_concurrent_rotations_keep_a_secret_that_was_shown(
    client: AsyncClient, tenant: Tenant
) -> None:
    from db.tables import Webhook as WebhookTable

    hook = await subscribe(client, tenant, "http://127.0.0.1:9/a")
    path = f"/webhooks/{hook['id']}/rotate-secret"
    answers = await asyncio.gather(*(client.post(path, headers=tenant.headers) for _ in range(4)))
    assert {answer.status_code for answer in answers} <= {200, 409}
    shown = {answer.json()["secret"] for answer in answers if answer.status_code == 200}
    stored = (
        await WebhookTable.select(WebhookTable.secret, WebhookTable.previous_secret)
        .where(WebhookTable.id == uuid.UUID(hook["id"]))
        .first()
    )
    assert stored["secret"] in shown
    assert stored["previous_secret"] in shown | {hook["secret"]}


async def test_graphql_lists_each_subscriptions_deliveries_with_attempts_in_fixed_statements(
    client: AsyncClient, tenant: Tenant
) -> None:
    hooks = [await subscribe(client, tenant, f"http://127.0.0.1:9/{n}") for n in range(3)]
    query = operation("WebhooksWithDeliveryLogs")

    async def statements() -> tuple[int, dict]:
        with count_statements() as counter:
            data = gql_data(await graphql(client, tenant.headers, query))
        return counter.count, data

    await emit(tenant, "order.created")
    await relay_refs(tenant)
    await statements()  # the credential's first use records when it was used
    one, _ = await statements()
    for _ in range(4):
        await emit(tenant, "ticket.scanned")
    await relay_refs(tenant)
    many, data = await statements()
    assert many == one
    items = data["webhooks"]["items"]
    assert [item["id"] for item in items] == [hook["id"] for hook in hooks]
    for item in items:
        rest = await Operations(client, tenant, "rest").deliveries(item["id"])
        assert item["deliveries"]["pagination"]["total"] == 5
        assert snake(item["deliveries"]["items"]) == rest


async def test_graphql_operations_answer_with_the_rest_errors(
    client: AsyncClient, tenant: Tenant, other_tenant: Tenant
) -> None:
    hook = await subscribe(client, tenant, "http://127.0.0.1:9/a", ["order.created"])
    update = operation("UpdateWebhook")
    bad = await graphql(
        client, tenant.headers, update, {"input": {"id": hook["id"], "url": "ftp://x/y"}}
    )
    assert gql_error_codes(bad) == ["BAD_USER_INPUT"]
    assert "url" in str(bad["errors"])
    elsewhere = await graphql(
        client, other_tenant.headers, update, {"input": {"id": hook["id"], "description": "x"}}
    )
    assert gql_error_codes(elsewhere) == ["NOT_FOUND"]
    missing = await graphql(
        client,
        tenant.headers,
        operation("RetryWebhookDelivery"),
        {"webhookId": hook["id"], "deliveryId": str(uuid.uuid4())},
    )
    assert gql_error_codes(missing) == ["NOT_FOUND"]
    await graphql(client, tenant.headers, update, {"input": {"id": hook["id"], "active": False}})
    disabled = await graphql(client, tenant.headers, operation("TestWebhook"), {"id": hook["id"]})
    assert gql_error_codes(disabled) == ["CONFLICT"]
    reader = await key_for(tenant, ["webhooks.read"])
    denied = await graphql(client, reader, operation("RotateWebhookSecret"), {"id": hook["id"]})
    assert gql_error_codes(denied) == ["FORBIDDEN"]
