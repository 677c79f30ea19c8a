"""Idempotency keys on SQLite (``ticketing demo``): every transaction takes the database's write
lock when it begins, so requests with one key run one after the other and the later ones replay."""

from __future__ import annotations

import asyncio
import uuid
from pathlib import Path

import httpx

from tests.idempotency.test_idempotency import keyed, order_body
from tests.operations.test_demo import running_demo
from tests.support import create_venue, ok, problem


async def test_keys_on_sqlite_replay_refuse_reuse_and_run_once(tmp_path: Path) -> None:
    async with (
        running_demo(tmp_path / "demo.sqlite3") as demo,
        httpx.AsyncClient(base_url=demo.base_url, timeout=30) as http,
    ):
        venue = await create_venue(http, demo)  # type: ignore[arg-type]
        headers = keyed(demo.headers, f"sqlite-{uuid.uuid4()}")
        responses = await asyncio.gather(
            *(http.post("/orders", json=order_body(venue), headers=headers) for _ in range(5))
        )
        assert {r.status_code for r in responses} <= {201, 409}, [r.text for r in responses]
        fresh = [
            r for r in responses if r.status_code == 201 and "idempotent-replayed" not in r.headers
        ]
        assert len(fresh) == 1
        again = await http.post("/orders", json=order_body(venue), headers=headers)
        assert again.headers["idempotent-replayed"] == "true"
        assert again.content == fresh[0].content
        other = await http.post("/orders", json=order_body(venue, "Bob"), headers=headers)
        assert problem(other, 422)["type"] == "/problems/idempotency-key-reused"
        bad = await http.post("/orders", json=order_body(venue), headers=keyed(demo.headers, "a b"))
        problem(bad, 400)
        page = ok(
            await http.get("/orders", params={"event_id": venue.event["id"]}, headers=demo.headers)
        )
        assert page["pagination"]["total"] == 1
