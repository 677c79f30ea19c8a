"""``ticketing demo``: the whole service on a machine with only Python (CONTRACT.md section 9).

No PostgreSQL and no Redis: the database is a SQLite file, webhook jobs run inside the API process
and a development identity provider signs user tokens for OAuth. The first start seeds a demo
organization through the services (so the data obeys every rule of the API); later starts reuse
it and only issue a fresh API key, because keys are shown once.
"""

from __future__ import annotations

import os
import secrets
import shutil
import sys
from collections.abc import Awaitable
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING, TextIO
from uuid import UUID

from app.principal import SCOPES, Principal
from app.runtime.addresses import url_host
from app.schemas.events import EventCreate, TicketTypeCreate, TimeslotCreate
from app.schemas.orders import OrderCreate, TicketInput
from app.schemas.scanners import ScannerCreate, ScannerProfileCreate

if TYPE_CHECKING:
    from app.settings import Settings

DEFAULT_DATABASE_FILE = "ticketing-demo.sqlite3"
ORGANIZATION_NAME = "Harbour Live (demo)"
OWNER_EMAIL = "demo@example.com"
VIEWER_EMAIL = "viewer@example.com"
"""A second member of the demo organization with the ``member`` role (reads only)."""
DASHBOARD_CLIENT_ID = "ticketing-dashboard"
BUYERS = [
    ("Ada Lovelace", "ada@example.com"),
    ("Grace Hopper", "grace@example.com"),
    ("Alan Turing", "alan@example.com"),
    ("Katherine Johnson", "katherine@example.com"),
    ("Edsger Dijkstra", "edsger@example.com"),
    ("Barbara Liskov", "barbara@example.com"),
    ("Donald Knuth", "donald@example.com"),
    ("Margaret Hamilton", "margaret@example.com"),
]


@dataclass(frozen=True, slots=True)
class DemoSession:
    """What one start of the demo prints: the organization, a fresh key and ids to try."""

    organization_id: UUID
    organization_name: str
    api_key: str
    nearest_event_id: UUID
    valid_ticket_id: UUID | None
    user_token: str | None
    idp_issuer: str | None = None
    """The issuer of the dev identity provider this process serves (None: another IdP)."""


def configure_environment(database: str | None, reset: bool, host: str, port: int) -> Path:
    """Point the settings at the demo's SQLite file and dev identity provider.

    Call before anything reads the settings. The database is
    ``--database``, else ``DATABASE_URL``, else ``./ticketing-demo.sqlite3``. ``REDIS_URL`` is
    ignored: the demo runs no worker, so jobs stay in-process. Paths are made absolute, so the
    commands the banner prints work from any folder. Returns the dev identity provider's
    directory.
    """
    from app.services.oauth.dev_idp import DEV_AUDIENCE, ensure_dev_idp
    from app.services.oauth.dev_provider import served_issuer
    from app.settings import get_settings

    idp_directory = Path(".dev-idp").absolute()
    if database is not None or not os.environ.get("DATABASE_URL"):
        path = Path(database or DEFAULT_DATABASE_FILE).absolute()
        if reset:
            for suffix in ("", "-journal", "-wal", "-shm"):
                path.with_name(path.name + suffix).unlink(missing_ok=True)
        os.environ["DATABASE_URL"] = f"sqlite:///{path}"
        idp_directory = path.with_name(path.stem + "-idp")
    elif os.environ["DATABASE_URL"].startswith("sqlite:///"):
        path = Path(os.environ["DATABASE_URL"].removeprefix("sqlite:///")).absolute()
        os.environ["DATABASE_URL"] = f"sqlite:///{path}"
    get_settings.cache_clear()
    get_settings()  # a SQLite file in a missing directory stops here, before anything is made
    _, jwks_path = ensure_dev_idp(idp_directory)
    os.environ.pop("REDIS_URL", None)
    os.environ["TICKETING_ALLOW_PRIVATE_WEBHOOKS"] = "1"
    os.environ.setdefault("TICKETING_PUBLIC_URL", f"http://{_url_host(host)}:{port}")
    if not os.environ.get("TICKETING_IDP_JWKS_URL") and not os.environ.get("TICKETING_IDP_ISSUER"):
        os.environ["TICKETING_IDP_ISSUER"] = served_issuer(os.environ["TICKETING_PUBLIC_URL"])
        os.environ["TICKETING_IDP_JWKS_FILE"] = str(jwks_path)
        os.environ.setdefault("TICKETING_IDP_AUDIENCE", DEV_AUDIENCE)
        os.environ["TICKETING_DEV_IDP_DIR"] = str(idp_directory)
        os.environ.setdefault("TICKETING_DASHBOARD_CLIENT_ID", DASHBOARD_CLIENT_ID)
        os.environ.setdefault("TICKETING_DASHBOARD_CLIENT_SECRET", secrets.token_urlsafe(24))
    get_settings.cache_clear()
    return idp_directory


def _url_host(host: str) -> str:
    """Where a browser on this machine reaches a server listening on ``host``."""
    return "127.0.0.1" if host in {"0.0.0.0", "::"} else url_host(host)


async def start_session(idp_directory: Path) -> DemoSession:
    """Migrate, seed once, and issue this start's API key (every scope)."""
    from app.services.api_keys import create_api_key
    from app.services.oauth.dev_idp import mint_user_token
    from app.settings import get_settings
    from app.timeutil import utcnow
    from db.migrate import migrate
    from db.tables import Event, Organization, Ticket

    await migrate()
    organization = (
        await Organization.select(Organization.id)
        .where(Organization.name == ORGANIZATION_NAME)
        .order_by(Organization.created_at)
        .first()
    )
    organization_id = organization["id"] if organization else await seed()
    created = await create_api_key(organization_id, OWNER_EMAIL, " ".join(SCOPES), "demo")
    now = utcnow()
    nearest = min(
        await Event.select(Event.id, Event.starts_at).where(
            Event.organization_id == organization_id
        ),
        key=lambda row: abs(row["starts_at"] - now),
    )
    valid = (
        await Ticket.select(Ticket.id)
        .where(
            Ticket.organization_id == organization_id,
            Ticket.event_id == nearest["id"],
            Ticket.status == "valid",
            Ticket.order_id.status == "confirmed",
        )
        .order_by(Ticket.created_at)
        .first()
    )
    token = None
    settings = get_settings()
    if settings.dev_idp_directory is not None and settings.idp_issuer:
        token = mint_user_token(
            OWNER_EMAIL, idp_directory, audience=settings.idp_audience, issuer=settings.idp_issuer
        )
    return DemoSession(
        organization_id=organization_id,
        organization_name=ORGANIZATION_NAME,
        api_key=created.key,
        nearest_event_id=nearest["id"],
        valid_ticket_id=valid["id"] if valid else None,
        user_token=token,
        idp_issuer=settings.idp_issuer if token is not None else None,
    )


async def seed() -> UUID:
    """The demo organization: three events (past, today, next month) with ticket types,
    timeslots, confirmed, pending and cancelled orders, scanned tickets and two scanners."""
    from app.services import events, orders, scanners, ticket_types, tickets, timeslots
    from app.services.api_keys import create_api_key, revoke_api_key
    from app.services.organizations import add_member, create_organization
    from app.services.scanning import scan_ticket
    from app.timeutil import utcnow

    organization = await create_organization(ORGANIZATION_NAME, "EUR")
    owner = await add_member(organization.id, OWNER_EMAIL)
    await add_member(organization.id, VIEWER_EMAIL, "member")
    seeding_key = await create_api_key(organization.id, OWNER_EMAIL, " ".join(SCOPES), "seed")
    principal = Principal(
        organization_id=organization.id,
        user_id=owner.id,
        scopes=frozenset(SCOPES),
        credential="api_key",
        credential_id=seeding_key.id,
    )
    now = utcnow().replace(second=0, microsecond=0)
    hour = timedelta(hours=1)
    day = timedelta(days=1)

    async def event_with_slots(
        title: str,
        location: str,
        start: datetime,
        slots: list[tuple[str, datetime, datetime, int]],
        types: list[tuple[str, str]],
        *,
        order_scanning: bool = False,
    ) -> tuple[UUID, list[UUID], list[UUID]]:
        event = await events.create_event(
            principal,
            EventCreate(
                title=title,
                starts_at=start,
                ends_at=max(end for _, _, end, _ in slots),
                location=location,
                description=f"{title} at {location}.",
                order_scanning_enabled=order_scanning,
            ),
        )
        type_ids = [
            (
                await ticket_types.create_ticket_type(
                    principal,
                    event.id,
                    TicketTypeCreate(name=name, price=float(price), swappable=name == "Regular"),
                )
            ).id
            for name, price in types
        ]
        slot_ids = [
            (
                await timeslots.create_timeslot(
                    principal,
                    event.id,
                    TimeslotCreate(
                        title=slot_title,
                        starts_at=slot_start,
                        ends_at=slot_end,
                        total_available=capacity,
                        ticket_type_ids=type_ids,
                    ),
                )
            ).id
            for slot_title, slot_start, slot_end, capacity in slots
        ]
        return event.id, slot_ids, type_ids

    async def order(
        event_id: UUID, slot_id: UUID, type_ids: list[UUID], buyer: int, state: str
    ) -> list[UUID]:
        """Place an order (one ticket per listed type), bring it to ``state``; its ticket ids."""
        name, email = BUYERS[buyer % len(BUYERS)]
        placed = await orders.place_order(
            principal,
            OrderCreate(
                event_id=event_id,
                event_timeslot_id=slot_id,
                buyer_name=name,
                buyer_email=email,
                channel=("online", "box_office", "reseller", "api")[buyer % 4],
                payment_method=("card", "ideal", "paypal", "cash", "invoice")[buyer % 5],
                tickets=[
                    TicketInput(
                        ticket_type_id=type_id,
                        owner_name=name if index == 0 else f"Guest {index} of {name}",
                        seat=f"R{buyer + 1}-{index + 1}",
                    )
                    for index, type_id in enumerate(type_ids)
                ],
            ),
        )
        if state in {"confirmed", "cancelled"}:
            await orders.confirm_order(principal, placed.id)
        if state == "cancelled":
            await orders.cancel_order(principal, placed.id)
        listed = await tickets.TICKETS.page(
            principal, within=("order_id", placed.id), sort="sequence:asc"
        )
        return [ticket.id for ticket in listed.data]

    past_start = (now - 12 * day).replace(hour=19, minute=0)
    past, [past_slot], [past_regular, past_vip] = await event_with_slots(
        "Jazz at the Harbour",
        "Harbour Hall, Pier 4",
        past_start,
        [("Evening", past_start, past_start + 3 * hour, 200)],
        [("Regular", "35.00"), ("VIP", "80.00")],
    )
    today, [open_slot, late_slot], [day_regular, day_student] = await event_with_slots(
        "Museum Night",
        "City Museum",
        now - hour,
        [
            ("Early tour", now - hour, now + 3 * hour, 120),
            ("Late tour", now + 4 * hour, now + 7 * hour, 80),
        ],
        [("Regular", "15.00"), ("Student", "9.50")],
        order_scanning=True,
    )
    future_start = (now + 30 * day).replace(hour=14, minute=0)
    future, [saturday, sunday], [weekend, day_pass] = await event_with_slots(
        "Summer Festival",
        "Riverside Park",
        future_start,
        [
            ("Saturday", future_start, future_start + 9 * hour, 500),
            ("Sunday", future_start + day, future_start + day + 8 * hour, 500),
        ],
        [("Weekend pass", "120.00"), ("Day pass", "65.00")],
    )

    door = await scanners.create_scanner(principal, ScannerCreate(name="Main entrance"))
    vip_profile = await scanners.create_profile(
        principal,
        ScannerProfileCreate(
            name="VIP lounge",
            event_ids=[past, future],
            ticket_type_ids=[past_vip, weekend],
            opens_minutes_before_start=60,
            closes_minutes_after_end=30,
        ),
    )
    await scanners.create_scanner(
        principal, ScannerCreate(name="VIP lounge door", profile_id=vip_profile.id)
    )

    for buyer in range(5):
        ticket_ids = await order(past, past_slot, [past_regular, past_vip], buyer, "confirmed")
        for ticket_id in ticket_ids[: 1 + buyer % 2]:
            await scan_ticket(
                principal, ticket_id=ticket_id, scanner_id=door.id, now=past_start + hour / 2
            )
    await order(past, past_slot, [past_regular], 5, "cancelled")

    for buyer in range(6):
        types = [day_regular, day_student][: 1 + buyer % 2]
        state = ("confirmed", "confirmed", "pending", "confirmed", "cancelled", "confirmed")[buyer]
        ticket_ids = await order(today, open_slot, types, buyer, state)
        if buyer in {0, 3}:
            await scan_ticket(principal, ticket_id=ticket_ids[0], scanner_id=door.id)
    await order(today, late_slot, [day_regular, day_regular], 6, "confirmed")

    for buyer in range(7):
        slot = saturday if buyer % 2 == 0 else sunday
        types = [weekend] if buyer % 3 == 0 else [day_pass, day_pass]
        await order(future, slot, types, buyer, ("confirmed", "pending")[buyer % 2])

    await revoke_api_key(seeding_key.id)
    return organization.id


def _program() -> str:
    """This ``ticketing`` as an absolute path, so that the printed commands run from anywhere."""
    if Path(sys.argv[0]).name == "ticketing":
        return os.path.abspath(sys.argv[0])
    return shutil.which("ticketing") or "ticketing"


def print_banner(
    session: DemoSession, base_url: str, database_url: str, idp_directory: Path, out: TextIO
) -> None:
    """What a new user needs on one screen: the key, the URLs and commands to paste."""
    key = session.api_key
    auth = f'-H "Authorization: Bearer {key}"'
    program = _program()
    lines = [
        "",
        "Ticketing demo: seeded organization "
        f"{session.organization_name!r} ({session.organization_id})",
        "",
        f"  API            {base_url}",
        f"  OpenAPI        {base_url}/schema  (JSON: {base_url}/schema/openapi.json)",
        f"  GraphQL        {base_url}/graphql",
        f"  Dashboard      {base_url}/dashboard  (sign in as {OWNER_EMAIL}, an admin, or "
        f"{VIEWER_EMAIL}, who only reads)",
        "",
        f"API key (every scope; a new one each start): {key}",
        "",
        "Try:",
        f"  curl {auth} {base_url}/whoami",
        f"  curl {auth} '{base_url}/events?sort=title:asc'",
        f"  curl {auth} '{base_url}/events/{session.nearest_event_id}/tickets?limit=5'",
        f"  curl {auth} '{base_url}/orders?event_id={session.nearest_event_id}"
        "&sort=total_price:desc'",
        f"  curl {auth} -H 'Content-Type: application/json' "
        f'-d \'{{"query": "{{ viewer {{ email organization }} }}"}}\' {base_url}/graphql',
    ]
    if session.valid_ticket_id is not None:
        lines.append(
            f"  curl {auth} -X POST -H 'Content-Type: application/json' -d '{{}}' "
            f"{base_url}/tickets/{session.valid_ticket_id}/scan"
        )
    if session.user_token is not None:
        lines += [
            "",
            f"OAuth: the dev identity provider signs in {OWNER_EMAIL}. Its user JWT (30 minutes)",
            "is the `token` parameter of /oauth2/authorize; a fresh one:",
            f"  {program} dev-idp token --dir {idp_directory} --issuer {session.idp_issuer} "
            f"--email {OWNER_EMAIL}",
            f"  {session.user_token}",
            f"Register an application with: DATABASE_URL={database_url} {program} "
            f"oauth-client create --org "
            f"{session.organization_id} --user-email {OWNER_EMAIL} --name App "
            "--redirect-uri http://127.0.0.1:9000/callback",
        ]
    lines += ["", "Press Ctrl+C to stop.", ""]
    out.write("\n".join(lines) + "\n")
    out.flush()


async def _with_engine(settings: Settings, work: Awaitable[DemoSession]) -> DemoSession:
    from db.engine import bind_engine, create_engine, start_engine, stop_engine

    engine = create_engine(settings)
    bind_engine(engine)
    await start_engine(engine)
    try:
        return await work
    finally:
        await stop_engine(engine)


def run(database: str | None, reset: bool, host: str, port: int) -> None:
    """Check the port, prepare and seed, then serve until interrupted, printing the banner once
    the port answers (its commands work as soon as they are shown). A port in use or a SQLite
    file in a missing directory stops it before anything is written or printed."""
    import asyncio

    from app.settings import get_settings
    from ticketing.server import check_port, serve

    check_port(host, port)
    idp_directory = configure_environment(database, reset, host, port)
    settings = get_settings()
    session = asyncio.run(_with_engine(settings, start_session(idp_directory)))
    serve(
        host=host,
        port=port,
        workers=1,
        settings=settings,
        when_answering=lambda: print_banner(
            session, settings.public_url, settings.database_url, idp_directory, sys.stdout
        ),
    )
