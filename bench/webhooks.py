"""Webhook delivery: lag and fan-out of real ``ticketing worker`` processes next to a plain client.

Creates a throw-away PostgreSQL database, starts N ``ticketing worker`` processes and a receiver
on 127.0.0.1 (keep-alive HTTP/1.1, answering 200 at once, recording when each (event,
subscription) first arrives), then measures, in one run:

- floor: one httpx client sending POSTs to the same receiver over as many keep-alive connections
  as the workers had open during the fan-out it is compared with, one request at a time on each:
  the deliveries per second of doing nothing but sending, as concurrently as the workers do;
- lag: events written at a steady rate (default 100/s, in ten commits a second) to one
  subscription; the time from each event's commit to its receipt, p50 and p99, and the rate at
  which they were received (below the offered rate: the worker is saturated, and the lag grows
  with the length of the phase). ``--rate 100,20`` runs one phase per rate;
- fan-out: one event to 200 subscriptions, and 10,000 events (one commit) to 5 subscriptions;
  deliveries per second from the commit to the last receipt, and their ratio to the floor,
  measured right after each fan-out over the connections the workers had open during it; and the
  CPU time each costs: the workers' per delivery (their /proc/<pid>/schedstat around the
  fan-out, which also says how long they waited for a core), this process's per plain POST (the
  client and the receiver both run here).

    .venv/bin/python bench/webhooks.py --workers 1

An A/B in one session: ``--tree DIR`` runs the workers of another checkout of the project (e.g.
``git archive <commit> | tar -x -C DIR``) on this one's environment; run it in turns with and
without.

Everything shares the machine's cores: workers, PostgreSQL, Redis, this process (the receiver and
the floor's client). Duplicated deliveries are counted and reported (the floors' POSTs are not
deliveries and are left out), and so is the load average.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import signal
import sys
import time
import uuid
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

import asyncpg
import httpx

ROOT = Path(__file__).resolve().parent.parent
POSTGRES = os.environ.get("BENCH_POSTGRES_URL", "postgresql://postgres@127.0.0.1:5432")
REDIS_URL = os.environ.get("BENCH_REDIS_URL", "redis://127.0.0.1:6379/0")
WIDE_FLOOR_POSTS = 1_000


class Receiver:
    """Records when each (webhook-id, path) first arrives (``time.time()``), and the most
    connections of the workers open at once since :meth:`count_connections` (``peak``; a
    connection whose first request is under ``/floor`` is the floor's)."""

    def __init__(self) -> None:
        self.arrivals: dict[tuple[str, str], float] = {}
        self.requests = 0
        self.changed = asyncio.Event()
        self.open = 0
        self.peak = 0

    def count_connections(self) -> None:
        self.peak = self.open

    async def start(self) -> int:
        self.server = await asyncio.start_server(self.handle, "127.0.0.1", 0, backlog=1024)
        return self.server.sockets[0].getsockname()[1]

    async def handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        counted = False
        try:
            while True:
                head = await reader.readuntil(b"\r\n\r\n")
                lines = head.decode("latin-1").split("\r\n")
                path = lines[0].split(" ")[1]
                headers = {}
                for line in lines[1:]:
                    if line:
                        name, _, value = line.partition(":")
                        headers[name.strip().lower()] = value.strip()
                await reader.readexactly(int(headers.get("content-length", "0")))
                if not counted and not path.startswith("/floor"):
                    counted = True
                    self.open += 1
                    self.peak = max(self.peak, self.open)
                self.requests += 1
                key = (headers.get("webhook-id", ""), path)
                self.arrivals.setdefault(key, time.time())
                self.changed.set()
                writer.write(b"HTTP/1.1 200 OK\r\ncontent-length: 0\r\n\r\n")
                await writer.drain()
        except (asyncio.IncompleteReadError, ConnectionError):
            pass
        finally:
            self.open -= counted
            writer.close()

    async def wait_for(self, keys: set[tuple[str, str]], within: float) -> None:
        deadline = time.monotonic() + within
        while not keys <= self.arrivals.keys():
            if time.monotonic() > deadline:
                missing = len(keys - self.arrivals.keys())
                raise SystemExit(f"{missing} deliveries did not arrive within {within:.0f} s")
            self.changed.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.changed.wait(), 1)


@dataclass
class Organization:
    id: uuid.UUID
    paths: list[str]


async def organization(name: str, base_url: str, subscriptions: int) -> Organization:
    """An organization with ``subscriptions`` subscriptions to order.confirmed, each at a path of
    its own on the receiver."""
    from app.principal import Principal
    from app.schemas.webhooks import WebhookCreate
    from app.services.api_keys import create_api_key
    from app.services.organizations import add_member, create_organization
    from app.services.webhooks import create_webhook
    from app.settings import load_settings

    org = await create_organization(name, "EUR")
    email = f"bench-{uuid.uuid4().hex[:8]}@example.com"
    member = await add_member(org.id, email)
    key = await create_api_key(org.id, email, "webhooks.write")
    principal = Principal(
        organization_id=org.id,
        user_id=member.id,
        scopes=frozenset({"webhooks.write"}),
        credential="api_key",
        credential_id=key.id,
    )
    paths = [f"/{name}/{n}" for n in range(subscriptions)]
    for path in paths:
        await create_webhook(
            principal,
            WebhookCreate(url=f"{base_url}{path}", event_types=["order.confirmed"]),
            load_settings(),
        )
    return Organization(org.id, paths)


async def write_events(org: Organization, count: int) -> tuple[set[tuple[str, str]], float]:
    """``count`` order.confirmed events in one transaction; the (event, path) pairs expected, and
    the commit time."""
    from app.schemas.webhook_events import OrderConfirmed
    from app.services.outbox import record_events
    from db.transactions import transaction

    async with transaction():
        ids = await record_events(
            org.id,
            [OrderConfirmed(order_id=uuid.uuid4(), event_id=uuid.uuid4()) for _ in range(count)],
        )
    committed = time.time()
    return {(str(event_id), path) for event_id in ids for path in org.paths}, committed


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


async def plain_client(
    base_url: str, path: str, count: int, connections: int
) -> tuple[float, float]:
    """POSTs per second of one httpx client sending ``count`` bodies over ``connections``
    keep-alive connections (one sender each, one request at a time, all connections opened
    first), and this process's CPU seconds per POST (the client's and the receiver's: both run
    here)."""
    body = b'{"id": "x", "event_type": "order.confirmed", "timestamp": "t", "data": {}}'
    limits = httpx.Limits(max_connections=connections, max_keepalive_connections=connections)
    async with httpx.AsyncClient(base_url=base_url, limits=limits) as client:

        async def send(sender: int, posts: int) -> None:
            for n in range(posts):
                headers = {"webhook-id": f"plain-{sender}-{n}"}
                await client.post(path, content=body, headers=headers)

        await asyncio.gather(*(send(-1 - sender, 1) for sender in range(connections)))
        started, cpu = time.perf_counter(), time.process_time()
        share, extra = divmod(count, connections)
        await asyncio.gather(
            *(send(sender, share + (sender < extra)) for sender in range(connections))
        )
        return count / (time.perf_counter() - started), (time.process_time() - cpu) / count


def cpu_seconds(pids: list[int]) -> tuple[float, float]:
    """Seconds the processes ``pids`` have run on a core so far, and waited runnable for one
    (Linux's /proc/<pid>/schedstat): a fan-out that waits for a core is short of CPU, one that
    does neither waits on I/O."""
    ran = waited = 0
    for pid in pids:
        fields = Path(f"/proc/{pid}/schedstat").read_text().split()
        ran, waited = ran + int(fields[0]), waited + int(fields[1])
    return ran / 1e9, waited / 1e9


async def fan_out(receiver: Receiver, org: Organization, events: int) -> float:
    """Deliveries per second of ``events`` events to every subscription of ``org``."""
    expected, committed = await write_events(org, events)
    await receiver.wait_for(expected, within=3600)
    last = max(receiver.arrivals[key] for key in expected)
    return len(expected) / (last - committed)


async def steady_lag(
    receiver: Receiver, org: Organization, rate: int, seconds: int
) -> tuple[list[float], float]:
    """Lags (ms) of events written at ``rate`` per second for ``seconds``, in ten commits a
    second, and the rate at which they arrived (first commit to last receipt)."""
    sent: dict[tuple[str, str], float] = {}
    batch = max(1, rate // 10)
    started = time.time()
    for _ in range(seconds * 10):
        tick = time.monotonic()
        expected, committed = await write_events(org, batch)
        sent.update(dict.fromkeys(expected, committed))
        await asyncio.sleep(max(0.0, 0.1 - (time.monotonic() - tick)))
    await receiver.wait_for(set(sent), within=300)
    received = len(sent) / (max(receiver.arrivals[key] for key in sent) - started)
    lags = [(receiver.arrivals[key] - committed) * 1000 for key, committed in sent.items()]
    return lags, received


@dataclass
class AgainstFloor:
    """A fan-out's deliveries per second, the workers' CPU per delivery, the share of its time
    they waited for a core and the connections they had open at most; the floor's POSTs per
    second over as many connections and its CPU per POST, measured right after."""

    rate: float
    cpu_per_delivery: float
    waiting_for_a_core: float
    connections: int
    floor: float
    floor_cpu_per_post: float

    def __str__(self) -> str:
        return (
            f"{self.rate:.0f} deliveries/s over {self.connections} connections; plain httpx "
            f"client {self.floor:.0f} POSTs/s over as many; ratio "
            f"{self.rate / self.floor:.2f}x (CPU: {self.cpu_per_delivery * 1000:.2f} ms of the "
            f"workers per delivery, {self.floor_cpu_per_post * 1000:.2f} ms per plain POST for "
            f"client and receiver; the workers waited for a core "
            f"{self.waiting_for_a_core:.0%} of the fan-out)"
        )


async def against_floor(
    receiver: Receiver, base_url: str, org: Organization, events: int, posts: int, pids: list[int]
) -> AgainstFloor:
    """``events`` events to ``org``'s subscriptions, then a plain client sending ``posts`` over as
    many connections as the workers had open at most during the fan-out."""
    receiver.count_connections()
    ran, waited = cpu_seconds(pids)
    started = time.perf_counter()
    rate = await fan_out(receiver, org, events)
    elapsed = (time.perf_counter() - started) * len(pids)
    ran_after, waited_after = cpu_seconds(pids)
    connections = receiver.peak
    floor, floor_cpu = await plain_client(base_url, f"/floor{org.paths[0]}", posts, connections)
    return AgainstFloor(
        rate,
        (ran_after - ran) / (events * len(org.paths)),
        (waited_after - waited) / elapsed,
        connections,
        floor,
        floor_cpu,
    )


async def bench(args: argparse.Namespace) -> None:
    from app.settings import load_settings
    from db.engine import bind_engine, create_engine, start_engine, stop_engine
    from db.migrate import migrate

    engine = create_engine(load_settings())
    bind_engine(engine)
    await start_engine(engine)
    await migrate()
    receiver = Receiver()
    base_url = f"http://127.0.0.1:{await receiver.start()}"
    lag_org = await organization("lag", base_url, 1)
    wide_org = await organization("wide", base_url, 200)
    burst_org = await organization("burst", base_url, 5)

    env = {**os.environ, "REDIS_URL": REDIS_URL, "TICKETING_LOG_LEVEL": "WARNING"}
    if args.tree:
        env["PYTHONPATH"] = str(args.tree.resolve())
    workers = [
        await asyncio.create_subprocess_exec(
            str(ROOT / ".venv/bin/ticketing"), "worker", env=env, stderr=asyncio.subprocess.DEVNULL
        )
        for _ in range(args.workers)
    ]
    try:
        warm_up, _ = await write_events(lag_org, 1)
        await receiver.wait_for(warm_up, within=60)
        print(
            f"{args.workers} worker(s) of {args.tree or ROOT}; "
            f"{datetime.now(UTC):%Y-%m-%d %H:%M} UTC; "
            f"{os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f}"
        )

        for rate in args.rate if "lag" in args.only else []:
            lags, received = await steady_lag(receiver, lag_org, rate, args.seconds)
            print(
                f"lag at {rate} events/s ({len(lags)} events, received at {received:.0f}/s): "
                f"p50 {percentile(lags, 0.5):.0f} ms, p99 {percentile(lags, 0.99):.0f} ms, "
                f"max {max(lags):.0f} ms"
            )

        pids = [process.pid for process in workers]
        if "wide" in args.only:
            wide = await against_floor(receiver, base_url, wide_org, 1, WIDE_FLOOR_POSTS, pids)
            print(f"1 event to 200 subscriptions: {wide}")
        if "burst" in args.only:
            burst = await against_floor(
                receiver, base_url, burst_org, args.events, args.floor_posts, pids
            )
            print(f"{args.events} events to 5 subscriptions: {burst}")
        print(f"load average at the end {os.getloadavg()[0]:.1f}")
        print(f"duplicates received: {receiver.requests - len(receiver.arrivals)}")
    finally:
        for process in workers:
            process.send_signal(signal.SIGTERM)
        for process in workers:
            await process.wait()
        await stop_engine(engine)


async def admin(statement: str) -> None:
    connection = await asyncpg.connect(f"{POSTGRES}/postgres")
    try:
        await connection.execute(statement)
    finally:
        await connection.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument(
        "--rate",
        type=lambda text: [int(part) for part in text.split(",")],
        default=[100],
        help="events/s of the lag phase, or several (100,20): one phase each",
    )
    parser.add_argument("--seconds", type=int, default=20, help="length of the lag phase")
    parser.add_argument("--events", type=int, default=10_000, help="events of the burst")
    parser.add_argument(
        "--floor-posts", type=int, default=2_000, help="POSTs of the floor of the burst"
    )
    parser.add_argument(
        "--only",
        type=lambda text: set(text.split(",")),
        default={"lag", "wide", "burst"},
        help="phases to run, of lag,wide,burst (all by default): e.g. --only wide to iterate",
    )
    parser.add_argument(
        "--tree", type=Path, default=None, help="run the workers of this checkout (an A/B)"
    )
    args = parser.parse_args()
    database = f"ticketing_bench_{uuid.uuid4().hex[:8]}"
    os.environ["DATABASE_URL"] = f"{POSTGRES}/{database}"
    os.environ["TICKETING_QUEUE_NAME"] = f"ticketing-bench:{database}"
    os.environ["TICKETING_ALLOW_PRIVATE_WEBHOOKS"] = "1"
    sys.path.insert(0, str(ROOT))
    asyncio.run(admin(f'CREATE DATABASE "{database}"'))
    try:
        started = datetime.now(UTC)
        asyncio.run(bench(args))
        print(f"took {(datetime.now(UTC) - started).total_seconds():.0f} s")
    finally:
        asyncio.run(admin(f'DROP DATABASE IF EXISTS "{database}" WITH (FORCE)'))


if __name__ == "__main__":
    main()
