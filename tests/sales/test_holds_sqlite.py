"""Holds on SQLite (``ticketing demo``): the same steps as on PostgreSQL, as statements in one
write transaction each."""

from __future__ import annotations

import asyncio
from pathlib import Path

import httpx

from tests.operations.test_demo import running_demo
from tests.sales.onsale import hold_body
from tests.sales.test_holds import BUYER
from tests.support import create_venue, ok, problem


async def test_holds_orders_and_availability_on_sqlite(tmp_path: Path) -> None:
    async with (
        running_demo(tmp_path / "demo.sqlite3") as demo,
        httpx.AsyncClient(base_url=demo.base_url, headers=demo.headers, timeout=30) as http,
    ):
        venue = await create_venue(http, demo, capacity=6)  # type: ignore[arg-type]
        answers = await asyncio.gather(
            *(http.post("/holds", json=hold_body(venue, 2)) for _ in range(5))
        )
        assert sorted(r.status_code for r in answers) == [201, 201, 201, 409, 409]
        held = [r.json() for r in answers if r.status_code == 201]
        refused = [r for r in answers if r.status_code == 409]
        assert problem(refused[0], 409)["type"] == "/problems/sold-out"
        order = ok(await http.post("/orders", json={**BUYER, "hold_id": held[0]["id"]}), 201)
        assert order["event_timeslot_id"] == venue.timeslot["id"]
        released = ok(await http.delete(f"/holds/{held[1]['id']}"))
        assert released["status"] == "released"
        assert ok(await http.get(f"/holds/{held[2]['id']}"))["status"] == "active"
        figures = ok(await http.get(f"/events/{venue.event['id']}/availability"))["data"][0]
        assert (figures["sold"], figures["held"], figures["available"]) == (2, 2, 2)
