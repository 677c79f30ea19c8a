"""Scan throughput and latency next to the framework's floor (GET /whoami), on one server.

Creates a throw-away PostgreSQL database, seeds one event with 100,000 tickets (orders of four,
order scanning on, so every scan also loads its related tickets), starts `ticketing serve`, and
runs N concurrent clients for a fixed time against GET /whoami and then POST /scans (each scan a
different ticket, so every one is an admission: the full write path). Prints requests/s and
p50/p99 latency per phase, then drops the database.

    .venv/bin/python bench/scan.py --clients 32 --seconds 15

The client runs on the same machine as the server and PostgreSQL, so they share its cores.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import time
from collections.abc import Iterator
from pathlib import Path

from loadgen import HttpConnection, Phase, run_phase
from run import free_port, running, server_command
from seeding import Seeded, seed, throwaway_database


async def load(port: int, seeded: Seeded, clients: int, seconds: float) -> list[Phase]:
    codes: Iterator[str] = iter(seeded.events[0].codes)

    async def whoami(connection: HttpConnection) -> bool:
        status, _ = await connection.request("GET", "/whoami")
        return status == 200

    async def scan(connection: HttpConnection) -> bool:
        """Counted only when the ticket was admitted (every code is scanned once)."""
        body = json.dumps({"scannable_code": next(codes), "scanner_id": seeded.scanner_id})
        status, answer = await connection.request("POST", "/scans", body.encode())
        return status == 200 and json.loads(answer)["status"] == "valid"

    headers = {"Authorization": f"Bearer {seeded.key}"}
    async with contextlib.AsyncExitStack() as stack:
        connections = [
            await stack.enter_async_context(HttpConnection("127.0.0.1", port, headers))
            for _ in range(clients)
        ]
        await run_phase("warm-up", connections, 2.0, whoami)
        phases = [
            await run_phase("GET /whoami", connections, seconds, whoami),
            await run_phase("POST /scans", connections, seconds, scan),
        ]
    return phases


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clients", type=int, default=32)
    parser.add_argument("--seconds", type=float, default=15.0)
    parser.add_argument("--tickets", type=int, default=100_000)
    parser.add_argument("--workers", type=int, default=1, help="server processes")
    args = parser.parse_args()
    async with throwaway_database() as database_url:
        started = time.perf_counter()
        seeded = await seed(database_url, [args.tickets])
        print(f"seeded {args.tickets} tickets in {time.perf_counter() - started:.1f} s")
        port = free_port()
        log = Path(os.environ.get("TMPDIR", "/tmp")) / f"bench-scan-{port}.log"
        command = server_command("service", port, args.workers)
        async with running(command, port, log, access_log=False):
            print(
                f"{args.clients} concurrent clients, {args.seconds:.0f} s per phase, "
                f"{args.workers} server process(es)"
            )
            for phase in await load(port, seeded, args.clients, args.seconds):
                print(phase.report())


if __name__ == "__main__":
    asyncio.run(main())
