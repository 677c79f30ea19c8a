"""Offline and batch scanning on SQLite (the demo's engine): the set-based statements of
``db/scans.py`` have a SQLite form (``VALUES`` rows and ``IN`` lists), exercised here against a
running demo and its seeded tickets."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import httpx

from tests.operations.test_demo import running_demo
from tests.support import ok, problem


def stamp(moment: datetime) -> str:
    return moment.astimezone(UTC).isoformat().replace("+00:00", "Z")


async def valid_tickets(client: httpx.AsyncClient) -> list[dict[str, Any]]:
    """Unscanned tickets of the demo's event of today (its timeslot is open now)."""
    events = ok(await client.get("/events", params={"sort": "starts_at:asc"}))["data"]
    today = events[1]
    page = ok(
        await client.get(f"/events/{today['id']}/tickets", params={"status": "valid", "limit": 100})
    )
    orders = {
        order["id"]: order["status"]
        for order in ok(await client.get("/orders", params={"event_id": today["id"]}))["data"]
    }
    return [t for t in page["data"] if orders.get(t["order_id"]) == "confirmed"]


async def test_batches_and_nonces_on_sqlite(tmp_path: Path) -> None:
    async with (
        running_demo(tmp_path / "demo.sqlite3") as demo,
        httpx.AsyncClient(base_url=demo.base_url, headers=demo.headers, timeout=30) as client,
    ):
        tickets = await valid_tickets(client)
        assert len(tickets) >= 3, tickets
        first, second, third = tickets[:3]
        earlier = stamp(datetime.now(UTC) - timedelta(minutes=2))
        scans = [
            {"ticket_id": first["id"], "nonce": "a"},
            {"scannable_code": first["scannable_code"], "nonce": "b", "scanned_at": earlier},
            {"scannable_code": second["scannable_code"], "nonce": "c"},
            {"ticket_id": str(uuid.uuid4()), "nonce": "d"},
            {"ticket_id": second["id"], "nonce": "c"},
        ]
        response = await client.post("/scans/batch", json={"scans": scans})
        results = ok(response)["results"]
        assert [r["status"] for r in results] == [
            "scanned", "valid", "valid", "not_found", "valid",
        ]  # fmt: skip
        assert results[0]["scanned_at"] == results[1]["scanned_at"] == earlier
        assert results[4] == {**results[2], "nonce": "c"}
        assert ok(await client.post("/scans/batch", json={"scans": scans}))["results"] == results
        single = ok(await client.post(f"/tickets/{third['id']}/scan", json={"nonce": "e"}))
        assert single["status"] == "valid"
        assert ok(await client.post("/scans", json={
            "scannable_code": third["scannable_code"], "nonce": "e",
        })) == single  # fmt: skip
        log = ok(await client.get(f"/tickets/{first['id']}/scans", params={"limit": 100}))
        assert sorted((entry["nonce"], entry["status"]) for entry in log["data"]) == [
            ("a", "scanned"), ("b", "valid"),
        ]  # fmt: skip
        bad = [*scans[:2], {"ticket_id": third["id"], "nonce": "f", "scanned_at": "soon"}]
        rejected = problem(await client.post("/scans/batch", json={"scans": bad}), 400)
        assert [e["field"] for e in rejected["errors"]] == ["scans[2].scanned_at"]
