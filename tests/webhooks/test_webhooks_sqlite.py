"""Webhook delivery on SQLite (``ticketing demo``: the in-process runner, no Redis): the claim and
the record take their SQLite statements, and a delivery arrives signed and is logged."""

from __future__ import annotations

import asyncio
from pathlib import Path

import httpx

from tests.operations.test_demo import running_demo
from tests.support import ok
from tests.webhooks.support import Receiver, verified


async def test_a_test_event_in_the_demo_arrives_signed_and_is_logged(tmp_path: Path) -> None:
    async with (
        running_demo(tmp_path / "demo.sqlite3") as demo,
        httpx.AsyncClient(base_url=demo.base_url, timeout=30) as http,
        Receiver() as receiver,
    ):
        hook = ok(
            await http.post(
                "/webhooks",
                json={"url": receiver.url, "event_types": ["order.confirmed"]},
                headers=demo.headers,
            ),
            201,
        )
        sent = ok(await http.post(f"/webhooks/{hook['id']}/test", headers=demo.headers), 202)
        [received] = await receiver.wait_for(1, within=30)
        assert verified(received, hook["secret"])["event_type"] == "webhook.test"
        deadline = asyncio.get_running_loop().time() + 30
        while True:
            log = ok(await http.get(f"/webhooks/{hook['id']}/deliveries", headers=demo.headers))
            [delivery] = log["data"]
            if delivery["status"] != "pending":
                break
            assert asyncio.get_running_loop().time() < deadline, delivery
            await asyncio.sleep(0.05)
    assert delivery["id"] == sent["delivery_id"]
    assert (delivery["status"], delivery["attempts"]) == ("delivered", 1)
    assert [(a["attempt"], a["status_code"]) for a in delivery["attempt_log"]] == [(1, 200)]
