"""The service next to its floor, in one run: requests/s of each and the ratio.

Creates a throw-away PostgreSQL database, seeds two events (orders of four, order scanning on: the
page reads the first, ``--tickets``; the scans admit the second's, ``--scan-tickets``, each once),
starts the reference floor (``bench/floor.py``: bare Litestar + asyncpg, one indexed key lookup)
and ``ticketing serve`` with the same number of processes on the same server (granian, uvloop),
and loads each in turn with the same clients:

- floor ``GET /key``: hash the bearer key, read its row by the unique index (the reference);
- ``GET /whoami``: the service's authentication and one read;
- ``GET /events/{id}/tickets?limit=25``: a page of 25 tickets with its exact total;
- ``POST /scans``: every scan a different ticket, so each is a full admission;
- floor ``POST /write/{counter}``: the least an admission needs (key lookup, one conditional
  ``UPDATE ... RETURNING`` of a counter of capacity 1, one ``INSERT``, one transaction), each
  request a different counter; ``POST /scans`` is also given as a ratio to it;
- floor ``GET /hello`` (the framework alone).

Each request kind runs for ``--seconds`` in all (default 12), in ``--rounds`` slices (default 3,
so 4 s each) taken in turns (floor, service, ..., floor, service, ...), so that a change in the
machine's load during the run weighs on both alike and each ratio compares figures taken seconds
apart. The load comes from the lean client in
``bench/loadgen.py`` and, when ``wrk`` is installed, from wrk too (GET requests). With ``--cpu``
it also prints the CPU each request kind used per request, in the server's processes and in the
PostgreSQL backends of the bench's database (from ``/proc``), to tell which side a gap is on. With
``--memory N`` the service then answers N more requests and the resident memory of its processes
is printed before and after.

    .venv/bin/python bench/run.py                  # 32 clients, 2 processes each
    .venv/bin/python bench/run.py --memory 100000  # then the memory check
    .venv/bin/python bench/run.py --cpu            # and the CPU of each request, where it went

Everything shares the machine's cores: servers, PostgreSQL and the load generator.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import re
import shutil
import signal
import socket
import sys
import time
import uuid
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass, field
from pathlib import Path

import asyncpg
import httpx
from floor import FLOOR_TABLES
from loadgen import HttpConnection, Phase, Request, run_phase
from seeding import Seeded, seed, throwaway_database

BENCH = Path(__file__).resolve().parent
FLOOR = "floor GET /key"
ADMISSION_FLOOR = "floor POST /write (admission)"
SCANS = "POST /scans"


@dataclass
class Figure:
    name: str
    rate: float
    p50_ms: float
    p99_ms: float
    errors: int


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def server_command(which: str, port: int, workers: int) -> list[str]:
    """The command that serves the floor or the service (``ticketing serve``); the floor runs on
    the same server as the service (``bench/floor.py``)."""
    python = sys.executable
    if which == "floor":
        return [python, str(BENCH / "floor.py"), "--port", str(port), "--workers", str(workers)]
    ticketing = str(Path(python).parent / "ticketing")
    return [ticketing, "serve", "--port", str(port), "--workers", str(workers)]


@contextlib.asynccontextmanager
async def running(
    command: list[str],
    port: int,
    log: Path,
    *,
    access_log: bool = True,
    environment: dict[str, str] | None = None,
    cwd: Path | None = None,
) -> AsyncIterator[int]:
    """Run a server until the block ends; yields its process id once it answers. Without
    ``access_log`` the service logs no line per request (``TICKETING_ACCESS_LOG=0``): for benches
    that compare request kinds of the service with each other rather than with the floor.
    ``environment``: more variables for the server (an A/B of a setting); ``cwd``: its working
    directory (the server imports the project from there first: another checkout, for an A/B)."""
    env = {**os.environ, **(environment or {})}
    if not access_log:
        env["TICKETING_ACCESS_LOG"] = "0"
    with log.open("wb") as output:
        process = await asyncio.create_subprocess_exec(
            *command, env=env, stdout=output, stderr=output, start_new_session=True, cwd=cwd
        )
        try:
            await wait_until_serving(f"http://127.0.0.1:{port}", process)
            yield process.pid
        finally:
            if process.returncode is None:
                process.send_signal(signal.SIGTERM)
                try:
                    await asyncio.wait_for(process.wait(), 30)
                except TimeoutError:
                    process.kill()
                    await process.wait()


async def wait_until_serving(base_url: str, process: asyncio.subprocess.Process) -> None:
    deadline = time.monotonic() + 60.0
    async with httpx.AsyncClient(base_url=base_url, timeout=2.0) as client:
        while time.monotonic() < deadline:
            if process.returncode is not None:
                raise SystemExit(f"the server at {base_url} exited with {process.returncode}")
            try:
                await client.get("/hello")
                return
            except httpx.TransportError:
                await asyncio.sleep(0.2)
    raise SystemExit(f"{base_url} did not start")


def figure(phase: Phase) -> Figure:
    ordered = sorted(phase.latencies) or [0.0]
    return Figure(
        phase.name,
        len(phase.latencies) / phase.seconds,
        ordered[len(ordered) // 2] * 1000,
        ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))] * 1000,
        phase.errors,
    )


async def load(
    target: Target,
    port: int,
    key: str,
    clients: int,
    seconds: float,
    cpu: CpuMeter | None = None,
) -> Phase:
    """One slice of ``target`` after a short warm-up; ``cpu`` (when given) counts the CPU the
    slice itself used."""
    headers = {"Authorization": f"Bearer {key}"}
    async with contextlib.AsyncExitStack() as stack:
        connections = [
            await stack.enter_async_context(HttpConnection("127.0.0.1", port, headers))
            for _ in range(clients)
        ]
        await run_phase("warm-up", connections, min(1.0, seconds / 4), target.request)
        if cpu is None:
            return await run_phase(target.name, connections, seconds, target.request)
        async with cpu.counting(target):
            phase = await run_phase(target.name, connections, seconds, target.request)
        cpu.requests[target.name] = cpu.requests.get(target.name, 0) + len(phase.latencies)
        return phase


TICKS = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pid: int) -> float:
    """User and system CPU seconds of one process so far (0 when it has gone)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except FileNotFoundError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / TICKS


def process_tree(pid: int) -> list[int]:
    found = [pid]
    for task in Path(f"/proc/{pid}/task").iterdir():
        for child in (task / "children").read_text().split():
            found += process_tree(int(child))
    return found


@dataclass
class CpuMeter:
    """CPU per request of each target, split into the server's processes and the PostgreSQL
    backends of the bench's database (read from ``/proc``: same machine only)."""

    database_url: str
    servers: dict[str, int]
    """The process id of each role's server."""
    used: dict[str, tuple[float, float]] = field(default_factory=dict)
    requests: dict[str, int] = field(default_factory=dict)

    async def backends(self) -> set[int]:
        connection = await asyncpg.connect(self.database_url)
        try:
            rows = await connection.fetch(
                "SELECT pid FROM pg_stat_activity "
                "WHERE datname = current_database() AND pid <> pg_backend_pid()"
            )
        finally:
            await connection.close()
        return {row["pid"] for row in rows}

    @contextlib.asynccontextmanager
    async def counting(self, target: Target) -> AsyncIterator[None]:
        server = process_tree(self.servers[target.role])
        backends = await self.backends()
        before = sum(map(cpu_seconds, server)), {pid: cpu_seconds(pid) for pid in backends}
        yield
        after_backends = backends | await self.backends()
        database = sum(cpu_seconds(pid) - before[1].get(pid, 0.0) for pid in after_backends)
        server_used = sum(map(cpu_seconds, server)) - before[0]
        old = self.used.get(target.name, (0.0, 0.0))
        self.used[target.name] = (old[0] + server_used, old[1] + database)

    def report(self) -> None:
        print("\nCPU per request (ms): the server's processes, PostgreSQL's backends of the bench")
        for name, (server, database) in self.used.items():
            count = max(1, self.requests.get(name, 0))
            print(
                f"{name:<34} server {1000 * server / count:6.2f}  PostgreSQL "
                f"{1000 * database / count:6.2f}  both {1000 * (server + database) / count:6.2f}"
            )


def get(path: str) -> Request:
    async def request(connection: HttpConnection) -> bool:
        status, _ = await connection.request("GET", path)
        return status == 200

    return request


def scans(seeded: Seeded, codes: Iterator[str]) -> Request:
    """Scans of unscanned tickets, each code once (``codes`` may be shared by targets)."""

    async def request(connection: HttpConnection) -> bool:
        body = json.dumps({"scannable_code": next(codes), "scanner_id": seeded.scanner_id})
        status, answer = await connection.request("POST", "/scans", body.encode())
        return status == 200 and json.loads(answer)["status"] == "valid"

    return request


WRK_RATE = re.compile(r"Requests/sec:\s+([\d.]+)")
WRK_LATENCY = re.compile(r"^\s+(50|99)%\s+([\d.]+)(us|ms|s)\s*$", re.MULTILINE)
UNITS = {"us": 0.001, "ms": 1.0, "s": 1000.0}


async def wrk(target: Target, port: int, key: str, clients: int, seconds: float) -> Figure:
    command = [
        "wrk", "-t1", f"-c{clients}", f"-d{max(1, round(seconds))}s", "--latency",
        "-H", f"Authorization: Bearer {key}", f"http://127.0.0.1:{port}{target.path}",
    ]  # fmt: skip
    process = await asyncio.create_subprocess_exec(*command, stdout=asyncio.subprocess.PIPE)
    output = (await process.communicate())[0].decode()
    latency = {p: float(v) * UNITS[u] for p, v, u in WRK_LATENCY.findall(output)}
    errors = re.search(r"Non-2xx or 3xx responses: (\d+)", output)
    rate = WRK_RATE.search(output)
    return Figure(
        target.name,
        float(rate.group(1)) if rate else 0.0,
        latency.get("50", 0.0),
        latency.get("99", 0.0),
        int(errors.group(1)) if errors else 0,
    )


def memory_of(pid: int) -> dict[int, tuple[int, int]]:
    """(current, peak) resident KiB of the server's worker processes (children of ``pid``), or
    of ``pid`` itself when it has none."""
    children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
    found = {}
    for process in [int(child) for child in children] or [pid]:
        status = Path(f"/proc/{process}/status").read_text()
        lines = status.splitlines()
        values = dict(line.split(":", 1) for line in lines if line.startswith(("VmRSS", "VmHWM")))
        found[process] = (int(values["VmRSS"].split()[0]), int(values["VmHWM"].split()[0]))
    return found


def print_figures(title: str, figures: list[Figure]) -> None:
    """Each figure with its ratio to the floor's key lookup (the first figure)."""
    floor = figures[0].rate
    print(f"\n{title}")
    print(f"{'request':<34} {'req/s':>8} {'p50 ms':>8} {'p99 ms':>8} {'errors':>7} {'x floor':>8}")
    for f in figures:
        print(
            f"{f.name:<34} {f.rate:8.0f} {f.p50_ms:8.1f} {f.p99_ms:8.1f} {f.errors:7d}"
            f" {f.rate / floor:8.2f}"
        )


@dataclass
class Target:
    name: str
    role: str
    """``floor`` or ``service``: which server answers."""
    request: Request
    path: str | None = None
    """For wrk (GET requests only)."""


FLOOR_COUNTERS_PER_TICKET = 2


def admissions(counters: Iterator[uuid.UUID]) -> Request:
    """The floor's admissions, each of a different counter of capacity 1."""

    async def request(connection: HttpConnection) -> bool:
        status, _ = await connection.request("POST", f"/write/{next(counters)}", b"")
        return status == 201

    return request


async def floor_counters(database_url: str, count: int) -> list[uuid.UUID]:
    """``count`` counters of capacity 1 for the floor's admissions (its tables made here first,
    as the floor makes them at start-up)."""
    ids = [uuid.uuid4() for _ in range(count)]
    connection = await asyncpg.connect(database_url)
    try:
        for statement in FLOOR_TABLES:
            await connection.execute(statement)
        await connection.copy_records_to_table(
            "floor_counters", records=[(i, 0, 1) for i in ids], columns=["id", "used", "capacity"]
        )
    finally:
        await connection.close()
    return ids


def targets_of(seeded: Seeded, codes: Iterator[str], counters: Iterator[uuid.UUID]) -> list[Target]:
    """What the bench asks of the floor and of the service, in this order."""
    page = f"/events/{seeded.events[0].id}/tickets?limit=25"
    return [
        Target(FLOOR, "floor", get("/key"), "/key"),
        Target("GET /whoami", "service", get("/whoami"), "/whoami"),
        Target("GET tickets?limit=25", "service", get(page), page),
        Target(ADMISSION_FLOOR, "floor", admissions(counters)),
        Target(SCANS, "service", scans(seeded, codes)),
        Target("floor GET /hello", "floor", get("/hello")),
    ]


@dataclass
class Servers:
    """The floor and the service, running."""

    ports: dict[str, int]
    service_pid: int
    pids: dict[str, int]


@contextlib.asynccontextmanager
async def servers(workers: int) -> AsyncIterator[Servers]:
    logs = Path(os.environ.get("TMPDIR", "/tmp"))
    ports = {"floor": free_port(), "service": free_port()}
    async with contextlib.AsyncExitStack() as running_servers:
        pids = {
            role: await running_servers.enter_async_context(
                running(
                    server_command(role, port, workers), port, logs / f"bench-{role}-{port}.log"
                )
            )
            for role, port in ports.items()
        }
        yield Servers(ports, pids["service"], pids)


def merge(name: str, phases: list[Phase]) -> Figure:
    return figure(
        Phase(
            name,
            [latency for phase in phases for latency in phase.latencies],
            sum(phase.errors for phase in phases),
            sum(phase.seconds for phase in phases),
        )
    )


async def measure(
    args: argparse.Namespace, targets: list[Target], key: str
) -> tuple[list[Figure], list[Figure]]:
    """Every target for ``args.seconds`` in ``args.rounds`` interleaved slices, so that a change
    of the machine's load during the run weighs on all alike. Returns the lean client's figures
    and wrk's."""
    phases: dict[str, list[Phase]] = {}
    by_wrk: dict[str, list[Figure]] = {}
    slice_seconds = args.seconds / args.rounds
    use_wrk = shutil.which("wrk") is not None
    async with servers(args.workers) as running_servers:
        cpu = CpuMeter(os.environ["DATABASE_URL"], running_servers.pids) if args.cpu else None
        for _ in range(args.rounds):
            for target in targets:
                port = running_servers.ports[target.role]
                phase = await load(target, port, key, args.clients, slice_seconds, cpu)
                phases.setdefault(target.name, []).append(phase)
            for target in targets if use_wrk else []:
                if target.path:
                    port = running_servers.ports[target.role]
                    found = await wrk(target, port, key, args.clients, slice_seconds)
                    by_wrk.setdefault("wrk: " + target.name, []).append(found)
        lean = [merge(name, found) for name, found in phases.items()]
        wrk_figures = [
            Figure(
                name,
                sum(f.rate for f in found) / len(found),
                sum(f.p50_ms for f in found) / len(found),
                max(f.p99_ms for f in found),
                sum(f.errors for f in found),
            )
            for name, found in by_wrk.items()
        ]
        if cpu is not None:
            cpu.report()
        pid = running_servers.service_pid
        if args.memory:
            page = targets[2].path or ""
            await memory_run(args, key, page, running_servers.ports["service"], pid)
        else:
            print("\nservice: resident KiB per process (now, peak):", memory_of(pid))
    return lean, wrk_figures


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clients", type=int, default=32)
    parser.add_argument("--seconds", type=float, default=12.0, help="per request kind")
    parser.add_argument("--rounds", type=int, default=3, help="interleaved slices of each")
    parser.add_argument("--tickets", type=int, default=20_000, help="of the paged event")
    parser.add_argument(
        "--scan-tickets", type=int, default=60_000, help="of the scanned event: one per scan"
    )
    parser.add_argument("--workers", type=int, default=2, help="server processes of each")
    parser.add_argument("--memory", type=int, default=0, help="then N more requests; RSS")
    parser.add_argument(
        "--cpu", action="store_true", help="CPU per request: server processes and PostgreSQL"
    )
    args = parser.parse_args()
    async with throwaway_database() as database_url:
        started = time.perf_counter()
        seeded = await seed(database_url, [args.tickets, args.scan_tickets])
        print(
            f"seeded {args.tickets} + {args.scan_tickets} tickets"
            f" in {time.perf_counter() - started:.1f} s"
        )
        print(
            f"{args.clients} clients, {args.seconds:.0f} s a kind in {args.rounds} slices, "
            f"{args.workers} process(es) each"
        )
        # The floor admits two to three times as fast as the service: it needs more counters
        # than the service has tickets, or a quiet machine runs it out within its slices.
        counters = await floor_counters(database_url, FLOOR_COUNTERS_PER_TICKET * args.scan_tickets)
        targets = targets_of(seeded, iter(seeded.events[1].codes), iter(counters))
        lean, wrk_figures = await measure(args, targets, seeded.key)
        print_figures("lean client (bench/loadgen.py)", lean)
        rates = {figure.name: figure.rate for figure in lean}
        print(
            f"\n{SCANS} x {ADMISSION_FLOOR}: {rates[SCANS] / rates[ADMISSION_FLOOR]:.2f}"
            f" ({rates[SCANS]:.0f} / {rates[ADMISSION_FLOOR]:.0f} per second)"
        )
        if wrk_figures:
            print_figures("wrk -t1 (GET only)", wrk_figures)


async def memory_run(args: argparse.Namespace, key: str, page: str, port: int, pid: int) -> None:
    """``args.memory`` more requests (whoami and ticket pages, alternating); the service's
    resident memory before and after them."""
    sent = 0

    async def request(connection: HttpConnection) -> bool:
        nonlocal sent
        sent += 1
        status, _ = await connection.request("GET", "/whoami" if sent % 2 else page)
        return status == 200

    headers = {"Authorization": f"Bearer {key}"}
    before = memory_of(pid)
    async with contextlib.AsyncExitStack() as stack:
        connections = [
            await stack.enter_async_context(HttpConnection("127.0.0.1", port, headers))
            for _ in range(args.clients)
        ]
        while sent < args.memory:
            await run_phase("memory", connections, 5.0, request)
    print("\nservice: resident KiB per process (now, peak), after the measured load:", before)
    print(f"the same after {sent} more requests:", memory_of(pid))


async def main_until_stopped() -> None:
    """``main``, cancelled by SIGTERM or SIGINT so that the servers and the database go too."""
    task = asyncio.ensure_future(main())
    for signum in (signal.SIGTERM, signal.SIGINT):
        asyncio.get_running_loop().add_signal_handler(signum, task.cancel)
    with contextlib.suppress(asyncio.CancelledError):
        await task


if __name__ == "__main__":
    asyncio.run(main_until_stopped())
