"""Bench data: an organization, a key and events made through the services; the bulk of the
orders and tickets copied in (``COPY``) the way the API would have written them.

Shared by ``bench/run.py`` (the ratios to the floor), ``bench/scan.py`` and ``bench/million.py``
(the 1M-vs-10k table). Each bench works in a throw-away database of its own
(:func:`throwaway_database`).
"""

from __future__ import annotations

import contextlib
import os
import sys
import uuid
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from decimal import Decimal
from pathlib import Path

import asyncpg

ROOT = Path(__file__).resolve().parent.parent
POSTGRES = os.environ.get("BENCH_POSTGRES_URL", "postgresql://postgres@127.0.0.1:5432")
TICKETS_PER_ORDER = 4
COPY_CHUNK = 100_000
POOL_SIZE = 8
"""Database connections per server process, the floor's and the service's alike."""


@dataclass
class SeededEvent:
    id: uuid.UUID
    timeslot_id: uuid.UUID
    ticket_type_id: uuid.UUID
    tickets: int
    codes: list[str] = field(default_factory=list)


@dataclass
class Seeded:
    key: str
    organization_id: uuid.UUID
    scanner_id: str
    events: list[SeededEvent]


@contextlib.asynccontextmanager
async def throwaway_database(prefix: str = "ticketing_bench") -> AsyncIterator[str]:
    """A new PostgreSQL database, its URL set as ``DATABASE_URL`` for this process and the servers
    it starts; dropped afterwards."""
    name = f"{prefix}_{uuid.uuid4().hex[:8]}"
    database_url = f"{POSTGRES}/{name}"
    os.environ["DATABASE_URL"] = database_url
    os.environ.pop("REDIS_URL", None)
    os.environ["TICKETING_RATE_LIMIT_PER_MINUTE"] = "0"
    # PostgreSQL here serves other work too: eight connections a process are plenty on 2 cores.
    os.environ.setdefault("TICKETING_DATABASE_POOL_SIZE", str(POOL_SIZE))
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))
    admin = await asyncpg.connect(f"{POSTGRES}/postgres")
    await admin.execute(f'CREATE DATABASE "{name}"')
    try:
        yield database_url
    finally:
        await admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        await admin.close()


async def seed(database_url: str, ticket_counts: list[int], *, keep_codes: bool = True) -> Seeded:
    """One organization and key with every scope, a scanner, and one event per entry of
    ``ticket_counts`` holding that many tickets (orders of four, order scanning on)."""
    from app.principal import SCOPES, Principal
    from app.schemas.events import EventCreate, TicketTypeCreate, TimeslotCreate
    from app.schemas.scanners import ScannerCreate
    from app.services import events, scanners, ticket_types, timeslots
    from app.services.api_keys import create_api_key
    from app.services.organizations import add_member, create_organization
    from app.settings import load_settings
    from db.engine import bind_engine, create_engine, start_engine, stop_engine
    from db.migrate import migrate

    engine = create_engine(load_settings())
    bind_engine(engine)
    await start_engine(engine)
    made: list[SeededEvent] = []
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
        for number, tickets in enumerate(ticket_counts, 1):
            event = await events.create_event(
                principal,
                EventCreate(
                    title=f"Bench Festival {number}",
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
                    total_available=tickets + 1000,
                    ticket_type_ids=[ticket_type.id],
                ),
            )
            made.append(SeededEvent(event.id, timeslot.id, ticket_type.id, tickets))
        scanner = await scanners.create_scanner(principal, ScannerCreate(name="Gate A"))
    finally:
        await stop_engine(engine)

    connection = await asyncpg.connect(database_url)
    try:
        for event in made:
            await copy_tickets(connection, org.id, event, now, keep_codes=keep_codes)
        await connection.execute("VACUUM ANALYZE")
    finally:
        await connection.close()
    return Seeded(key=key.key, organization_id=org.id, scanner_id=str(scanner.id), events=made)


ORDER_COLUMNS = [
    "id", "organization_id", "event_id", "event_timeslot_id", "buyer_name", "buyer_email",
    "channel", "payment_method", "total_price", "refunded", "status", "payed_at", "cancelled_at",
    "created_at",
]  # fmt: skip
TICKET_COLUMNS = [
    "id", "organization_id", "event_id", "event_timeslot_id", "ticket_type_id", "order_id",
    "scannable_code", "owner_name", "owner_email", "seat", "sequence", "status", "scanned_at",
    "cancelled_at", "swappable", "metadata", "metadata_fields", "created_at",
]  # fmt: skip


async def copy_tickets(
    connection: asyncpg.Connection,
    organization_id: uuid.UUID,
    event: SeededEvent,
    now: datetime,
    *,
    keep_codes: bool,
) -> None:
    """``event.tickets`` tickets in confirmed orders of four, as ``POST /orders`` writes them,
    created a millisecond apart (so every sort has distinct values), in chunks."""
    from app.services.tickets import new_scannable_code

    for start in range(0, event.tickets, COPY_CHUNK):
        stop = min(start + COPY_CHUNK, event.tickets)
        codes = [new_scannable_code() for _ in range(start, stop)]
        if keep_codes:
            event.codes.extend(codes)
        first_order = start // TICKETS_PER_ORDER
        order_ids = {
            i: uuid.uuid4() for i in range(first_order, (stop - 1) // TICKETS_PER_ORDER + 1)
        }
        orders = [
            (oid, organization_id, event.id, event.timeslot_id, f"Buyer {i}",
             f"buyer{i}@example.com", "online", "card", Decimal("100.00"), Decimal("0.00"),
             "confirmed", now, None, now + timedelta(milliseconds=i * TICKETS_PER_ORDER))
            for i, oid in order_ids.items()
        ]  # fmt: skip
        tickets = [
            (uuid.uuid4(), organization_id, event.id, event.timeslot_id, event.ticket_type_id,
             order_ids[i // TICKETS_PER_ORDER], code, f"Guest {i}", f"guest{i}@example.com", None,
             i % TICKETS_PER_ORDER + 1, "valid", None, None, False, "{}", "[]",
             now + timedelta(milliseconds=i))
            for i, code in zip(range(start, stop), codes, strict=True)
        ]  # fmt: skip
        await connection.copy_records_to_table("orders", records=orders, columns=ORDER_COLUMNS)
        await connection.copy_records_to_table("tickets", records=tickets, columns=TICKET_COLUMNS)
    await connection.execute(
        "UPDATE timeslots SET sold = $1 WHERE id = $2", event.tickets, event.timeslot_id
    )
