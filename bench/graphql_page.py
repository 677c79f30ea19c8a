"""The GraphQL page of tickets next to the same REST page and the framework's floor, one server.

Seeds a throw-away PostgreSQL database (one event, ``--tickets`` tickets in orders of four),
starts `ticketing serve --workers N`, and measures in one run, phase after phase on the same
server: GET /whoami (framework plus authentication), GET /events/{id}/tickets?limit=25 (the REST
page) and POST /graphql with the page of 25 tickets and their orders
(graphql/operations/TicketPage.graphql), first with N concurrent clients, then with one client (the
single-request latency). The kinds take turns in 2-second slices, so that what else runs on the
machine weighs on each alike. Prints each phase and the GraphQL/REST ratios, then drops the
database.

    .venv/bin/python bench/graphql_page.py --clients 32 --seconds 15 --workers 2

The client runs on the same machine as the server and PostgreSQL, so they share its cores; the
ratios, measured in the same run, are the figures to compare.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import sys
import time
import uuid
from pathlib import Path

import asyncpg
from loadgen import HttpConnection, Phase, Request, run_phase
from scan import ROOT, Seeded, free_port, seed, wait_until_serving

SLICE_SECONDS = 2.0
PAGE_QUERY = (ROOT / "graphql" / "operations" / "TicketPage.graphql").read_text()


async def load(port: int, seeded: Seeded, clients: int, seconds: float) -> list[Phase]:
    rest_page = f"/events/{seeded.event_id}/tickets?limit=25"
    body = json.dumps({"query": PAGE_QUERY, "variables": {"id": seeded.event_id}}).encode()

    async def whoami(connection: HttpConnection) -> bool:
        status, _ = await connection.request("GET", "/whoami")
        return status == 200

    async def rest(connection: HttpConnection) -> bool:
        status, answer = await connection.request("GET", rest_page)
        return status == 200 and len(json.loads(answer)["data"]) == 25

    async def graphql(connection: HttpConnection) -> bool:
        status, answer = await connection.request("POST", "/graphql", body)
        if status != 200:
            return False
        result = json.loads(answer)
        return "errors" not in result and len(result["data"]["event"]["tickets"]["items"]) == 25

    headers = {"Authorization": f"Bearer {seeded.key}"}
    async with contextlib.AsyncExitStack() as stack:
        connections = [
            await stack.enter_async_context(HttpConnection("127.0.0.1", port, headers))
            for _ in range(clients)
        ]
        await run_phase("warm-up", connections, 2.0, graphql)
        loaded = await interleaved(
            [("GET /whoami", whoami), ("REST page", rest), ("GraphQL page", graphql)],
            connections,
            seconds,
        )
        alone = await interleaved(
            [("REST page, 1 client", rest), ("GraphQL page, 1 client", graphql)],
            connections[:1],
            seconds / 2,
        )
    return loaded + alone


async def interleaved(
    requests: list[tuple[str, Request]], connections: list[HttpConnection], seconds: float
) -> list[Phase]:
    """Each request kind for ``seconds`` in all, in slices of ``SLICE_SECONDS`` taking turns, so
    that the load other programs put on the shared machine falls on every kind alike."""
    phases = {name: Phase(name, [], 0, 0.0) for name, _ in requests}
    for _ in range(max(1, round(seconds / SLICE_SECONDS))):
        for name, request in requests:
            done = await run_phase(name, connections, SLICE_SECONDS, request)
            phases[name].latencies += done.latencies
            phases[name].errors += done.errors
            phases[name].seconds += done.seconds
    return list(phases.values())


def ratios(phases: list[Phase]) -> str:
    by_name = {phase.name: phase for phase in phases}

    def rate(name: str) -> float:
        return len(by_name[name].latencies) / by_name[name].seconds

    def median(name: str) -> float:
        ordered = sorted(by_name[name].latencies)
        return ordered[len(ordered) // 2]

    throughput = rate("GraphQL page") / rate("REST page")
    latency = median("GraphQL page, 1 client") / median("REST page, 1 client")
    return (
        f"GraphQL/REST throughput {throughput:.2f}x (goal >= 0.5x); "
        f"single-request p50 latency {latency:.2f}x (goal <= 1.5x)"
    )


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clients", type=int, default=32)
    parser.add_argument("--seconds", type=float, default=15.0)
    parser.add_argument("--tickets", type=int, default=10_000)
    parser.add_argument("--workers", type=int, default=2, help="server processes")
    parser.add_argument(
        "--postgres",
        default=os.environ.get("BENCH_POSTGRES_URL", "postgresql://postgres@127.0.0.1:5432"),
    )
    args = parser.parse_args()
    name = f"ticketing_bench_{uuid.uuid4().hex[:8]}"
    database_url = f"{args.postgres}/{name}"
    os.environ["DATABASE_URL"] = database_url
    os.environ.pop("REDIS_URL", None)
    os.environ["TICKETING_RATE_LIMIT_PER_MINUTE"] = "0"
    sys.path.insert(0, str(ROOT))
    admin = await asyncpg.connect(f"{args.postgres}/postgres")
    await admin.execute(f'CREATE DATABASE "{name}"')
    server: asyncio.subprocess.Process | None = None
    try:
        started = time.perf_counter()
        seeded = await seed(database_url, args.tickets)
        print(f"seeded {args.tickets} tickets in {time.perf_counter() - started:.1f} s")
        port = free_port()
        server = await asyncio.create_subprocess_exec(
            str(Path(sys.executable).parent / "ticketing"), "serve", "--port", str(port),
            "--workers", str(args.workers),
            env=dict(os.environ),
        )  # fmt: skip
        await wait_until_serving(f"http://127.0.0.1:{port}")
        print(
            f"{args.clients} concurrent clients, {args.seconds:.0f} s per phase, "
            f"{args.workers} server process(es)"
        )
        phases = await load(port, seeded, args.clients, args.seconds)
        for phase in phases:
            print(phase.report())
        print(ratios(phases))
    finally:
        if server is not None and server.returncode is None:
            server.terminate()
            await server.wait()
        await admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        await admin.close()


if __name__ == "__main__":
    asyncio.run(main())
