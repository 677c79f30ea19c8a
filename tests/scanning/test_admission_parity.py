"""The one-statement scan (``db.scans.admit``, issue 26 item 3) against Python's decision:
every case runs twice, in two organizations built alike, once with the statement writing the
first admissions, exits, re-entries and passes (``multiple``) it is sure of, late uploads among
them, and every refusal, and answering retries of a used nonce, and
once with Python deciding every scan (``admit_in_sql=False``; a retry then meets the used nonce
in ``scan_write`` and runs in the transaction), and must give the same results and leave the
same rows: the scan log, the tickets, the attendance and ticket counters, the
``ticket.scanned`` outbox rows byte for byte (their ids aside). The server's clock is pinned, so
every time written is the same in both."""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any
from uuid import UUID

import msgspec
import pytest
from httpx import AsyncClient

from app.errors import NonceReused
from app.services import scan_keys, scanning
from db.tables import AttendanceCount, OutboxEvent, Scan, Ticket, TicketCount
from tests.dates import YEAR
from tests.scanning.support import HOUR, MINUTE, principal_of, stamp
from tests.statements import count_statements
from tests.support import (
    Tenant,
    create_event,
    create_profile,
    create_scanner,
    create_ticket_type,
    create_timeslot,
    ok,
    order_tickets,
    place_order,
)

T0 = datetime(YEAR, 1, 1, 12, tzinfo=UTC)
"""The timeslot runs from an hour before to an hour after; scans are at ``T0`` plus an offset
(the setup's writes, at the clock's time, are all before any scan's)."""
MICROSECOND = timedelta(microseconds=1)


@dataclass(frozen=True)
class Step:
    """One scan: of ticket ``ticket`` (of the order's tickets), named ``by`` id, code or signed
    code, scanned at ``T0 + at`` and received ``late`` after that."""

    direction: str = "entry"
    by: str = "code"
    at: timedelta = timedelta(0)
    late: timedelta = timedelta(0)
    nonce: str | None = None
    ticket: int = 0
    one: bool = False
    """The statement path answers it in one statement (beside every first admission and every
    refusal)."""


@dataclass(frozen=True)
class Case:
    name: str
    steps: tuple[Step, ...] = (Step(),)
    profile: dict[str, Any] | None = None
    """The scanner's profile (None: no profile); ``targets`` picks its target lists."""
    targets: str | None = None
    """``ours``: this event, type and timeslot; ``other_event`` ...: another event's."""
    scanner_active: bool = True
    named: bool = True
    ticket: str = "valid"
    """``valid``, ``cancelled`` (the first ticket), ``order_cancelled``, ``pending``."""
    tickets: int = 1
    order_scanning: bool = False
    subscribed: bool = False
    """A webhook takes ``ticket.scanned`` (the outbox row waits for the relay)."""


WINDOW = {"opens_minutes_before_start": 30, "closes_minutes_after_end": 30}
VALIDITY = {"valid_from": stamp(T0 - 10 * MINUTE), "valid_until": stamp(T0 + 10 * MINUTE)}
OPENS, CLOSES = -90 * MINUTE, 90 * MINUTE
"""The window's edges from ``T0`` (the timeslot +-1 h, the window 30 minutes each side)."""

CASES = [
    Case("by code"),
    Case("at a fraction of a second", (Step(at=timedelta(microseconds=120)),)),
    Case("by id", (Step(by="id"),)),
    Case("by signed code", (Step(by="signed"),)),
    Case("first active scanner", named=False),
    Case("named inactive scanner", scanner_active=False),
    Case("order scanning", (Step(), Step(ticket=1, by="id")), tickets=3, order_scanning=True),
    Case("subscribed webhook", subscribed=True),
    Case("targets ours", profile={}, targets="ours"),
    Case("target event other", profile={}, targets="other_event"),
    Case("target type other", profile={}, targets="other_type"),
    Case("target timeslot other", profile={}, targets="other_timeslot"),
    Case("window opens edge", (Step(at=OPENS),), profile=WINDOW),
    Case("window before opening", (Step(at=OPENS - MICROSECOND),), profile=WINDOW),
    Case("window closes edge", (Step(at=CLOSES),), profile=WINDOW),
    Case("window after closing", (Step(at=CLOSES + MICROSECOND),), profile=WINDOW),
    Case("window offline upload", (Step(at=CLOSES, late=3 * HOUR),), profile=WINDOW),
    Case("validity from edge", (Step(at=-10 * MINUTE),), profile=VALIDITY),
    Case("validity before", (Step(at=-10 * MINUTE - MICROSECOND),), profile=VALIDITY),
    Case("validity until edge", (Step(at=10 * MINUTE),), profile=VALIDITY),
    Case("validity after", (Step(at=10 * MINUTE + MICROSECOND),), profile=VALIDITY),
    Case("validity arrives after", (Step(late=11 * MINUTE),), profile=VALIDITY),
    Case("cancelled ticket", ticket="cancelled"),
    Case("cancelled order", ticket="order_cancelled"),
    Case("pending order", ticket="pending"),
    Case("single twice", (Step(), Step(at=MINUTE), Step(at=2 * MINUTE, by="id"))),
    Case(
        "single exit and back",
        (Step(direction="exit"), Step(), Step(direction="exit", at=MINUTE), Step(at=2 * MINUTE)),
    ),
    Case(
        "reentry",
        (Step(), Step(at=MINUTE), Step(direction="exit", at=2 * MINUTE), Step(at=3 * MINUTE)),
        profile={"entry_policy": "reentry"},
    ),
    Case(
        "multiple",
        (
            Step(),
            Step(at=MINUTE, one=True),
            Step(direction="exit", at=2 * MINUTE, one=True),
            Step(at=3 * MINUTE, one=True),
        ),
        profile={"entry_policy": "multiple"},
    ),
    Case(
        "late upload of an earlier exit",
        (Step(at=MINUTE), Step(direction="exit", at=-MINUTE, late=3 * MINUTE, one=True)),
        profile={"entry_policy": "reentry"},
    ),
    Case(
        "offline entry before a later one",
        (Step(at=MINUTE, by="id"), Step(at=-MINUTE, late=3 * MINUTE, nonce="early", one=True)),
        profile={"entry_policy": "multiple"},
    ),
    Case("nonce repeated", (Step(nonce="n1"), Step(nonce="n1", at=MINUTE))),
    Case(
        "nonce repeated after a refusal",
        (Step(nonce="n1", at=OPENS - MINUTE), Step(nonce="n1"), Step(nonce="n2", at=MINUTE)),
        profile=WINDOW,
    ),
    Case(
        "nonce of another ticket",
        (Step(nonce="n1"), Step(nonce="n1", ticket=1, at=MINUTE, one=True)),
        tickets=2,
    ),
    Case("retry by id", (Step(nonce="n1"), Step(nonce="n1", by="id", at=MINUTE, one=True))),
    Case("retry of a duplicate", (Step(), *[Step(at=MINUTE * n, nonce="d") for n in (1, 2)])),
    Case("retry of a refused exit", tuple(Step("exit", at=MINUTE * n, nonce="x") for n in (0, 1))),
    Case(
        "exit and its retry",
        (
            Step(),
            Step("exit", at=MINUTE, nonce="x", one=True),
            Step("exit", at=2 * MINUTE, nonce="x", one=True),
        ),
    ),
    Case(
        "re-entry and its retry",
        (
            Step(),
            Step("exit", at=MINUTE, one=True),
            Step(at=2 * MINUTE, nonce="r", one=True),
            Step(at=3 * MINUTE, nonce="r", one=True),
            Step("exit", at=4 * MINUTE, nonce="x", one=True),
            Step(at=5 * MINUTE, nonce="x", one=True),
        ),
        profile={"entry_policy": "reentry"},
    ),
    Case(
        "re-entry by signed code, subscribed, order scanning",
        (
            Step(by="signed"),
            Step("exit", by="signed", at=MINUTE, one=True),
            Step(by="signed", at=2 * MINUTE, one=True),
            Step(ticket=1, by="id", at=3 * MINUTE),
        ),
        profile={"entry_policy": "reentry"},
        tickets=2,
        order_scanning=True,
        subscribed=True,
    ),
    Case(
        "exit and re-entry at the presence's moment",
        (
            Step(at=MINUTE),
            Step("exit", at=MINUTE, one=True),
            Step("exit", at=2 * MINUTE, one=True),
            Step(at=2 * MINUTE, one=True),
        ),
        profile={"entry_policy": "reentry"},
    ),
    Case(
        "late upload of an earlier re-entry",
        (Step(), Step("exit", at=2 * MINUTE), Step(at=MINUTE, late=2 * MINUTE, one=True)),
        profile={"entry_policy": "reentry"},
    ),
    Case(
        "late upload of an earlier exit after a re-entry",
        (
            Step(),
            Step("exit", at=MINUTE),
            Step(at=3 * MINUTE),
            Step("exit", at=2 * MINUTE, one=True),
        ),
        profile={"entry_policy": "reentry"},
    ),
    Case(
        "re-entry after the window closes",
        (Step(), Step("exit", at=CLOSES, one=True), Step(at=CLOSES + MICROSECOND)),
        profile={"entry_policy": "reentry"} | WINDOW,
    ),
    Case(
        "multiple exits and entries",
        (
            Step(),
            Step("exit", at=MINUTE, one=True),
            Step(at=2 * MINUTE, one=True),
            Step(at=3 * MINUTE, one=True),
        ),
        profile={"entry_policy": "multiple"},
    ),
    Case(
        "passes early and late, subscribed, order scanning",
        (
            Step(),
            Step(at=2 * MINUTE, one=True),
            Step("exit", at=3 * MINUTE, one=True),
            Step(at=MINUTE, late=3 * MINUTE, one=True),
            Step(ticket=1, by="id", at=4 * MINUTE),
        ),
        profile={"entry_policy": "multiple"},
        tickets=2,
        order_scanning=True,
        subscribed=True,
    ),
    Case(
        "late exit under single",
        (Step(at=MINUTE), Step("exit", at=-MINUTE, late=2 * MINUTE, one=True)),
    ),
    Case(
        "exit at another event's scanner",
        (Step(), Step("exit", at=MINUTE)),
        profile={},
        targets="other_event",
    ),
]


@dataclass
class World:
    tenant: Tenant
    scanner_id: str
    tickets: list[dict[str, Any]]
    labels: dict[str, str]
    """Every id of the world (and more) -> its name, to compare two worlds."""


async def build(client: AsyncClient, tenant: Tenant, case: Case) -> World:
    """The case's organization: one event (timeslot ``T0`` +- 1 h), one order, its scanner."""
    event = await create_event(
        client, tenant, starts_at=stamp(T0 - HOUR), order_scanning_enabled=case.order_scanning
    )
    ticket_type = await create_ticket_type(client, tenant, event["id"])
    timeslot = await create_timeslot(
        client, tenant, event["id"], starts_at=stamp(T0 - HOUR), ends_at=stamp(T0 + HOUR),
        total_available=10, ticket_type_ids=[ticket_type["id"]],
    )  # fmt: skip
    labels = {event["id"]: "event", ticket_type["id"]: "type", timeslot["id"]: "timeslot"}
    scanner_fields: dict[str, Any] = {"active": case.scanner_active}
    if case.profile is not None:
        profile = dict(case.profile)
        if case.targets is not None:
            targets = {"event": event, "type": ticket_type, "timeslot": timeslot}
            if case.targets.startswith("other_"):
                other = await create_event(client, tenant, starts_at=stamp(T0 - HOUR))
                other_type = await create_ticket_type(client, tenant, other["id"])
                other_slot = await create_timeslot(
                    client, tenant, other["id"], starts_at=stamp(T0 - HOUR),
                    ends_at=stamp(T0 + HOUR), total_available=1,
                    ticket_type_ids=[other_type["id"]],
                )  # fmt: skip
                labels |= {other["id"]: "o-event", other_type["id"]: "o-type"}
                labels[other_slot["id"]] = "o-timeslot"
                moved = case.targets.removeprefix("other_")
                targets[moved] = {"event": other, "type": other_type, "timeslot": other_slot}[moved]
            profile |= {
                "event_ids": [targets["event"]["id"]],
                "ticket_type_ids": [targets["type"]["id"]],
                "timeslot_ids": [targets["timeslot"]["id"]],
            }
        made = await create_profile(client, tenant, **profile)
        scanner_fields["profile_id"] = made["id"]
    scanner = await create_scanner(client, tenant, **scanner_fields)
    labels[scanner["id"]] = "scanner"
    if case.subscribed:
        hook = {"url": "https://hooks.example.com/t", "event_types": ["ticket.scanned"]}
        ok(await client.post("/webhooks", json=hook, headers=tenant.headers), 201)
    order = await place_order(
        client, tenant, event["id"], timeslot["id"], [ticket_type["id"]] * case.tickets,
        confirm=case.ticket != "pending",
    )  # fmt: skip
    labels[order["id"]] = "order"
    tickets = await order_tickets(client, tenant, order)
    if case.ticket == "cancelled":
        ok(await client.post(f"/tickets/{tickets[0]['id']}/cancel", headers=tenant.headers))
    if case.ticket == "order_cancelled":
        ok(await client.post(f"/orders/{order['id']}/cancel", headers=tenant.headers))
    for number, ticket in enumerate(tickets):
        labels[ticket["id"]] = f"ticket{number}"
    return World(tenant, scanner["id"], tickets, labels)


def named(world: World, value: Any) -> Any:
    """``value`` with every id of the world replaced by its name, and the setup's times (a
    ticket's cancellation) by a word."""
    if isinstance(value, dict):
        return {key: named(world, item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [named(world, item) for item in value]
    if isinstance(value, datetime) and value < T0 - 3 * HOUR:
        return "at the setup"  # the clock's time, not a scan's
    if isinstance(value, UUID):
        value = str(value)
    if isinstance(value, str):
        return re.sub(
            r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}",
            lambda found: world.labels.get(found.group(0), "unknown id"),
            value,
        )
    return value


async def run(world: World, case: Case, admit_in_sql: bool) -> list[Any]:
    """Each step's result (or error), and for the statement path whether it took one
    statement."""
    principal = await principal_of(world.tenant)
    outcomes: list[Any] = []
    for step in case.steps:
        ticket = world.tickets[step.ticket]
        target = {
            "code": {"scannable_code": ticket["scannable_code"]},
            "id": {"ticket_id": UUID(ticket["id"])},
            "signed": {"signed_code": ticket["signed_code"]},
        }[step.by]
        if step.by == "signed":  # its event's key, read once per process
            assert await scan_keys.verified_ticket(world.tenant.org_id, ticket["signed_code"])
        logged = await Scan.count().where(Scan.organization_id == world.tenant.org_id)
        with count_statements() as counter:
            try:
                result = await scanning.scan_ticket(
                    principal,
                    **target,
                    scanner_id=UUID(world.scanner_id) if case.named else None,
                    nonce=step.nonce,
                    scanned_at=T0 + step.at,
                    direction=step.direction,  # type: ignore[arg-type]
                    now=T0 + step.at + step.late,
                    admit_in_sql=admit_in_sql,
                )
            except NonceReused as error:
                outcomes.append(("error", type(error).__name__))
                continue
        outcomes.append(named(world, msgspec.to_builtins(result, builtin_types=(datetime, UUID))))
        grew = await Scan.count().where(Scan.organization_id == world.tenant.org_id) > logged
        admission = result.status == "valid" and result.direction == "entry" and grew
        refusal = result.status != "valid" and grew
        if admit_in_sql and (step.one or refusal or (admission and not result.scanned_before)):
            assert counter.count == 1, (case.name, step, counter.statements)
    return outcomes


async def effects(world: World) -> dict[str, Any]:
    """What the scans left in the database, ids named."""
    org = world.tenant.org_id
    log = await Scan.select(
        Scan.ticket_id, Scan.scanner_id, Scan.status, Scan.reason, Scan.created_at,
        Scan.scanned_at, Scan.received_at, Scan.nonce, Scan.result_scanned_at, Scan.direction,
        Scan.result_inside,
    ).where(Scan.organization_id == org)  # fmt: skip
    tickets = await Ticket.select(
        Ticket.id, Ticket.status, Ticket.scanned_at, Ticket.inside, Ticket.presence_at,
        Ticket.cancelled_at, Ticket.updated_at,
    ).where(Ticket.organization_id == org)  # fmt: skip
    attendance = await AttendanceCount.raw(
        "SELECT timeslot_id, SUM(admitted) AS admitted, SUM(inside) AS inside, "
        "SUM(entries) AS entries, SUM(exits) AS exits FROM attendance_counts "
        "WHERE organization_id = {} GROUP BY timeslot_id",
        org,
    )
    counts = await TicketCount.raw(
        "SELECT event_id, SUM(valid) AS valid, SUM(scanned) AS scanned, "
        "SUM(cancelled) AS cancelled FROM ticket_counts WHERE organization_id = {} "
        "GROUP BY event_id",
        org,
    )
    outbox = await OutboxEvent.raw(
        "SELECT event_type, payload::text AS payload, created_at, relayed_at FROM outbox_events "
        "WHERE organization_id = {} AND event_type = 'ticket.scanned'",
        org,
    )
    found = {
        "log": log,
        "tickets": tickets,
        "attendance": attendance,
        "ticket_counts": counts,
        "outbox": outbox,
    }
    return {name: sorted(named(world, rows), key=repr) for name, rows in found.items()}


@pytest.mark.parametrize("case", CASES, ids=[case.name for case in CASES])
async def test_the_statement_admits_as_python_decides(
    client: AsyncClient,
    make_tenant: Callable[..., Awaitable[Tenant]],
    case: Case,
    caplog: pytest.LogCaptureFixture,
) -> None:
    found = []
    for admit_in_sql in (True, False):
        world = await build(client, await make_tenant(), case)
        found.append((await run(world, case, admit_in_sql), await effects(world)))
    (statement_results, statement_rows), (python_results, python_rows) = found
    assert statement_results == python_results
    assert statement_rows == python_rows
    disagreements = [r for r in caplog.records if r.name == scanning.logger.name]  # _agrees
    assert not disagreements, [r.getMessage() for r in disagreements]
