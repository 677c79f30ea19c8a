"""The statements of a scan, set-based: each takes any number of tickets or attempts and costs one
round trip, so a batch of 500 scans runs as many statements as a single scan
(``app/services/scanning.py`` decides; this module reads and writes).

Lists travel as one array parameter per column on PostgreSQL (``unnest``, ``= ANY``: the same
statement text for any size, prepared once) and as ``VALUES`` rows and ``IN`` lists on SQLite
(the demo, one writer at a time). Every statement is fixed SQL: Piccolo's query builder costs
more CPU than the statements themselves on this hot path.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Literal, cast
from uuid import UUID

from db.engine import postgres_pool
from db.rows import Columns, postgres
from db.tables import Scan, Scanner, Ticket

Row = dict[str, Any]


def _cast(kind: str) -> str:
    """A parameter's type on PostgreSQL (which cannot always infer it); nothing on SQLite."""
    return f"::{kind}" if postgres() else ""


def _in(column: str, values: Sequence[Any], kind: str) -> tuple[str, list[Any]]:
    """``column`` is one of ``values`` (one array parameter on PostgreSQL)."""
    if postgres():
        return f"{column} = ANY({{}}::{kind}[])", [list(values)]
    return f"{column} IN ({', '.join(['{}'] * len(values))})", list(values)


_SCANNER_COLUMNS = """
    SELECT c.id, c.active, c.profile_id, p.opens_minutes_before_start,
           p.closes_minutes_after_end, p.valid_from, p.valid_until, p.entry_policy
    FROM scanners c LEFT JOIN scanner_profiles p ON p.id = c.profile_id
    WHERE c.organization_id = {}"""
SCANNER_BY_ID = _SCANNER_COLUMNS + " AND c.id = {}"
FIRST_ACTIVE_SCANNER = _SCANNER_COLUMNS + " AND c.active ORDER BY c.created_at, c.id LIMIT 1"
_TICKET_FIELDS = """
    t.id, t.scannable_code, t.signed_code, t.event_id, t.event_timeslot_id, t.ticket_type_id,
           t.order_id,
           t.owner_name, t.owner_email, t.seat, t.status, t.scanned_at, t.cancelled_at,
           t.inside, t.presence_at, o.status AS order_status, e.title AS event_title,
           e.location AS event_location,
           e.order_scanning_enabled, s.title AS timeslot_title,
           s.starts_at AS timeslot_starts_at, s.ends_at AS timeslot_ends_at,
           y.name AS ticket_type_name, y.price AS ticket_type_price"""
_TICKET_FROM = """
    FROM tickets t
    JOIN orders o ON o.id = t.order_id
    JOIN events e ON e.id = t.event_id
    JOIN timeslots s ON s.id = t.event_timeslot_id
    JOIN ticket_types y ON y.id = t.ticket_type_id
    WHERE t.organization_id = {}"""
_TICKET_COLUMNS = f"SELECT {_TICKET_FIELDS} {_TICKET_FROM}"
_RELATED_JSON = """
    CASE WHEN e.order_scanning_enabled THEN (
        SELECT json_agg(json_build_object(
            'id', r.id, 'seat', r.seat, 'owner_name', r.owner_name, 'owner_email', r.owner_email,
            'scanned_at', r.scanned_at, 'cancelled_at', r.cancelled_at,
            'ticket_type_name', ry.name) ORDER BY r.sequence)
        FROM tickets r JOIN ticket_types ry ON ry.id = r.ticket_type_id
        WHERE r.order_id = t.order_id AND r.id <> t.id) END AS related_json"""
_RELATED_COLUMNS = """
    SELECT t.order_id, t.id, t.seat, t.owner_name, t.owner_email, t.scanned_at, t.cancelled_at,
           y.name AS ticket_type_name
    FROM tickets t JOIN ticket_types y ON y.id = t.ticket_type_id
    WHERE t.organization_id = {}"""
_LOG = Columns(
    (
        ("id", "uuid"),
        ("ticket_id", "uuid"),
        ("status", "varchar"),
        ("reason", "varchar"),
        ("scanned_at", "timestamptz"),
        ("nonce", "varchar"),
        ("result_scanned_at", "timestamptz"),
        ("direction", "varchar"),
        ("result_inside", "boolean"),
    )
)
_OUTCOMES = Columns(
    (
        ("id", "uuid"),
        ("status", "varchar"),
        ("reason", "varchar"),
        ("result_scanned_at", "timestamptz"),
        ("result_inside", "boolean"),
    )
)
_CHANGES = Columns(
    (
        ("id", "uuid"),
        ("event_id", "uuid"),
        ("timeslot_id", "uuid"),
        ("old_status", "varchar"),
        ("old_inside", "boolean"),
        ("old_presence_at", "timestamptz"),
        ("status", "varchar"),
        ("scanned_at", "timestamptz"),
        ("inside", "boolean"),
        ("presence_at", "timestamptz"),
        ("admitted", "int"),
        ("inside_change", "int"),
        ("entries", "int"),
        ("exits", "int"),
    )
)
COUNTER_SHARDS = 16
"""Rows per timeslot of ``attendance_counts`` on PostgreSQL (by connection), so that concurrent
scans rarely wait on one counter row."""


@dataclass(frozen=True, slots=True)
class Change:
    """What a scan operation does to one ticket: its state when planned (``old_*``, the condition
    of the write), its state after, and what it adds to its timeslot's attendance."""

    id: UUID
    event_id: UUID
    timeslot_id: UUID
    old_status: str
    old_inside: bool
    old_presence_at: datetime | None
    status: str = ""
    scanned_at: datetime | None = None
    inside: bool = False
    presence_at: datetime | None = None
    admitted: int = 0
    inside_change: int = 0
    entries: int = 0
    exits: int = 0


async def scanner(organization_id: UUID, scanner_id: UUID | None) -> Row | None:
    """The named scanner, or the organization's oldest active one, with its profile's window."""
    if scanner_id is not None:
        rows = await Scanner.raw(SCANNER_BY_ID, organization_id, scanner_id)
    else:
        rows = await Scanner.raw(FIRST_ACTIVE_SCANNER, organization_id)
    return rows[0] if rows else None


async def tickets(organization_id: UUID, ids: Sequence[UUID], codes: Sequence[str]) -> list[Row]:
    """The organization's tickets among ``ids`` and ``codes``, each joined with its order, event,
    timeslot and ticket type: one statement (an equality when there is one ticket)."""
    conditions: list[str] = []
    args: list[Any] = [organization_id]
    for column, values, kind in (("t.id", ids, "uuid"), ("t.scannable_code", codes, "varchar")):
        if len(values) == 1:
            conditions.append(f"{column} = {{}}")
            args.append(values[0])
        elif values:
            condition, values_args = _in(column, values, kind)
            conditions.append(condition)
            args += values_args
    if not conditions:
        return []
    rows: list[Row] = await Ticket.raw(f"{_TICKET_COLUMNS} AND ({' OR '.join(conditions)})", *args)
    return rows


async def claim(
    organization_id: UUID, scanner_id: UUID, received_at: datetime, attempts: Sequence[Row]
) -> set[UUID]:
    """Write the attempts to the scan log; the ids of those written. An attempt whose nonce the
    organization already used is not written (the unique index decides, also against a
    concurrent transaction, which this waits for). Rows go in nonce order, so that two batches
    sharing nonces take their index entries in the same order (no deadlock)."""
    if not attempts:
        return set()
    names = [name for name, _ in _LOG.names]
    ordered = sorted(attempts, key=lambda row: (row["nonce"] is None, row["nonce"] or ""))
    source, args = _LOG.source([[row[name] for name in names] for row in ordered])
    rows = await Scan.raw(
        "INSERT INTO scans (id, organization_id, ticket_id, scanner_id, status, reason, "
        "created_at, scanned_at, received_at, nonce, result_scanned_at, direction, result_inside) "
        f"SELECT v.id, {{}}{_cast('uuid')}, v.ticket_id, {{}}{_cast('uuid')}, v.status, v.reason, "
        f"{{}}{_cast('timestamptz')}, v.scanned_at, {{}}{_cast('timestamptz')}, v.nonce, "
        f"v.result_scanned_at, v.direction, v.result_inside FROM {source} WHERE true "
        "ON CONFLICT (organization_id, nonce) DO NOTHING RETURNING id",
        organization_id,
        scanner_id,
        received_at,
        received_at,
        *args,
    )
    return {row["id"] for row in rows}


async def first_attempts(organization_id: UUID, nonces: Sequence[str]) -> list[Row]:
    """The scan log's attempts of these nonces (each the first and only one of its nonce)."""
    if not nonces:
        return []
    condition, args = _in("nonce", nonces, "varchar")
    rows: list[Row] = await Scan.raw(
        "SELECT nonce, ticket_id, status, reason, result_scanned_at, scanned_at, direction, "
        "result_inside FROM scans "
        f"WHERE organization_id = {{}} AND {condition}",
        organization_id,
        *args,
    )
    return rows


_APPLY_CONDITION = (
    "tickets.status = v.old_status AND tickets.inside = v.old_inside "
    "AND tickets.presence_at IS NOT DISTINCT FROM v.old_presence_at"
)
_APPLY_SET = (
    "UPDATE tickets SET status = v.status, scanned_at = v.scanned_at, inside = v.inside, "
    "presence_at = v.presence_at, updated_at = {} "
)
_COUNT = (
    "INSERT INTO attendance_counts AS c (organization_id, event_id, timeslot_id, shard, "
    "admitted, inside, entries, exits) "
    "SELECT {}, v.event_id, v.timeslot_id, %s, SUM(v.admitted), SUM(v.inside_change), "
    "SUM(v.entries), SUM(v.exits) FROM %s "
    "GROUP BY v.event_id, v.timeslot_id ORDER BY v.timeslot_id "
    "ON CONFLICT (timeslot_id, shard) DO UPDATE SET admitted = c.admitted + EXCLUDED.admitted, "
    "inside = c.inside + EXCLUDED.inside, entries = c.entries + EXCLUDED.entries, "
    "exits = c.exits + EXCLUDED.exits"
)


async def apply(organization_id: UUID, changes: Sequence[Change], now: datetime) -> set[UUID]:
    """Write each ticket's new state if it is still the state it was planned on, and add the
    changes of the tickets written to their timeslots' attendance; the ids written (a ticket
    missing lost to a concurrent change, and counts nothing). PostgreSQL: one statement, whose
    tickets are locked in id order first, so two batches sharing tickets cannot deadlock."""
    if not changes:
        return set()
    names = [name for name, _ in _CHANGES.names]
    source, args = _CHANGES.source(
        [[getattr(change, name) for name in names] for change in changes]
    )
    ids = [change.id for change in changes]
    if postgres():
        shard = f"pg_backend_pid() % {COUNTER_SHARDS}"
        written = "(SELECT v.* FROM v JOIN changed ON changed.id = v.id) AS v"
        rows = await Ticket.raw(
            f"WITH v AS (SELECT * FROM {source}), "
            "locked AS (SELECT id FROM tickets WHERE organization_id = {} "
            "AND id = ANY({}::uuid[]) ORDER BY id FOR NO KEY UPDATE), "
            f"changed AS ({_APPLY_SET} FROM locked, v WHERE tickets.id = locked.id "
            f"AND v.id = locked.id AND {_APPLY_CONDITION} RETURNING tickets.id), "
            f"counted AS ({_COUNT % (shard, written)}) "
            "SELECT id FROM changed",
            *args,
            organization_id,
            ids,
            now,
            organization_id,
        )
        return {row["id"] for row in rows}
    rows = await Ticket.raw(
        f"{_APPLY_SET} FROM {source} WHERE tickets.id = v.id AND tickets.organization_id = {{}} "
        f"AND {_APPLY_CONDITION} RETURNING tickets.id AS id",
        now,
        *args,
        organization_id,
    )
    won = {row["id"] for row in rows}
    counted = [change for change in changes if change.id in won]
    if counted:
        source, args = _CHANGES.source(
            [[getattr(change, name) for name in names] for change in counted]
        )
        await Ticket.raw(_COUNT % ("0", source), organization_id, *args)
    return won


async def ticket_states(ids: Sequence[UUID]) -> list[Row]:
    """The committed status and times of these tickets (after a lost race)."""
    if not ids:
        return []
    condition, args = _in("id", ids, "uuid")
    rows: list[Row] = await Ticket.raw(
        "SELECT id, status, scanned_at, cancelled_at, inside, presence_at FROM tickets "
        f"WHERE {condition}",
        *args,
    )
    return rows


async def correct(
    outcomes: Sequence[tuple[UUID, str | None, str | None, datetime | None, bool]],
) -> None:
    """Rewrite the outcome of these logged attempts (id, status, reason, result_scanned_at,
    result_inside)."""
    if not outcomes:
        return
    source, args = _OUTCOMES.source(outcomes)
    await Scan.raw(
        "UPDATE scans SET status = v.status, reason = v.reason, "
        "result_scanned_at = v.result_scanned_at, result_inside = v.result_inside "
        f"FROM {source} WHERE scans.id = v.id",
        *args,
    )


async def related(organization_id: UUID, order_ids: Sequence[UUID]) -> list[Row]:
    """Every ticket of these orders, by order and sequence (one statement)."""
    if not order_ids:
        return []
    if len(order_ids) == 1:
        condition, args = "t.order_id = {}", [order_ids[0]]
    else:
        condition, args = _in("t.order_id", order_ids, "uuid")
    rows: list[Row] = await Ticket.raw(
        f"{_RELATED_COLUMNS} AND {condition} ORDER BY t.order_id, t.sequence",
        organization_id,
        *args,
    )
    return rows


_CONTEXT_SCANNER = (
    "SELECT c.id AS scanner_id, c.active AS scanner_active, c.profile_id, "
    "p.opens_minutes_before_start, p.closes_minutes_after_end, p.valid_from, p.valid_until, "
    "p.entry_policy FROM scanners c LEFT JOIN scanner_profiles p ON p.id = c.profile_id "
    "WHERE c.organization_id = {}"
)
_CONTEXT_TARGETS = (
    "SELECT "
    + ", ".join(
        f"array_agg(g.{column}) FILTER (WHERE g.{column} IS NOT NULL) AS target_{name}"
        for column, name in (
            ("event_id", "event_ids"),
            ("ticket_type_id", "ticket_type_ids"),
            ("timeslot_id", "timeslot_ids"),
        )
    )
    + " FROM scanner_profile_targets g WHERE g.profile_id = c.profile_id"
)
"""The target lists of the scanner ``c``'s profile (each null when the profile lists none of its
kind): one aggregate over the targets, where one subplan per list cost PostgreSQL three to set up
on every scan."""


def writes_at_once() -> bool:
    """Whether a single scan can be read and written in two statements (:func:`context`,
    :func:`write_one`), or one (:func:`admit`): PostgreSQL, whose ``scan_write`` function commits
    a scan by itself."""
    return postgres()


def _numbered(sql: str) -> str:
    """A statement's ``{}`` placeholders as PostgreSQL's ``$1, $2, ...``, for asyncpg as it is."""
    numbers = itertools.count(1)
    return re.sub(r"\{\}", lambda _: f"${next(numbers)}", sql)


def _context_sql(named_scanner: bool, by_id: bool) -> str:
    if named_scanner:
        scanner_sql = _CONTEXT_SCANNER + " AND c.id = {}"
    else:
        scanner_sql = _CONTEXT_SCANNER + " AND c.active ORDER BY c.created_at, c.id LIMIT 1"
    column = "t.id" if by_id else "t.scannable_code"
    return (
        f"WITH c AS ({scanner_sql}) SELECT c.*, g.*, t.* FROM c "
        f"LEFT JOIN LATERAL ({_CONTEXT_TARGETS}) g ON true LEFT JOIN LATERAL "
        f"(SELECT {_TICKET_FIELDS}, {_RELATED_JSON} {_TICKET_FROM} AND {column} = {{}}) t ON true"
    )


_CONTEXT = {
    (named, by_id): _numbered(_context_sql(named, by_id))
    for named in (True, False)
    for by_id in (True, False)
}
""":func:`context`'s statement by (scanner named, ticket named by id)."""


def connection() -> Any:
    """A pooled PostgreSQL connection for one scan's read and write (:func:`context` or
    :func:`admit`, :func:`write_one`) outside any transaction, so that each statement commits by
    itself: asyncpg's ``Pool.acquire()``, an async context manager (no generator of our own
    around it). They go to asyncpg as they are (numbered parameters, prepared once per
    connection): Piccolo's query building cost a third of a scan's own CPU, and a second checkout
    of the pool more."""
    pool = postgres_pool(Ticket._meta.db)
    assert pool is not None, "no PostgreSQL pool"
    return pool.acquire()


async def context(
    held: Any,
    organization_id: UUID,
    scanner_id: UUID | None,
    ticket_id: UUID | None,
    code: str | None,
) -> Row | None:
    """One scan's scanner (the named one, or the oldest active), its profile with its target
    lists (``target_event_ids`` ...), and the ticket named by id or code with what the decision
    and the result need, the other tickets of its order included as JSON (``related_json``) when
    its event has order scanning (null columns when there is no such ticket): one statement on
    ``held`` (:func:`connection`). None when there is no such scanner."""
    scanner_args = [] if scanner_id is None else [scanner_id]
    sql = _CONTEXT[scanner_id is not None, ticket_id is not None]
    value = ticket_id if ticket_id is not None else code
    row = await held.fetchrow(sql, organization_id, *scanner_args, organization_id, value)
    return None if row is None else dict(row)


_ALLOWED = """
    x.scanner_active AND x.id IS NOT NULL
    AND x.signed_code IS NOT DISTINCT FROM COALESCE({}::varchar, x.signed_code)
    AND (x.target_event_ids IS NULL OR x.event_id = ANY(x.target_event_ids))
    AND (x.target_ticket_type_ids IS NULL OR x.ticket_type_id = ANY(x.target_ticket_type_ids))
    AND (x.target_timeslot_ids IS NULL OR x.event_timeslot_id = ANY(x.target_timeslot_ids))
    AND (x.opens_minutes_before_start IS NULL
         OR a.at >= x.timeslot_starts_at - make_interval(mins => x.opens_minutes_before_start))
    AND (x.closes_minutes_after_end IS NULL
         OR a.at <= x.timeslot_ends_at + make_interval(mins => x.closes_minutes_after_end))
    AND (x.valid_from IS NULL OR LEAST(a.at, a.received_at) >= x.valid_from)
    AND (x.valid_until IS NULL OR GREATEST(a.at, a.received_at) <= x.valid_until)"""
"""Section 5's steps 3 to 6 passed (``decide`` before the direction and the ticket's own
state), read off :func:`context`'s row ``x`` and the attempt ``a``: the scanner active; the
ticket found (by its signed code, when the scan gave one); inside the profile's targets and
windows."""
_KIND = f"""
    CASE WHEN ({_ALLOWED}) IS NOT TRUE THEN NULL
         WHEN a.direction = 'exit' THEN CASE WHEN x.inside THEN 'exit' END
         WHEN a.direction <> 'entry' OR x.order_status <> 'confirmed' THEN NULL
         WHEN x.status = 'valid' AND NOT x.inside AND x.presence_at IS NULL THEN 'admit'
         WHEN x.status = 'scanned' AND (x.entry_policy = 'multiple'
              OR x.entry_policy = 'reentry' AND NOT x.inside) THEN 'reenter'
    END"""
"""Which valid scan ``decide`` certainly makes of the attempt, when it is one of three:
``admit``, a first admission (the ticket ``valid`` and never present, its order ``confirmed``);
``exit``, under any policy, of a ticket inside; ``reenter``, an entry of a ticket ``scanned``
whose order is ``confirmed``: under ``multiple`` (a pass, inside or not) or under ``reentry``
(a ticket out). Early or late: :func:`_admit_sql` writes what :meth:`TicketState.after` makes of
it (a late upload changes no presence). NULL for everything else (refusals, duplicates, a status
or an order status not listed here), which Python then decides: this may say NULL where
``decide`` says valid, never a kind where it does not."""

_REFUSAL = """
    CASE WHEN x.id IS NULL
              OR x.signed_code IS DISTINCT FROM COALESCE({}::varchar, x.signed_code) THEN NULL
         WHEN NOT x.scanner_active THEN 'scanner_inactive'
         WHEN x.event_id <> ALL(x.target_event_ids) THEN 'event_not_allowed'
         WHEN x.ticket_type_id <> ALL(x.target_ticket_type_ids) THEN 'ticket_type_not_allowed'
         WHEN x.event_timeslot_id <> ALL(x.target_timeslot_ids) THEN 'timeslot_not_allowed'
         WHEN a.at < x.timeslot_starts_at - make_interval(mins => x.opens_minutes_before_start)
              THEN 'too_early'
         WHEN a.at > x.timeslot_ends_at + make_interval(mins => x.closes_minutes_after_end)
              THEN 'too_late'
         WHEN LEAST(a.at, a.received_at) < x.valid_from THEN 'too_early'
         WHEN GREATEST(a.at, a.received_at) > x.valid_until THEN 'too_late'
         WHEN a.direction = 'exit' THEN CASE WHEN NOT x.inside THEN 'not_inside' END
         WHEN a.direction <> 'entry' THEN NULL
         WHEN x.status = 'cancelled' OR x.order_status = 'cancelled' THEN 'cancelled'
         WHEN x.order_status = 'pending' THEN 'order_not_confirmed'
         WHEN x.status <> 'scanned' THEN NULL
         WHEN COALESCE(x.entry_policy, 'single') = 'single' THEN 'already_scanned'
         WHEN x.entry_policy = 'reentry' AND x.inside THEN 'already_inside'
    END"""
"""The reason of the refusal ``decide`` gives the attempt (section 5's steps 3 to 6 in their
order, then section 17's exit and re-entry rules), read off the same row as :data:`_KIND`; NULL
when the ticket is not found (a 404, nothing written) or the scan is valid. A condition on a
bound or a target list the profile does not have is NULL, which passes, as in ``decide``."""
_REFUSAL_STATUS = (
    "CASE x.refusal WHEN 'cancelled' THEN 'cancelled' WHEN 'already_scanned' THEN 'scanned' "
    "WHEN 'already_inside' THEN 'scanned' ELSE 'not_allowed' END"
)
"""The status that goes with a refusal's reason (``decide``)."""

PAYLOAD_IDS = {
    "ticket_id": (UUID(int=1), "x.id"),
    "order_id": (UUID(int=2), "x.order_id"),
    "event_id": (UUID(int=3), "x.event_id"),
    "scanner_id": (UUID(int=4), "x.scanner_id"),
}
"""The ids of an admission's ``ticket.scanned`` payload, which :func:`admit` reads: the caller
encodes the payload with these stand-ins (field -> stand-in), and the statement puts each field's
value (the column) in place of its stand-in, so that the payload is the caller's encoding."""
_PAYLOAD = "{}::text"
for _stand_in, _column in PAYLOAD_IDS.values():
    _PAYLOAD = f"replace({_PAYLOAD}, '{_stand_in}', {_column}::text)"


_FIRST_ATTEMPT = (
    "SELECT ticket_id AS first_ticket_id, status AS first_status, reason AS first_reason, "
    "result_scanned_at AS first_result_scanned_at, scanned_at AS first_scanned_at, "
    "direction AS first_direction, result_inside AS first_result_inside "
    "FROM scans WHERE organization_id = {} AND nonce = {}::varchar"
)
"""The scan log's first attempt of the scan's nonce (:func:`first_attempts`' columns, each
``first_``), for :func:`admit`: no row without a nonce or when it is new. A scan without a nonce
skips the lookup (:func:`admit` passes the condition ``{}::varchar IS NOT NULL`` before it):
without it, a plan that scans the organization's rows by ``scans_organization_created`` and
filters on the nonce read them all for a NULL nonce (measured: 0.74 -> 1.1 ms of PostgreSQL's CPU
per first admission in ``bench/run.py``, which sends none)."""


def _admit_sql(named_scanner: bool, by_id: bool) -> str:
    """The statement of :func:`admit`: the read (:func:`_context_sql`) with the attempt (``at``,
    ``received_at``, ``direction``), its ``kind`` and its ``refusal`` in one materialized row
    ``x``, the nonce's first attempt ``f``, and the write ``w`` (a valid scan of its kind, or a
    refusal: the log row alone). Each CTE and join is a node PostgreSQL sets up on every scan,
    and each join projects the read's columns again: hence the attempt, the kind and the refusal
    in ``x`` rather than CTEs of their own."""
    admit, exit_, valid = "x.kind = 'admit'", "x.kind = 'exit'", "x.kind IS NOT NULL"
    scanned_at = f"CASE WHEN {admit} THEN x.at ELSE x.scanned_at END"
    latest = "(x.presence_at IS NULL OR x.at > x.presence_at)"
    inside = f"CASE WHEN {latest} THEN NOT {exit_} ELSE x.inside END"
    presence_at = f"CASE WHEN {latest} THEN x.at ELSE x.presence_at END"
    event = "CASE WHEN x.kind <> 'exit' THEN {} END"
    return _numbered(
        "WITH x AS MATERIALIZED (SELECT x.*, a.*, "
        f"{_KIND} AS kind, {_REFUSAL} AS refusal "
        f"FROM ({_context_sql(named_scanner, by_id)}) x, "
        "(SELECT {}::timestamptz AS at, {}::timestamptz AS received_at, "
        "{}::varchar AS direction) a), "
        f"f AS ({_FIRST_ATTEMPT} AND {{}}::varchar IS NOT NULL), "
        "w AS (SELECT scan_write({}, x.scanner_id, x.received_at, gen_random_uuid(), x.id, "
        f"CASE WHEN {valid} THEN 'valid' ELSE {_REFUSAL_STATUS} END, "
        f"CASE WHEN NOT {valid} THEN x.refusal END, "
        f"x.at, {{}}, {scanned_at}, x.direction, "
        f"CASE WHEN {valid} THEN {inside} ELSE x.inside END, {valid}, x.event_id, "
        "x.event_timeslot_id, x.status, x.inside, x.presence_at, "
        f"CASE WHEN {admit} THEN 'scanned' ELSE x.status END, {scanned_at}, {inside}, "
        f"{presence_at}, ({admit})::int, ({inside})::int - x.inside::int, (NOT {exit_})::int, "
        f"({exit_})::int, {COUNTER_SHARDS}, {event.format('gen_random_uuid()')}, "
        f"{event.format('{}::varchar')}, {event.format(f'({_PAYLOAD})::json')}, {{}}) "
        "AS written FROM x WHERE (x.kind IS NOT NULL OR x.refusal IS NOT NULL) "
        "AND NOT EXISTS (SELECT FROM f)) "
        "SELECT x.*, f.*, (SELECT written FROM w) AS written FROM x LEFT JOIN f ON true"
    )


_ADMIT = {
    (named, by_id): _admit_sql(named, by_id) for named in (True, False) for by_id in (True, False)
}
""":func:`admit`'s statement by (scanner named, ticket named by id)."""


Written = Literal["written", "relay", "nonce_used"]
"""What ``scan_write`` did: wrote the scan (``relay``: with an outbox row for the relay), or
nothing (the nonce was used before)."""


class TicketChanged(Exception):
    """The ticket's state changed between the read and the write (``scan_write`` raised)."""


SCAN_WRITE = "SELECT scan_write(" + ", ".join(f"${n}" for n in range(1, 32)) + ")"


async def write_one(
    held: Any,
    organization_id: UUID,
    scanner_id: UUID,
    received_at: datetime,
    log: Row,
    change: Change | None,
    event: tuple[UUID, str, str] | None,
    notify: str | None,
) -> Written:
    """Write one decided scan with ``scan_write`` on ``held`` (:func:`connection`; one statement,
    committed by itself; see its migration, 2026-11-26T12:30): the log row ``log``, the ticket's
    ``change`` and its attendance, the outbox ``event`` (id, type, JSON payload) with a
    ``NOTIFY`` on ``notify`` (none when None; migration 2026-11-26T14:20), or already relayed
    when no subscription takes it (migration 2026-11-27T01:00). :class:`TicketChanged` when the
    ticket changed since it was read (nothing written)."""
    changed = change or Change(UUID(int=0), UUID(int=0), UUID(int=0), "", False, None)
    outbox_id, event_type, payload = event or (None, None, None)
    try:
        outcome = await held.fetchval(
            SCAN_WRITE,
            organization_id, scanner_id, received_at,
            log["id"], log["ticket_id"], log["status"], log["reason"], log["scanned_at"],
            log["nonce"], log["result_scanned_at"], log["direction"], log["result_inside"],
            change is not None, changed.event_id, changed.timeslot_id,
            changed.old_status, changed.old_inside, changed.old_presence_at,
            changed.status, changed.scanned_at, changed.inside, changed.presence_at,
            changed.admitted, changed.inside_change, changed.entries, changed.exits,
            COUNTER_SHARDS, outbox_id, event_type, payload, notify,
        )  # fmt: skip
    except Exception as error:
        if getattr(error, "sqlstate", None) == "TK409":
            raise TicketChanged() from error
        raise
    return cast(Written, outcome)


async def admit(
    held: Any,
    organization_id: UUID,
    scanner_id: UUID | None,
    ticket_id: UUID | None,
    code: str | None,
    signed_code: str | None,
    scanned_at: datetime,
    received_at: datetime,
    direction: str,
    nonce: str | None,
    event: tuple[str, str],
    notify: str | None,
) -> Row | None:
    """A single scan in one statement when it is certainly one of :data:`_KIND`'s valid scans
    (a first admission, an exit, a re-entry or a pass), a refusal (:data:`_REFUSAL`: a duplicate, a
    ticket not inside, a scanner's rule...) or the retry of a used nonce: :func:`context`'s
    read, with the nonce's first attempt (``first_ticket_id`` ..., null when the nonce is new or
    None), the ``kind`` and the ``refusal``; when there is either and no first attempt, the
    write of :func:`write_one` for that scan (``scan_write``: the log row; for a valid scan the
    ticket's state and attendance as ``plan`` would change them, and for an entry the outbox
    ``event``: its type and its JSON payload with the stand-ins of :data:`PAYLOAD_IDS`; the rows'
    ids drawn by PostgreSQL), committed by itself. The row as :func:`context` reads it (before the
    write), with the attempt's ``at``, ``received_at`` and ``direction``, the ``kind``, the
    ``refusal``, and ``written``: what ``scan_write`` answered, or None when the scan was left to
    the caller (nothing written).
    None when there is no such scanner; :class:`TicketChanged` when the ticket changed between
    the read and the write."""
    scanner_args = [] if scanner_id is None else [scanner_id]
    sql = _ADMIT[scanner_id is not None, ticket_id is not None]
    value = ticket_id if ticket_id is not None else code
    event_type, payload = event
    try:
        row = await held.fetchrow(
            sql,
            signed_code, signed_code,
            organization_id, *scanner_args, organization_id, value,
            scanned_at, received_at, direction,
            organization_id, nonce, nonce,
            organization_id, nonce, event_type, payload, notify,
        )  # fmt: skip
    except Exception as error:
        if getattr(error, "sqlstate", None) == "TK409":
            raise TicketChanged() from error
        raise
    return None if row is None else dict(row)
