"""First pages at a million tickets next to the same at ten thousand: the 1M-vs-10k table.

One throw-away database, two events of one organization: 10,000 and 1,000,000 tickets copied in
as confirmed orders of four (``bench/seeding.py``), plus one order of five placed through the API
on each, then ``VACUUM ANALYZE``. Each size is measured on a ``ticketing serve`` process (one)
started for it, with one client, requests one after another; each row of the table is the median
(p50) of ``--repeat`` requests per event, and the ratio of the two. The keyset rows start at the
middle of the list (the ``next_after`` of the middle page) and at its end.

    .venv/bin/python bench/million.py                     # about five minutes, most of it seeding
    .venv/bin/python bench/million.py --small 10000 --large 100000   # a quick look
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
from loadgen import HttpConnection
from run import free_port, running, server_command
from seeding import Seeded, seed, throwaway_database

GRAPHQL = (
    "query($id: ID!) { event(id: $id) { tickets(limit: 25) { items { id status "
    "order { id status } } pagination { total } } } }"
)


async def place_api_order(client: httpx.AsyncClient, seeded: Seeded, index: int) -> None:
    event = seeded.events[index]
    body = {
        "event_id": str(event.id), "event_timeslot_id": str(event.timeslot_id),
        "buyer_name": "API Buyer", "buyer_email": "api@example.com", "channel": "online",
        "payment_method": "card", "tickets": [{"ticket_type_id": str(event.ticket_type_id)}] * 5,
    }  # fmt: skip
    response = await client.post("/orders", json=body)
    if response.status_code != 201:
        raise SystemExit(f"POST /orders: {response.status_code} {response.text}")


async def p50(connection: HttpConnection, request: Callable[[], Any], repeat: int) -> float:
    """The median of ``repeat`` timings of ``request`` (after two unmeasured ones)."""
    timings = []
    for attempt in range(repeat + 2):
        started = time.perf_counter()
        status, body = await request()
        if status != 200:
            raise SystemExit(f"{status}: {body[:300]!r}")
        if attempt >= 2:
            timings.append(time.perf_counter() - started)
    return statistics.median(timings) * 1000


def requests_of(
    connection: HttpConnection, event_id: str, total: int, cursors: dict[str, str]
) -> dict[str, Callable[[], Any]]:
    tickets = f"/events/{event_id}/tickets?limit=25"
    graphql = json.dumps({"query": GRAPHQL, "variables": {"id": event_id}}).encode()
    return {
        "`GET /events/{id}/tickets?limit=25`": lambda: connection.request("GET", tickets),
        "same, `sort=sequence:asc`": lambda: connection.request(
            "GET", tickets + "&sort=sequence:asc"
        ),
        "page in the middle (`offset` = total / 2)": lambda: connection.request(
            "GET", f"{tickets}&offset={total // 2}"
        ),
        "last page (`offset` = total - 25)": lambda: connection.request(
            "GET", f"{tickets}&offset={total - 25}"
        ),
        "page in the middle by `after`": lambda: connection.request(
            "GET", f"{tickets}&after={cursors['middle']}"
        ),
        "last page by `after`": lambda: connection.request(
            "GET", f"{tickets}&after={cursors['last']}"
        ),
        "`GET /orders?event_id=...&limit=25`": lambda: connection.request(
            "GET", f"/orders?event_id={event_id}&limit=25"
        ),
        "GraphQL `event { tickets(limit: 25) { items { id status order { id status } } "
        "pagination { total } } }`": lambda: connection.request("POST", "/graphql", graphql),
    }


async def cursors_of(client: httpx.AsyncClient, event_id: str, total: int) -> dict[str, str]:
    """The ``next_after`` of the page before the middle one and of the one before the last."""
    found = {}
    for name, offset in (("middle", total // 2 - 25), ("last", total - 50)):
        page = (
            await client.get(f"/events/{event_id}/tickets", params={"limit": 25, "offset": offset})
        ).json()
        found[name] = page["pagination"]["next_after"]
    return found


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--small", type=int, default=10_000)
    parser.add_argument("--large", type=int, default=1_000_000)
    parser.add_argument("--repeat", type=int, default=30)
    args = parser.parse_args()
    async with throwaway_database("ticketing_million") as database_url:
        started = time.perf_counter()
        seeded = await seed(database_url, [args.small, args.large], keep_codes=False)
        print(f"seeded {args.small + args.large} tickets in {time.perf_counter() - started:.0f} s")
        headers = {"Authorization": f"Bearer {seeded.key}"}
        results: dict[str, list[float]] = {}
        totals = []
        for index, event in enumerate(seeded.events):
            # Each size on a server started for it: neither inherits the other's warm caches.
            port = free_port()
            log = Path("/tmp") / f"bench-million-{port}.log"
            async with (
                running(server_command("service", port, 1), port, log),
                httpx.AsyncClient(
                    base_url=f"http://127.0.0.1:{port}", headers=headers, timeout=60
                ) as client,
                HttpConnection("127.0.0.1", port, headers) as connection,
            ):
                await place_api_order(client, seeded, index)
                total = event.tickets + 5
                totals.append(total)
                cursors = await cursors_of(client, str(event.id), total)
                for name, request in requests_of(connection, str(event.id), total, cursors).items():
                    results.setdefault(name, []).append(await p50(connection, request, args.repeat))
        print(
            f"\n| request (p50 of {args.repeat}, one client) | {totals[0]:,} | {totals[1]:,} "
            "| ratio |\n|---|---|---|---|"
        )
        for name, (small, large) in results.items():
            print(f"| {name} | {small:.1f} ms | {large:.1f} ms | {large / small:.2f}x |")


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
