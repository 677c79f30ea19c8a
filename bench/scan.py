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
import socket
import sys
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from decimal import Decimal
from pathlib import Path

import asyncpg
import httpx
from loadgen import HttpConnection, Phase, run_phase

ROOT = Path(__file__).resolve().parent.parent
TICKETS_PER_ORDER = 4


@dataclass
class Seeded:
    key: str
    scanner_id: str
    codes: list[str]
    event_id: str


async def seed(database_url: str, tickets: int) -> Seeded:
    """Organization, key, event, scanner through the services; orders and tickets by COPY."""
    from app.principal import SCOPES, Principal
    from app.schemas.events import EventCreate, TicketTypeCreate, TimeslotCreate
    from app.schemas.scanners import ScannerCreate
    from app.services import events, scanners, ticket_types, timeslots
    from app.services.api_keys import create_api_key
    from app.services.organizations import add_member, create_organization
    from app.services.tickets import new_scannable_code
    from app.settings import load_settings
    from db.engine import bind_engine, create_engine, start_engine, stop_engine
    from db.migrate import migrate

    engine = create_engine(load_settings())
    bind_engine(engine)
    await start_engine(engine)
    try:
        await migrate()
        org = await create_organization("Bench Org", "EUR")
        user = await add_member(org.id, "bench@example.com")
        key = await create_api_key(org.id, "bench@example.com", " ".join(SCOPES), "bench")
        principal = Principal(
            organization_id=org.id,
            user_id=user.id,
            scopes=frozenset(SCOPES),
            credential="api_key",
            credential_id=key.id,
        )
        now = datetime.now(UTC)
        event = await events.create_event(
            principal,
            EventCreate(
                title="Bench Festival",
                starts_at=now,
                location="Hall 1",
                order_scanning_enabled=True,
            ),
        )
        ticket_type = await ticket_types.create_ticket_type(
            principal, event.id, TicketTypeCreate(name="Day", price=Decimal("25.00"))
        )
        timeslot = await timeslots.create_timeslot(
            principal,
            event.id,
            TimeslotCreate(
                title="Day 1",
                starts_at=now,
                ends_at=now + timedelta(hours=12),
                total_available=tickets,
                ticket_type_ids=[ticket_type.id],
            ),
        )
        scanner = await scanners.create_scanner(principal, ScannerCreate(name="Gate A"))
    finally:
        await stop_engine(engine)

    codes = [new_scannable_code() for _ in range(tickets)]
    order_ids = [uuid.uuid4() for _ in range(0, tickets, TICKETS_PER_ORDER)]
    orders = [
        (oid, org.id, event.id, timeslot.id, "Buyer", "buyer@example.com", "online", "card",
         Decimal("100.00"), Decimal("0.00"), "confirmed", now, None, now)
        for oid in order_ids
    ]  # fmt: skip
    rows = [
        (uuid.uuid4(), org.id, event.id, timeslot.id, ticket_type.id,
         order_ids[i // TICKETS_PER_ORDER], code, f"Guest {i}", f"guest{i}@example.com", None,
         i % TICKETS_PER_ORDER + 1, "valid", None, None, False, "{}", "[]", now)
        for i, code in enumerate(codes)
    ]  # fmt: skip
    connection = await asyncpg.connect(database_url)
    try:
        await connection.copy_records_to_table(
            "orders",
            records=orders,
            columns=[
                "id", "organization_id", "event_id", "event_timeslot_id", "buyer_name",
                "buyer_email", "channel", "payment_method", "total_price", "refunded", "status",
                "payed_at", "cancelled_at", "created_at",
            ],
        )  # fmt: skip
        await connection.copy_records_to_table(
            "tickets",
            records=rows,
            columns=[
                "id", "organization_id", "event_id", "event_timeslot_id", "ticket_type_id",
                "order_id", "scannable_code", "owner_name", "owner_email", "seat", "sequence",
                "status", "scanned_at", "cancelled_at", "swappable", "metadata",
                "metadata_fields", "created_at",
            ],
        )  # fmt: skip
        await connection.execute(
            "UPDATE timeslots SET sold = $1 WHERE id = $2", tickets, timeslot.id
        )
        await connection.execute("ANALYZE")
    finally:
        await connection.close()
    return Seeded(key=key.key, scanner_id=str(scanner.id), codes=codes, event_id=str(event.id))


async def wait_until_serving(base_url: str) -> None:
    deadline = time.monotonic() + 120.0
    async with httpx.AsyncClient(base_url=base_url, timeout=2.0) as client:
        while time.monotonic() < deadline:
            try:
                await client.get("/whoami")
                return
            except httpx.TransportError:
                await asyncio.sleep(0.2)
    raise TimeoutError(f"{base_url} did not start")


async def load(port: int, seeded: Seeded, clients: int, seconds: float) -> list[Phase]:
    codes: Iterator[str] = iter(seeded.codes)
    admitted = 0

    async def whoami(connection: HttpConnection) -> bool:
        status, _ = await connection.request("GET", "/whoami")
        return status == 200

    async def scan(connection: HttpConnection) -> bool:
        nonlocal admitted
        body = json.dumps({"scannable_code": next(codes), "scanner_id": seeded.scanner_id})
        status, answer = await connection.request("POST", "/scans", body.encode())
        if status == 200 and json.loads(answer)["status"] == "valid":
            admitted += 1
        return status == 200

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
    scans = phases[1]
    if admitted != len(scans.latencies):
        print(f"warning: {len(scans.latencies) - admitted} scans were not admitted")
    return phases


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clients", type=int, default=32)
    parser.add_argument("--seconds", type=float, default=15.0)
    parser.add_argument("--tickets", type=int, default=100_000)
    parser.add_argument("--workers", type=int, default=1, help="server processes")
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
        base_url = f"http://127.0.0.1:{port}"
        await wait_until_serving(base_url)
        print(
            f"{args.clients} concurrent clients, {args.seconds:.0f} s per phase, "
            f"{args.workers} server process(es)"
        )
        for phase in await load(port, seeded, args.clients, args.seconds):
            print(phase.report())
    finally:
        if server is not None and server.returncode is None:
            server.terminate()
            await server.wait()
        await admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        await admin.close()


if __name__ == "__main__":
    asyncio.run(main())
