"""The reference topology's capacity figures (docs/deployment.md): on this 2-core machine the point
is the overhead of the extra hops and the absence of errors, not scaling.

Starts deploy/local's topology in a directory of its own, seeds one event with ``--tickets``
tickets (orders of four, order scanning on), then, for ``GET /whoami``, a 25-ticket page and
``POST /scans`` (each scan a fresh ticket: a full admission), in interleaved slices:

1. **The pooler and the statement cache**, each node asked directly: serve-1 on a direct
   connection with asyncpg's statement cache (100), serve-2 direct without it (0), serve-3
   through PgBouncer in transaction mode without it (the topology's setting). The ratios say
   what the cache is worth and what the pooler's hop costs.
2. **Through the load balancer against three nodes and against one** (the other two disabled in
   HAProxy), every node as the topology runs it.

    .venv/bin/python bench/topology.py [--clients 16 --seconds 4 --rounds 3 --tickets 40000]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import socket
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

from loadgen import HttpConnection, Phase, Request, run_phase
from seeding import ROOT, Seeded, seed

sys.path.insert(0, str(ROOT))

from deploy.local.topology import Topology, down, up

SETTINGS = {"TICKETING_RATE_LIMIT_PER_MINUTE": "0", "TICKETING_ACCESS_LOG": "0"}


def get(path: str) -> Request:
    async def request(connection: HttpConnection) -> bool:
        status, _ = await connection.request("GET", path)
        return status == 200

    return request


def scans(seeded: Seeded, codes: Iterator[str]) -> Request:
    async def request(connection: HttpConnection) -> bool:
        body = json.dumps({"scannable_code": next(codes), "scanner_id": seeded.scanner_id})
        status, answer = await connection.request("POST", "/scans", body.encode())
        return status == 200 and json.loads(answer)["status"] == "valid"

    return request


async def slice_of(
    name: str, url: str, key: str, clients: int, seconds: float, request: Request
) -> Phase:
    host, port = url.removeprefix("http://").rsplit(":", 1)
    headers = {"Authorization": f"Bearer {key}"}
    async with contextlib.AsyncExitStack() as stack:
        connections = [
            await stack.enter_async_context(HttpConnection(host, int(port), headers))
            for _ in range(clients)
        ]
        await run_phase("warm-up", connections, 0.5, request)
        return await run_phase(name, connections, seconds, request)


def merged(name: str, phases: list[Phase]) -> Phase:
    return Phase(
        name,
        [latency for phase in phases for latency in phase.latencies],
        sum(phase.errors for phase in phases),
        sum(phase.seconds for phase in phases),
    )


def how_nodes_serve(topology: Topology) -> str:
    """What each serve node's log says it runs on (its last "listening on" line: processes,
    server and loop), so that the figures name the server they were measured on."""
    said = []
    for node in topology.serve:
        log = (topology.root / "logs" / f"{node.name}.log").read_text(errors="replace")
        lines = [line for line in log.splitlines() if "listening on" in line]
        said.append(f"{node.name} {lines[-1].rsplit('(', 1)[-1].rstrip(')') if lines else '?'}")
    return "; ".join(said)


def rate(phase: Phase) -> float:
    return len(phase.latencies) / phase.seconds


def haproxy(topology: Topology, command: str) -> None:
    with socket.socket(socket.AF_UNIX) as admin:
        admin.connect(topology.stats_socket)
        admin.sendall(command.encode() + b"\n")
        admin.recv(4096)


def only_serve_1(topology: Topology, alone: bool) -> None:
    """Take serve-2 and serve-3 out of the load balancer (or put them back)."""
    verb = "disable" if alone else "enable"
    for backend in ("ready", "live"):
        for name in ("serve-2", "serve-3"):
            haproxy(topology, f"{verb} server {backend}/{name}")


async def compare(
    title: str,
    configurations: dict[str, tuple[str, object]],
    kinds: dict[str, Request],
    args: argparse.Namespace,
    key: str,
) -> None:
    """Interleaved slices of every configuration per kind; rates, latencies, ratios to the
    first configuration."""
    print(f"\n{title}  (load average {os.getloadavg()[0]:.1f})")
    for kind, request in kinds.items():
        slices: dict[str, list[Phase]] = {name: [] for name in configurations}
        for _ in range(args.rounds):
            for name, (url, prepare) in configurations.items():
                if callable(prepare):
                    prepare()
                slices[name].append(
                    await slice_of(name, url, key, args.clients, args.seconds, request)
                )
        first = None
        for name, phases in slices.items():
            whole = merged(f"{kind}: {name}", phases)
            per_slice = ", ".join(f"{rate(p):.0f}" for p in phases)
            ratio = "" if first is None else f"   {rate(whole) / first:.2f}x of the first"
            first = first or rate(whole)
            print(f"  {whole.report()}   slices {per_slice}{ratio}")


async def bench(args: argparse.Namespace, directory: Path) -> None:
    started = time.monotonic()
    topology = await asyncio.to_thread(up, directory, SETTINGS)
    print(f"topology up in {time.monotonic() - started:.0f} s: {topology.lb_url}")
    print(f"nodes: {how_nodes_serve(topology)}")
    os.environ["DATABASE_URL"] = topology.listen_url
    seeded = await seed(topology.listen_url, [args.tickets])
    event = seeded.events[0]
    codes = iter(event.codes)
    kinds = {
        "GET /whoami": get("/whoami"),
        "GET tickets?limit=25": get(f"/events/{event.id}/tickets?limit=25"),
        "POST /scans": scans(seeded, codes),
    }
    direct = {"DATABASE_URL": topology.listen_url}
    await asyncio.to_thread(
        topology.restart,
        "serve-1",
        {**direct, "TICKETING_DATABASE_STATEMENT_CACHE_SIZE": "100"},
    )
    await asyncio.to_thread(topology.restart, "serve-2", direct)
    node = {n.name: f"http://{n.address}:{n.port}" for n in topology.serve}
    await compare(
        "1. Each node asked directly",
        {
            "direct, statement cache 100": (node["serve-1"], None),
            "direct, statement cache 0": (node["serve-2"], None),
            "PgBouncer, statement cache 0": (node["serve-3"], None),
        },
        kinds,
        args,
        seeded.key,
    )
    await asyncio.to_thread(topology.restart, "serve-1")
    await asyncio.to_thread(topology.restart, "serve-2")
    await asyncio.sleep(3)  # the load balancer's checks see both back (rise 2, every second)
    await compare(
        "2. Through the load balancer",
        {
            "three nodes": (topology.lb_url, lambda: only_serve_1(topology, False)),
            "one node": (topology.lb_url, lambda: only_serve_1(topology, True)),
        },
        kinds,
        args,
        seeded.key,
    )
    only_serve_1(topology, False)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clients", type=int, default=16)
    parser.add_argument("--seconds", type=float, default=4.0, help="length of one slice")
    parser.add_argument("--rounds", type=int, default=3, help="slices per configuration")
    parser.add_argument("--tickets", type=int, default=40_000)
    args = parser.parse_args()
    directory = Path(tempfile.mkdtemp(prefix="ticketing-bench-topology-"))
    try:
        asyncio.run(bench(args, directory))
    finally:
        with contextlib.suppress(Exception):
            down(directory)


if __name__ == "__main__":
    main()
