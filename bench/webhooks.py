"""Webhook delivery throughput and lag: outbox rows fanned out by real arq workers to a receiver.

Creates a throw-away PostgreSQL database, one organization with one subscription pointing at a
local receiver (keep-alive HTTP/1.1 on 127.0.0.1, answering 200 at once), writes the outbox rows,
starts N `ticketing worker` processes and waits until every event has arrived. Two phases:

- burst: N events written at once; deliveries/s (total and per worker) until the last arrives;
- steady: events written at a fixed rate below capacity; the lag from the outbox row's commit
  to its receipt (p50/p99) is the delay a subscriber sees in normal operation.

    .venv/bin/python bench/webhooks.py --events 10000 --workers 1

Everything shares the machine's cores: workers, PostgreSQL, Redis and the receiver.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import signal
import statistics
import sys
import time
import uuid
from datetime import UTC, datetime
from pathlib import Path

import asyncpg

ROOT = Path(__file__).resolve().parent.parent
POSTGRES = os.environ.get("BENCH_POSTGRES_URL", "postgresql://postgres@127.0.0.1:5432")
REDIS_URL = os.environ.get("BENCH_REDIS_URL", "redis://127.0.0.1:6379/0")


class Receiver:
    """Records when each webhook-id first arrives (``time.time()``)."""

    def __init__(self) -> None:
        self.arrivals: dict[str, float] = {}
        self.requests = 0
        self.changed = asyncio.Event()

    async def start(self) -> int:
        self.server = await asyncio.start_server(self.handle, "127.0.0.1", 0)
        return self.server.sockets[0].getsockname()[1]

    async def handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            while True:
                head = await reader.readuntil(b"\r\n\r\n")
                headers = dict(
                    line.split(": ", 1) for line in head.decode("latin-1").split("\r\n")[1:] if line
                )
                lowered = {k.lower(): v for k, v in headers.items()}
                await reader.readexactly(int(lowered.get("content-length", "0")))
                self.requests += 1
                self.arrivals.setdefault(lowered["webhook-id"], time.time())
                self.changed.set()
                writer.write(b"HTTP/1.1 200 OK\r\ncontent-length: 0\r\n\r\n")
                await writer.drain()
        except (asyncio.IncompleteReadError, ConnectionError):
            pass
        finally:
            writer.close()

    async def wait_for(self, ids: set[str], within: float) -> None:
        deadline = time.monotonic() + within
        while not ids <= self.arrivals.keys():
            if time.monotonic() > deadline:
                missing = len(ids - self.arrivals.keys())
                raise SystemExit(f"{missing} events not delivered within {within:.0f} s")
            self.changed.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.changed.wait(), 1)


async def write_events(organization_id: uuid.UUID, count: int) -> dict[str, float]:
    """Insert ``count`` order.confirmed outbox rows in one transaction; ids -> commit time."""
    from app.services.outbox import record_event
    from db.tables import OutboxEvent

    ids: list[str] = []
    async with OutboxEvent._meta.db.transaction():
        for _ in range(count):
            event_id = await record_event(
                organization_id,
                "order.confirmed",
                {"order_id": uuid.uuid4(), "event_id": uuid.uuid4()},
            )
            ids.append(str(event_id))
    committed = time.time()
    return dict.fromkeys(ids, committed)


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


async def bench(events: int, workers: int, steady_rate: int, steady_seconds: int) -> None:
    from app.principal import Principal
    from app.schemas.webhooks import WebhookCreate
    from app.services.api_keys import create_api_key
    from app.services.organizations import add_member, create_organization
    from app.services.webhooks import create_webhook
    from app.settings import load_settings
    from db.engine import bind_engine, create_engine, start_engine, stop_engine
    from db.migrate import migrate

    engine = create_engine(load_settings())
    bind_engine(engine)
    await start_engine(engine)
    await migrate()
    receiver = Receiver()
    port = await receiver.start()
    org = await create_organization("Bench", "EUR")
    await add_member(org.id, "bench@example.com")
    key = await create_api_key(org.id, "bench@example.com", "webhooks.write")
    principal = Principal(
        organization_id=org.id,
        user_id=uuid.uuid4(),
        scopes=frozenset({"webhooks.write"}),
        credential="api_key",
        credential_id=key.id,
    )
    await create_webhook(
        principal,
        WebhookCreate(url=f"http://127.0.0.1:{port}/hook", event_types=["order.confirmed"]),
        load_settings(),
    )

    burst = await write_events(org.id, events)
    env = {**os.environ, "REDIS_URL": REDIS_URL, "TICKETING_LOG_LEVEL": "WARNING"}
    processes = [
        await asyncio.create_subprocess_exec(
            str(ROOT / ".venv/bin/ticketing"), "worker", env=env, stderr=asyncio.subprocess.DEVNULL
        )
        for _ in range(workers)
    ]
    try:
        started = time.time()
        await receiver.wait_for(set(burst), within=600)
        first = min(receiver.arrivals[i] for i in burst)
        last = max(receiver.arrivals[i] for i in burst)
        rate = events / (last - started)
        print(f"burst: {events} events, {workers} worker(s), first after {first - started:.2f} s")
        print(f"  {rate:.0f} deliveries/s in all, {rate / workers:.0f} per worker")

        steady: dict[str, float] = {}
        batch = max(1, steady_rate // 10)
        for _ in range(steady_seconds * 10):
            tick = time.monotonic()
            steady.update(await write_events(org.id, batch))
            await asyncio.sleep(max(0.0, 0.1 - (time.monotonic() - tick)))
        await receiver.wait_for(set(steady), within=120)
        lags = [(receiver.arrivals[i] - committed) * 1000 for i, committed in steady.items()]
        print(
            f"steady: {len(steady)} events at {steady_rate}/s, lag outbox->receipt "
            f"p50 {percentile(lags, 0.5):.0f} ms, p99 {percentile(lags, 0.99):.0f} ms, "
            f"mean {statistics.fmean(lags):.0f} ms"
        )
        duplicates = receiver.requests - len(receiver.arrivals)
        print(f"duplicates received: {duplicates}")
    finally:
        for process in processes:
            process.send_signal(signal.SIGTERM)
        for process in processes:
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
    parser.add_argument("--events", type=int, default=10_000)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--steady-rate", type=int, default=100, help="events/s in the lag phase")
    parser.add_argument("--steady-seconds", type=int, default=10)
    args = parser.parse_args()
    database = f"ticketing_bench_{uuid.uuid4().hex[:8]}"
    os.environ["DATABASE_URL"] = f"{POSTGRES}/{database}"
    os.environ["TICKETING_QUEUE_NAME"] = f"ticketing-bench:{database}"
    os.environ["TICKETING_ALLOW_PRIVATE_WEBHOOKS"] = "1"
    sys.path.insert(0, str(ROOT))
    asyncio.run(admin(f'CREATE DATABASE "{database}"'))
    try:
        started = datetime.now(UTC)
        asyncio.run(bench(args.events, args.workers, args.steady_rate, args.steady_seconds))
        print(f"took {(datetime.now(UTC) - started).total_seconds():.0f} s")
    finally:
        asyncio.run(admin(f'DROP DATABASE IF EXISTS "{database}" WITH (FORCE)'))


if __name__ == "__main__":
    main()
