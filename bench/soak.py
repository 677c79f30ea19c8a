"""Soak: mixed traffic for a long while against two `ticketing serve` processes and one worker.

Creates a throw-away PostgreSQL database, seeds one event (bench/scan.py's seed: tickets in
orders of four, a scanner, a key), adds a timeslot for new orders and a webhook subscription to a
local receiver (bench/webhooks.py's), starts two servers (one process each, on their own ports)
and a worker, and runs paced clients (bench/loadgen.py) for `--minutes`: reads (event list,
a page of tickets, a page of orders, /whoami), orders placed and confirmed, and scans of fresh
tickets, spread over both servers. Every `--window` seconds it prints, per endpoint, requests,
errors and p99, with each process's memory and the outbox backlog; at the end the memory at the
start, half-way and at the end, the webhooks received, and the totals.

A process's memory is the resident memory (RSS) of it and every process under it: granian's
supervisor serves nothing itself, its workers are child processes (a worker that died and was
replaced shows as a changed set of process ids).

    .venv/bin/python bench/soak.py --minutes 10

Everything shares the machine's cores: servers, worker, PostgreSQL, Redis and the load.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import signal
import sys
import time
import uuid
from collections import defaultdict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path

import asyncpg
import httpx
from loadgen import HttpConnection
from run import free_port, wait_until_serving
from seeding import seed
from webhooks import POSTGRES, REDIS_URL, Receiver, admin

ROOT = Path(__file__).resolve().parent.parent
TICKETING = str(ROOT / ".venv/bin/ticketing")
MIX = {"read": 0.5, "order": 0.2, "scan": 0.3}
SUBSCRIBED = ["order.created", "ticket.scanned"]


@dataclass
class Window:
    latencies: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))
    errors: dict[str, int] = field(default_factory=lambda: defaultdict(int))


@dataclass
class Totals:
    requests: dict[str, int] = field(default_factory=lambda: defaultdict(int))
    errors: dict[str, int] = field(default_factory=lambda: defaultdict(int))
    latencies: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))


def process_tree(pid: int) -> list[int]:
    """``pid`` and every process under it (children, their children, ...), as Linux lists them;
    a process that ended meanwhile is left out."""
    found, waiting = [], [pid]
    while waiting:
        current = waiting.pop()
        found.append(current)
        try:
            tasks = list(Path(f"/proc/{current}/task").iterdir())
        except OSError:
            continue
        for task in tasks:
            with contextlib.suppress(OSError):  # the task ended meanwhile
                waiting.extend(int(child) for child in (task / "children").read_text().split())
    return found


@dataclass(frozen=True)
class Memory:
    """The resident memory of a process and of every process under it."""

    mib: float
    pids: frozenset[int]

    def __str__(self) -> str:
        return f"{self.mib:.0f}"


def memory_of(pid: int) -> Memory:
    total, pids = 0, set()
    for process in process_tree(pid):
        try:
            status = Path(f"/proc/{process}/status").read_text()
        except OSError:
            continue
        for line in status.splitlines():
            if line.startswith("VmRSS:"):
                total += int(line.split()[1])
                pids.add(process)
    return Memory(total / 1024, frozenset(pids))


def p99(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))] * 1000 if ordered else 0.0


class Traffic:
    """The requests of the mix; each returns (endpoint name, whether the answer was right)."""

    def __init__(self, event_id: str, timeslot_id: str, type_id: str, codes: list[str]) -> None:
        self.event_id, self.timeslot_id, self.type_id = event_id, timeslot_id, type_id
        self.codes = iter(codes)

    async def read(self, connection: HttpConnection) -> tuple[str, bool]:
        name, path = random.choice(
            [
                ("GET /events", "/events?limit=25"),
                ("GET /events/{id}/tickets", f"/events/{self.event_id}/tickets?limit=25"),
                ("GET /orders", "/orders?limit=25"),
                ("GET /whoami", "/whoami"),
            ]
        )
        status, _ = await connection.request("GET", path)
        return name, status == 200

    async def order(self, connection: HttpConnection) -> tuple[str, bool]:
        body = {
            "event_id": self.event_id,
            "event_timeslot_id": self.timeslot_id,
            "buyer_name": "Soak Buyer",
            "buyer_email": "soak@example.com",
            "channel": "online",
            "payment_method": "card",
            "tickets": [{"ticket_type_id": self.type_id}],
        }
        status, answer = await connection.request("POST", "/orders", json.dumps(body).encode())
        if status != 201:
            return "POST /orders (+ confirm)", False
        order_id = json.loads(answer)["id"]
        status, _ = await connection.request("POST", f"/orders/{order_id}/confirm")
        return "POST /orders (+ confirm)", status == 200

    async def scan(self, connection: HttpConnection) -> tuple[str, bool]:
        body = json.dumps({"scannable_code": next(self.codes)}).encode()
        status, answer = await connection.request("POST", "/scans", body)
        return "POST /scans", status == 200 and json.loads(answer)["status"] == "valid"


async def client_loop(
    port: int,
    key: str,
    traffic: Traffic,
    rate: float,
    deadline: float,
    record: Callable[[str, bool, float], None],
) -> None:
    """One paced client: a request of the mix every 1/rate seconds on a keep-alive connection
    (opened again after a failure)."""
    kinds: list[Callable[[HttpConnection], Awaitable[tuple[str, bool]]]] = [
        traffic.read,
        traffic.order,
        traffic.scan,
    ]
    weights = [MIX["read"], MIX["order"], MIX["scan"]]
    headers = {"Authorization": f"Bearer {key}"}
    while time.monotonic() < deadline:
        try:
            async with HttpConnection("127.0.0.1", port, headers) as connection:
                while time.monotonic() < deadline:
                    tick = time.monotonic()
                    request = random.choices(kinds, weights)[0]
                    name, good = await request(connection)
                    record(name, good, time.monotonic() - tick)
                    await asyncio.sleep(max(0.0, 1 / rate - (time.monotonic() - tick)))
        except (OSError, asyncio.IncompleteReadError, ValueError):
            record("connection", False, 0.0)
            await asyncio.sleep(0.5)


async def prepare(base_url: str, key: str, hook_url: str) -> tuple[str, str, str]:
    """A timeslot with room for the orders of the soak, and the webhook subscription."""
    headers = {"Authorization": f"Bearer {key}"}
    async with httpx.AsyncClient(base_url=base_url, headers=headers, timeout=30) as api:
        event = (await api.get("/events")).json()["data"][0]
        type_id = (await api.get(f"/events/{event['id']}/ticket_types")).json()["data"][0]["id"]
        timeslot = await api.post(
            f"/events/{event['id']}/timeslots",
            json={
                "title": "Soak",
                "starts_at": event["starts_at"],
                "ends_at": "2099-01-01T00:00:00Z",
                "total_available": 1_000_000,
                "ticket_type_ids": [type_id],
            },
        )
        assert timeslot.status_code == 201, timeslot.text
        hook = await api.post(
            "/webhooks",
            json={"url": hook_url, "event_types": SUBSCRIBED},
        )
        assert hook.status_code == 201, hook.text
    return event["id"], timeslot.json()["id"], type_id


async def outbox_backlog(database_url: str) -> tuple[int, float]:
    connection = await asyncpg.connect(database_url)
    try:
        row = await connection.fetchrow(
            "SELECT count(*) AS rows, coalesce(extract(epoch FROM now() - min(created_at)), 0) "
            "AS age FROM outbox_events WHERE relayed_at IS NULL"
        )
        return int(row["rows"]), float(row["age"])
    finally:
        await connection.close()


async def soak(args: argparse.Namespace, database_url: str) -> None:
    tickets = int(args.rate * args.minutes * 60 * MIX["scan"] * 1.5) + 1000
    seeded = await seed(database_url, [tickets])
    print(f"seeded {tickets} tickets")
    receiver = Receiver()
    hook_port = await receiver.start()
    env = {
        **os.environ,
        "REDIS_URL": REDIS_URL,
        "TICKETING_RATE_LIMIT_PER_MINUTE": "0",
        "TICKETING_ALLOW_PRIVATE_WEBHOOKS": "1",
    }
    logs = Path(args.logs)
    ports = [free_port(), free_port()]
    processes: dict[str, asyncio.subprocess.Process] = {}
    try:
        for index, port in enumerate(ports):
            log = (logs / f"serve{index + 1}.log").open("wb")
            processes[f"serve {index + 1}"] = await asyncio.create_subprocess_exec(
                TICKETING, "serve", "--port", str(port), env=env,
                stdout=log, stderr=asyncio.subprocess.STDOUT,
            )  # fmt: skip
        processes["worker"] = await asyncio.create_subprocess_exec(
            TICKETING, "worker", env=env,
            stdout=(logs / "worker.log").open("wb"), stderr=asyncio.subprocess.STDOUT,
        )  # fmt: skip
        for port, name in zip(ports, processes, strict=False):
            await wait_until_serving(f"http://127.0.0.1:{port}", processes[name])
        event_id, timeslot_id, type_id = await prepare(
            f"http://127.0.0.1:{ports[0]}", seeded.key, f"http://127.0.0.1:{hook_port}/hook"
        )
        traffic = Traffic(event_id, timeslot_id, type_id, seeded.events[0].codes)
        memory_start = {name: memory_of(p.pid) for name, p in processes.items()}
        memory_half: dict[str, Memory] = {}
        totals, window = Totals(), Window()

        def record(name: str, good: bool, seconds: float) -> None:
            totals.requests[name] += 1
            if good:
                window.latencies[name].append(seconds)
                totals.latencies[name].append(seconds)
            else:
                window.errors[name] += 1
                totals.errors[name] += 1

        deadline = time.monotonic() + args.minutes * 60
        per_client = args.rate / args.clients
        clients = [
            asyncio.create_task(
                client_loop(ports[i % 2], seeded.key, traffic, per_client, deadline, record)
            )
            for i in range(args.clients)
        ]
        started = time.monotonic()
        print(
            f"{args.clients} paced clients, {args.rate:g} req/s in all, {args.minutes:g} min "
            f"(load average {os.getloadavg()[0]:.1f})"
        )
        while not all(client.done() for client in clients):
            await asyncio.wait(clients, timeout=args.window)
            done, window = window, Window()
            try:
                backlog, age = await outbox_backlog(database_url)
            except (OSError, asyncpg.PostgresError):
                backlog, age = -1, 0.0  # not readable now (PostgreSQL full): shown as -1
            sample = {name: memory_of(p.pid) for name, p in processes.items()}
            if not memory_half and time.monotonic() - started >= args.minutes * 30:
                memory_half = sample
            memory = " ".join(f"{name} {sample[name]}" for name in processes)
            p99s = " | ".join(
                f"{name} {p99(values):.0f}" for name, values in sorted(done.latencies.items())
            )
            print(
                f"t={time.monotonic() - started:4.0f}s p99 ms: {p99s} | errors "
                f"{sum(done.errors.values())} | RSS MiB {memory} | outbox {backlog} ({age:.1f} s)"
                f" | load {os.getloadavg()[0]:.1f}"
            )
        await asyncio.gather(*clients)
        loaded_for, load_at_end = time.monotonic() - started, os.getloadavg()[0]
        memory_end = {name: memory_of(p.pid) for name, p in processes.items()}
        memory_half = memory_half or memory_start
        settled_at = time.monotonic()
        events, delivered = await _settled(database_url, within=300)
        settle_seconds = time.monotonic() - settled_at
        backlog, _ = await outbox_backlog(database_url)
        print(
            f"\n{sum(totals.requests.values())} requests in {loaded_for:.0f} s; "
            f"load average at the end {load_at_end:.1f}"
        )
        print("\nendpoint                   requests  errors  p50 ms  p99 ms")
        for name in sorted(totals.requests):
            ordered = sorted(totals.latencies[name]) or [0.0]
            print(
                f"{name:<26} {totals.requests[name]:8d} {totals.errors[name]:7d} "
                f"{ordered[len(ordered) // 2] * 1000:7.1f} {p99(ordered):7.1f}"
            )
        print(
            "\nprocess (and those under it)  RSS MiB at start  half-way  at end"
            "  last half  processes"
        )
        for name in processes:
            start, half, end = memory_start[name], memory_half[name], memory_end[name]
            replaced = "" if start.pids == end.pids else ", ids changed (one was replaced)"
            print(
                f"{name:<29} {start.mib:16.0f} {half.mib:9.0f} {end.mib:7.0f} "
                f"{end.mib - half.mib:+10.1f}  {len(end.pids)}{replaced}"
            )
        print(
            f"\nevents for the subscription: {events}; deliveries delivered: {delivered}; "
            f"received: {receiver.requests} ({len(receiver.arrivals)} distinct), all settled "
            f"{settle_seconds:.0f} s after the load; outbox backlog then: {backlog} rows"
        )
        for name in processes:
            path = logs / f"{name.replace(' ', '')}.log"
            text = path.read_text(errors="replace")
            print(
                f"{path.name}: {text.count('Traceback')} tracebacks, {text.count(' ERROR ')} ERROR"
            )
    finally:
        for process in processes.values():
            if process.returncode is None:
                process.send_signal(signal.SIGTERM)
        for process in processes.values():
            await process.wait()


async def _settled(database_url: str, within: int) -> tuple[int, int]:
    """Wait (polling once a second, at most ``within`` s) until the outbox is relayed and no
    delivery is pending; then (events of the subscribed types, deliveries delivered)."""
    connection = await asyncpg.connect(database_url)
    try:
        for _ in range(within):
            waiting = await connection.fetchval(
                "SELECT (SELECT count(*) FROM outbox_events WHERE relayed_at IS NULL)"
                " + (SELECT count(*) FROM webhook_deliveries WHERE status = 'pending')"
            )
            if not waiting:
                break
            await asyncio.sleep(1)
        events = await connection.fetchval(
            "SELECT count(*) FROM outbox_events WHERE event_type = ANY($1)", SUBSCRIBED
        )
        delivered = await connection.fetchval(
            "SELECT count(*) FROM webhook_deliveries WHERE status = 'delivered'"
        )
        return int(events), int(delivered)
    finally:
        await connection.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--minutes", type=float, default=10)
    parser.add_argument("--rate", type=float, default=100, help="requests/s over all clients")
    parser.add_argument("--clients", type=int, default=16)
    parser.add_argument("--window", type=float, default=60, help="seconds per report line")
    parser.add_argument("--logs", default="/tmp/ticketing-soak", help="where process logs go")
    args = parser.parse_args()
    database = f"ticketing_soak_{uuid.uuid4().hex[:8]}"
    database_url = f"{POSTGRES}/{database}"
    os.environ["DATABASE_URL"] = database_url
    os.environ["TICKETING_QUEUE_NAME"] = database
    os.environ.pop("REDIS_URL", None)
    sys.path.insert(0, str(ROOT))
    Path(args.logs).mkdir(parents=True, exist_ok=True)
    asyncio.run(admin(f'CREATE DATABASE "{database}"'))
    try:
        asyncio.run(soak(args, database_url))
    finally:
        asyncio.run(admin(f'DROP DATABASE IF EXISTS "{database}" WITH (FORCE)'))


if __name__ == "__main__":
    main()
