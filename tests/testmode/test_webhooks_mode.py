"""Test events never reach a live webhook subscription, and live events never reach a test one
(CONTRACT.md section 18): both are delivered for real to receivers on 127.0.0.1 by the
in-process delivery loop, each only to the subscription of its own mode."""

from __future__ import annotations

import json

from httpx import AsyncClient

from tests.support import Tenant, create_venue, place_order
from tests.testmode.support import in_test_mode
from tests.webhooks.support import Receiver, in_process_runner, subscribe


async def test_each_mode_delivers_only_to_its_own_subscriptions(
    client: AsyncClient, tenant: Tenant
) -> None:
    test = await in_test_mode(tenant)
    async with Receiver() as live_hooks, Receiver() as test_hooks, in_process_runner():
        await subscribe(client, tenant, live_hooks.url, ["order.confirmed"])
        await subscribe(client, test, test_hooks.url, ["order.confirmed"])
        orders = {}
        for owner, name in ((test, "test"), (tenant, "live")):
            venue = await create_venue(client, owner)
            orders[name] = await place_order(
                client, owner, venue.event["id"], venue.timeslot["id"],
                [venue.ticket_type["id"]], confirm=True,
            )  # fmt: skip
        [to_live] = await live_hooks.wait_for(1)
        [to_test] = await test_hooks.wait_for(1)
    assert json.loads(to_live.body)["data"]["order_id"] == orders["live"]["id"]
    assert json.loads(to_test.body)["data"]["order_id"] == orders["test"]["id"]
    assert len(live_hooks.requests) == len(test_hooks.requests) == 1
