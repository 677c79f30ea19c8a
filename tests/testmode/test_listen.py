"""``ticketing listen`` and ``ticketing trigger`` (CONTRACT.md section 18) against a real
``ticketing serve`` with private webhook targets refused and no subscription at all: a test
key's events, and only those, reach a handler on 127.0.0.1, in order, signed per Standard
Webhooks with a secret that stays the same for the key; a restart of the service loses none."""

from __future__ import annotations

import asyncio
import json
import os
import re
import tempfile
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import pytest
from httpx import AsyncClient

from tests.harness import free_port
from tests.processes import TICKETING, RunningProcess, served, stop, ticketing
from tests.support import Tenant, create_venue, ok, place_order
from tests.testmode.support import in_test_mode
from tests.webhooks.support import Receiver, verified
from ticketing.devkit import listen_secret

pytestmark = pytest.mark.slow
STRICT = {"TICKETING_ALLOW_PRIVATE_WEBHOOKS": "0"}


@asynccontextmanager
async def listening(
    api_url: str, key: str, forward_to: str, *args: str
) -> AsyncIterator[RunningProcess]:
    """``ticketing listen`` running in the background until the block ends."""
    with tempfile.TemporaryFile() as output:
        process = await asyncio.create_subprocess_exec(
            TICKETING, "listen", "--forward-to", forward_to, "--api-url", api_url, *args,
            env={**os.environ, **STRICT, "TICKETING_API_KEY": key}, stdout=output, stderr=output,
        )  # fmt: skip
        running = RunningProcess(process, output)
        try:
            yield running
        finally:
            await stop(process)
            running.final = running.log()


def kinds_of(receiver: Receiver) -> list[str]:
    return [json.loads(request.body)["event_type"] for request in receiver.requests]


async def test_listen_forwards_the_test_keys_events_signed_in_order_across_a_restart(
    client: AsyncClient, tenant: Tenant
) -> None:
    test = await in_test_mode(tenant)
    port = free_port()
    async with (
        Receiver() as receiver,
        served(port=port, **STRICT) as server,
        listening(server.url, test.key, receiver.url) as listener,
    ):
        await listener.wait_for_log("Ready: listening")
        secret = re.search(r"Signing secret: (whsec_\S+)", listener.log())
        assert secret and secret.group(1) == listen_secret(test.key)
        triggered = await ticketing(
            "trigger", "order.confirmed", "--api-url", server.url, TICKETING_API_KEY=test.key
        )
        assert triggered.code == 0, triggered.stderr
        made = json.loads(triggered.stdout)
        venue = await create_venue(client, tenant)  # live: never forwarded
        await place_order(
            client, tenant, venue.event["id"], venue.timeslot["id"],
            [venue.ticket_type["id"]], confirm=True,
        )  # fmt: skip
        await receiver.wait_for(2)
        assert kinds_of(receiver) == ["order.created", "order.confirmed"]
        for request in receiver.requests:
            payload = verified(request, secret.group(1))
            assert payload["data"]["order_id"] == made["order_id"]
        await listener.wait_for_log(f"order.confirmed {payload['id']} -> 200")

        await stop(server.process)  # the service restarts; meanwhile a test order
        await listener.wait_for_log("reconnecting")
        meanwhile = await create_venue(client, test)
        order = await place_order(
            client, test, meanwhile.event["id"], meanwhile.timeslot["id"],
            [meanwhile.ticket_type["id"]],
        )  # fmt: skip
        async with served(port=port, **STRICT):
            await receiver.wait_for(3)
            assert json.loads(receiver.requests[2].body)["data"]["order_id"] == order["id"]
            ok(await client.post(f"/orders/{order['id']}/confirm", headers=test.headers))
            await receiver.wait_for(4)
    assert kinds_of(receiver) == ["order.created", "order.confirmed"] * 2
    assert len({request.headers["webhook-id"] for request in receiver.requests}) == 4
    assert tenant.key not in listener.final


async def test_trigger_refuses_a_live_key_and_makes_each_event_with_a_test_key(
    tenant: Tenant,
) -> None:
    test = await in_test_mode(tenant)
    async with Receiver() as receiver, served(**STRICT) as server:
        refused = await ticketing(
            "trigger", "order.created", "--api-url", server.url, TICKETING_API_KEY=tenant.key
        )
        assert refused.code != 0 and "test key" in refused.stderr
        async with listening(
            server.url, test.key, receiver.url, "--events", "ticket.scanned,ticket.cancelled"
        ) as listener:
            await listener.wait_for_log("Ready: listening")
            for kind in ("ticket.scanned", "ticket.cancelled"):
                done = await ticketing(
                    "trigger", kind, "--api-url", server.url, TICKETING_API_KEY=test.key
                )
                assert done.code == 0, done.stderr
                assert json.loads(done.stdout)["ticket_id"]
            await receiver.wait_for(2)
    assert kinds_of(receiver) == ["ticket.scanned", "ticket.cancelled"]
