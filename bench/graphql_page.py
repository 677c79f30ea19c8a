"""The GraphQL page of tickets next to the same REST page and the framework's floor, one server.

Seeds a throw-away PostgreSQL database (one event, ``--tickets`` tickets in orders of four),
starts `ticketing serve --workers N` (access log off: its line per request would weigh on every
kind), and measures in one run, phase after phase on the same
server: GET /whoami (framework plus authentication), GET /events/{id}/tickets?limit=25 (the REST
page) and POST /graphql with the page of 25 tickets and their orders
(graphql/operations/TicketPage.graphql), first with N concurrent clients, then with one client (the
single-request latency). The kinds take turns in 2-second slices, so that what else runs on the
machine weighs on each alike. Prints each phase and the GraphQL/REST ratios, then drops the
database.

    .venv/bin/python bench/graphql_page.py --clients 32 --seconds 15 --workers 2

With ``--b-env NAME=VALUE`` (repeatable) a second server runs with those environment variables
set, and its GraphQL page takes turns with the first one's: a same-run A/B of a setting (or of
a temporary switch in the code under test). With ``--b-tree DIR`` the second server runs the
code of another checkout (``git worktree add DIR <commit>``): it is started in that directory
with ``PYTHONPATH`` set to it, since granian puts its working directory first on ``sys.path``
(``PYTHONPATH`` alone would leave both servers on this checkout's code). Server B's ratio to
the first server's page is printed.

The client runs on the same machine as the server and PostgreSQL, so they share its cores; the
ratios, measured in the same run, are the figures to compare.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import time
from pathlib import Path

from loadgen import HttpConnection, Phase, Request, run_phase
from run import free_port, running, server_command
from seeding import ROOT, Seeded, seed, throwaway_database

SLICE_SECONDS = 2.0
PAGE_QUERY = (ROOT / "graphql" / "operations" / "TicketPage.graphql").read_text()


async def load(
    port: int, seeded: Seeded, clients: int, seconds: float, b_port: int | None = None
) -> list[Phase]:
    event_id = str(seeded.events[0].id)
    rest_page = f"/events/{event_id}/tickets?limit=25"
    body = json.dumps({"query": PAGE_QUERY, "variables": {"id": event_id}}).encode()

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
        kinds = [("GET /whoami", whoami), ("REST page", rest), ("GraphQL page", graphql)]
        if b_port is not None:
            b_connections = [
                await stack.enter_async_context(HttpConnection("127.0.0.1", b_port, headers))
                for _ in range(clients)
            ]
            await run_phase("warm-up B", b_connections, 2.0, graphql)
            kinds.append(("GraphQL page (B)", on(b_connections, graphql)))
        loaded = await interleaved(kinds, connections, seconds)
        alone = await interleaved(
            [("REST page, 1 client", rest), ("GraphQL page, 1 client", graphql)],
            connections[:1],
            seconds / 2,
        )
    return loaded + alone


def on(connections: list[HttpConnection], request: Request) -> Request:
    """``request`` sent on the connection of ``connections`` (another server's) that stands at
    the same place as the one it is given."""
    by_place: dict[int, HttpConnection] = {}

    async def sent(connection: HttpConnection) -> bool:
        if id(connection) not in by_place:
            by_place[id(connection)] = connections[len(by_place)]
        return await request(by_place[id(connection)])

    return sent


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
    found = (
        f"GraphQL/REST throughput {throughput:.2f}x (goal >= 0.5x); "
        f"single-request p50 latency {latency:.2f}x (goal <= 1.5x)"
    )
    if "GraphQL page (B)" in by_name:
        b = rate("GraphQL page (B)")
        found += (
            f"\nB/A GraphQL page throughput {b / rate('GraphQL page'):.2f}x; "
            f"B GraphQL/REST {b / rate('REST page'):.2f}x"
        )
    return found


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clients", type=int, default=32)
    parser.add_argument("--seconds", type=float, default=15.0)
    parser.add_argument("--tickets", type=int, default=10_000)
    parser.add_argument("--workers", type=int, default=2, help="server processes")
    parser.add_argument(
        "--b-env",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="also run server B with this environment, its GraphQL page beside A's",
    )
    parser.add_argument(
        "--b-tree",
        type=Path,
        default=None,
        metavar="DIR",
        help="also run server B from this checkout, its GraphQL page beside A's",
    )
    args = parser.parse_args()
    async with throwaway_database() as database_url:
        started = time.perf_counter()
        seeded = await seed(database_url, [args.tickets], keep_codes=False)
        print(f"seeded {args.tickets} tickets in {time.perf_counter() - started:.1f} s")
        port = free_port()
        log = Path(os.environ.get("TMPDIR", "/tmp")) / f"bench-graphql-{port}.log"
        command = server_command("service", port, args.workers)
        async with contextlib.AsyncExitStack() as servers:
            await servers.enter_async_context(running(command, port, log, access_log=False))
            b_port = None
            if args.b_env or args.b_tree is not None:
                b_port = free_port()
                b_log = log.with_name(f"bench-graphql-{b_port}.log")
                b_command = server_command("service", b_port, args.workers)
                environment = dict(setting.split("=", 1) for setting in args.b_env)
                b_tree = args.b_tree.resolve() if args.b_tree is not None else None
                if b_tree is not None:
                    environment["PYTHONPATH"] = str(b_tree)
                await servers.enter_async_context(
                    running(
                        b_command,
                        b_port,
                        b_log,
                        access_log=False,
                        environment=environment,
                        cwd=b_tree,
                    )
                )
                print(f"server B: {' '.join(args.b_env)} {b_tree or ''}".rstrip())
            print(
                f"{args.clients} concurrent clients, {args.seconds:.0f} s per phase, "
                f"{args.workers} server process(es)"
            )
            phases = await load(port, seeded, args.clients, args.seconds, b_port)
            for phase in phases:
                print(phase.report())
            print(ratios(phases))


if __name__ == "__main__":
    asyncio.run(main())
