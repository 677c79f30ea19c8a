"""Each event's Ed25519 keys for signed ticket codes (CONTRACT.md section 17,
docs/signed-codes.md): made on first use, rotated, retired; the codes signed when tickets are
written; the revocations a door that verifies offline must know.

- **First use**: the first ticket of an event signed (or its first rotation) inserts a key with
  ``current`` true and ``ON CONFLICT DO NOTHING`` against the unique index on the event's current
  key, then reads the current key: two processes racing make one key. Reading the keys writes
  nothing: an event with no ticket yet has no key (there is no code to verify).
- **Signing**: the ticket's code is signed in Python when the ticket is written, in the order's
  transaction, with the event's current key from a per-process cache (at most
  :data:`CACHE_SECONDS` old, so a rotation reaches every process within that time), and stored
  with the key's row id (``tickets.scan_key_id``). Lists never sign.
- **Rotation** adds a key that becomes current; earlier codes stay good.
- **Retirement** (never of the current key: 409) re-signs the key's tickets with the current key,
  records them as ``code_replaced`` revocations, and gives the key's row a new ``id``, all in one
  transaction that first locks the row. The tickets' foreign key on ``scan_key_id`` is what makes
  a stale cache harmless: a ticket being written with the retired key either committed before the
  lock was granted (and is re-signed), or its foreign-key check waits for the retirement and then
  finds no row with that id, and the order is tried again with a fresh key
  (:func:`retrying_retired_key`). No code is ever issued with a retired key.
- **Private keys** are kept as PKCS#8 PEM in ``scan_keys``, like the access tokens' keys
  (``app/services/oauth/signing_keys.py``).
"""

from __future__ import annotations

import functools
import sqlite3
import time
import uuid
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, ParamSpec, TypeVar
from uuid import UUID

import asyncpg
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey
from cryptography.hazmat.primitives.serialization import (
    Encoding,
    NoEncryption,
    PrivateFormat,
    load_pem_private_key,
)

from app import signed_codes
from app.errors import CurrentScanKey, InvalidInput, NotFound
from app.principal import Principal, requires
from app.schemas.scan_keys import Revocation, Revocations, ScanKey, ScanKeys
from app.services import audit
from app.services.audit import Target
from app.services.lookup import owned_row
from app.timeutil import as_utc, utcnow
from db import revocations as revocation_log
from db.locks import locked
from db.rows import postgres
from db.tables import Event, Ticket
from db.tables import ScanKey as ScanKeyTable
from db.transactions import after_commit, transaction

CACHE_SECONDS = 30.0
"""How long a process signs with the event's current key as it read it (a rotation reaches
every process within this time; retirement does not depend on it)."""
CACHE_EVENTS = 10_000
"""Events whose key a process keeps at most (the cache starts over beyond)."""
FOREIGN_KEY = "tickets_scan_key_id_fkey"
SQLITE_FOREIGN_KEY = "FOREIGN KEY constraint failed"
RESIGN_BATCH = 2_000

P = ParamSpec("P")
T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class Signer:
    """The event's current key as this process holds it."""

    row_id: UUID
    kid: bytes
    private: Ed25519PrivateKey
    event_id: UUID

    def sign(self, ticket_id: UUID, ticket_type_id: UUID, timeslot_id: UUID) -> str:
        ids = (ticket_id, self.event_id, ticket_type_id, timeslot_id)
        return signed_codes.sign(self.private, signed_codes.Claims(self.kid, *ids))


_cache: dict[UUID, tuple[Signer, float]] = {}


def forget_cached_keys() -> None:
    """Drop every cached key (the next signing reads the current keys again)."""
    _cache.clear()


def _private_pem(key: Ed25519PrivateKey) -> str:
    return key.private_bytes(Encoding.PEM, PrivateFormat.PKCS8, NoEncryption()).decode()


def _load_private(pem: str) -> Ed25519PrivateKey:
    key = load_pem_private_key(pem.encode(), password=None)
    assert isinstance(key, Ed25519PrivateKey), "scan keys are Ed25519"
    return key


def _new_row(organization_id: UUID, event_id: UUID, now: datetime) -> ScanKeyTable:
    private = Ed25519PrivateKey.generate()
    public = private.public_key()
    return ScanKeyTable(
        id=uuid.uuid4(),
        organization_id=organization_id,
        event_id=event_id,
        kid=signed_codes.b64url(signed_codes.kid_of(public)),
        public_key=signed_codes.b64url(signed_codes.raw_public_key(public)),
        private_pem=_private_pem(private),
        current=True,
        created_at=now,
    )


async def _current_row(event_id: UUID) -> dict[str, Any] | None:
    return (
        await ScanKeyTable.select(
            ScanKeyTable.id, ScanKeyTable.kid, ScanKeyTable.private_pem, ScanKeyTable.current
        )
        .where(ScanKeyTable.event_id == event_id, ScanKeyTable.current.eq(True))
        .first()
    )


async def _ensure_current(
    organization_id: UUID, event_id: UUID, first: ScanKeyTable | None = None
) -> dict[str, Any]:
    """The event's current key, made (``first``, or a new key) when it has none (one key however
    many race: the caller's ``first`` is current only when its id is the one returned)."""
    row = await _current_row(event_id)
    if row is None:
        new = first or _new_row(organization_id, event_id, utcnow())
        await ScanKeyTable.insert(new).on_conflict(action="DO NOTHING")
        row = await _current_row(event_id)
        assert row is not None, "the event's current key was just made"
    return row


def _signer(event_id: UUID, row: dict[str, Any]) -> Signer:
    kid = signed_codes.unb64url(row["kid"])
    return Signer(row["id"], kid, _load_private(row["private_pem"]), event_id)


def cached_signer(event_id: UUID) -> Signer | None:
    """The event's key as :func:`signer` holds it, without reading or making it: None when this
    process has none fresh. A key is cached only for an event of an organization that read or
    made it, but not per organization: the caller checks that the event is the caller's."""
    cached = _cache.get(event_id)
    if cached is not None and time.monotonic() - cached[1] < CACHE_SECONDS:
        return cached[0]
    return None


async def prepare(organization_id: UUID, event_id: UUID) -> None:
    """Read (and on first use make) the event's current key before an order takes any other
    lock, when this process has not cached it; nothing when it has, or when the event is not the
    organization's (the order then fails on its own). Without it two first orders of a new event
    could deadlock: each waiting for the other's first key while holding its timeslot's row."""
    if cached_signer(event_id) is not None:
        return
    owned = await Event.exists().where(
        Event.id == event_id, Event.organization_id == organization_id
    )
    if owned:
        await signer(organization_id, event_id)


async def signer(organization_id: UUID, event_id: UUID) -> Signer:
    """The key to sign the event's new codes with (cached; made on first use), of an event known
    to be the organization's. Call inside the transaction that writes the tickets."""
    cached = cached_signer(event_id)
    if cached is not None:
        return cached
    found = _signer(event_id, await _ensure_current(organization_id, event_id))

    async def keep() -> None:  # only once committed: a key made by a rolled-back order is gone
        if len(_cache) >= CACHE_EVENTS:
            _cache.clear()
        _cache[event_id] = (found, time.monotonic())

    await after_commit(keep)
    return found


def _is_retired_key_violation(error: BaseException) -> bool:
    """The tickets' foreign key on ``scan_key_id`` refused a key retired meanwhile, and nothing
    else: on PostgreSQL by the constraint's name. SQLite names no constraint ("FOREIGN KEY
    constraint failed"); there an order's transaction holds the write lock from its start, so
    the rows it checked (event, timeslot, ticket types) stay, and the key is the one reference
    that can be gone. A deadlock is not this: it surfaces as it is (:func:`prepare` makes the
    first key before an order takes any lock, so that two first orders do not deadlock)."""
    if isinstance(error, asyncpg.ForeignKeyViolationError):
        return error.constraint_name == FOREIGN_KEY
    return isinstance(error, sqlite3.IntegrityError) and str(error) == SQLITE_FOREIGN_KEY


def retrying_retired_key(operation: Callable[P, Awaitable[T]]) -> Callable[P, Awaitable[T]]:
    """Run ``operation`` (which writes tickets in a transaction of its own) once more when the
    key it signed with was retired meanwhile (the tickets' foreign key refused it), with the
    cache dropped, so the second run signs with the current key."""

    @functools.wraps(operation)
    async def run(*args: P.args, **kwargs: P.kwargs) -> T:
        try:
            return await operation(*args, **kwargs)
        except Exception as error:
            if not _is_retired_key_violation(error):
                raise
        forget_cached_keys()
        return await operation(*args, **kwargs)

    return run


def _record(row: dict[str, Any]) -> ScanKey:
    retired = row["retired_at"]
    return ScanKey(
        kid=row["kid"],
        algorithm="Ed25519",
        public_key=row["public_key"],
        created_at=as_utc(row["created_at"]),
        retired_at=None if retired is None else as_utc(retired),
    )


KEY_COLUMNS = (
    ScanKeyTable.kid,
    ScanKeyTable.public_key,
    ScanKeyTable.created_at,
    ScanKeyTable.retired_at,
)


async def _keys(event_id: UUID) -> list[dict[str, Any]]:
    return (
        await ScanKeyTable.select(*KEY_COLUMNS)
        .where(ScanKeyTable.event_id == event_id)
        .order_by(ScanKeyTable.created_at)
        .order_by(ScanKeyTable.kid)
    )


@requires("tickets.read")
async def event_keys(principal: Principal, event_id: UUID) -> ScanKeys:
    """The event's keys, oldest first; none before its first ticket is signed (a read writes
    nothing)."""
    async with transaction():
        await owned_row(Event, event_id, principal.organization_id, "event")
        rows = await _keys(event_id)
    return ScanKeys(keys=[_record(row) for row in rows])


@requires("tickets.read")
async def keys_by_event(principal: Principal, event_ids: list[UUID]) -> dict[UUID, list[ScanKey]]:
    """The keys of each of the caller's events named (GraphQL's ``Event.scanKeys`` for a page of
    events): one statement to read them, none for an event without a ticket signed yet. Events
    of others are left out."""
    owned = {
        row["id"]
        for row in await Event.select(Event.id).where(
            Event.id.is_in(event_ids), Event.organization_id == principal.organization_id
        )
    }
    if not owned:
        return {}

    rows = (
        await ScanKeyTable.select(ScanKeyTable.event_id, *KEY_COLUMNS)
        .where(ScanKeyTable.event_id.is_in(sorted(owned)))
        .order_by(ScanKeyTable.created_at)
        .order_by(ScanKeyTable.kid)
    )
    found: dict[UUID, list[ScanKey]] = {event_id: [] for event_id in owned}
    for row in rows:
        found[row["event_id"]].append(_record(row))
    return found


async def _locked_event(principal: Principal, event_id: UUID) -> dict[str, Any]:
    """The caller's event, locked against other rotations and retirements of its keys."""
    row = await locked(
        Event.select(Event.id, Event.title).where(
            Event.id == event_id, Event.organization_id == principal.organization_id
        ),
        "NO KEY UPDATE",
    ).first()
    if row is None:
        raise NotFound.resource("event", event_id)
    return row


@requires("events.write")
async def rotate_key(principal: Principal, event_id: UUID) -> ScanKey:
    """Add a key to the event that signs its codes from now on; the earlier keys stay good. An
    event without a key gets this one as its first (one key, not a first and a second)."""
    async with transaction():
        event = await _locked_event(principal, event_id)
        row = _new_row(principal.organization_id, event_id, utcnow())
        current = await _ensure_current(principal.organization_id, event_id, row)
        if current["id"] != row.id:
            row.created_at = utcnow()  # after the key it follows, even one made while it waited
            await ScanKeyTable.update({ScanKeyTable.current: None}).where(
                ScanKeyTable.event_id == event_id, ScanKeyTable.current.eq(True)
            )
            await ScanKeyTable.insert(row)
        await audit.record(
            principal,
            "scan_key.rotate",
            Target("event", event_id, event["title"]),
            {"kid": row.kid},
        )
    _cache.pop(event_id, None)
    return _record(row.to_dict())


def _check_kid(kid: str) -> bytes:
    try:
        raw = signed_codes.unb64url(kid)
    except ValueError:
        raw = b""
    if len(raw) != signed_codes.KID_BYTES or signed_codes.b64url(raw) != kid:
        raise InvalidInput.field("kid", "not a key id (11 characters of base64url)")
    return raw


@requires("events.write")
async def retire_key(principal: Principal, event_id: UUID, kid: str) -> ScanKey:
    """Retire one of the event's keys: its tickets get new codes signed with the current key
    (each a ``code_replaced`` revocation); 409 for the current key; retiring again changes
    nothing."""
    now = utcnow()
    async with transaction():
        event = await _locked_event(principal, event_id)
        _check_kid(kid)
        found = await locked(
            ScanKeyTable.select(ScanKeyTable.id, ScanKeyTable.current, *KEY_COLUMNS).where(
                ScanKeyTable.event_id == event_id, ScanKeyTable.kid == kid
            ),
            "UPDATE",
        ).first()
        if found is None:
            raise NotFound(f"No scan key {kid} of event {event_id}")
        if found["retired_at"] is not None:
            return _record(found)
        if found["current"]:
            raise CurrentScanKey(
                f"Key {kid} signs the event's new codes; rotate the keys first "
                f"(POST /events/{event_id}/scan-keys/rotate), then retire it"
            )
        current = _signer(event_id, await _ensure_current(principal.organization_id, event_id))
        replaced = await _resign(event_id, found["id"], current, now)
        await revocation_log.record(
            principal.organization_id,
            event_id,
            [(ticket_id, "code_replaced", kid) for ticket_id in replaced],
        )
        await ScanKeyTable.update(
            {ScanKeyTable.id: uuid.uuid4(), ScanKeyTable.retired_at: now}
        ).where(ScanKeyTable.id == found["id"])
        await audit.record(
            principal,
            "scan_key.retire",
            Target("event", event_id, event["title"]),
            {"kid": kid, "codes_replaced": len(replaced)},
        )
    _cache.pop(event_id, None)
    return _record({**found, "retired_at": now})


async def _resign(event_id: UUID, key_id: UUID, current: Signer, now: datetime) -> list[UUID]:
    """Sign every ticket of ``key_id`` again with ``current``; the ids of those not cancelled."""
    rows = await Ticket.select(
        Ticket.id, Ticket.ticket_type_id, Ticket.event_timeslot_id, Ticket.status
    ).where(Ticket.event_id == event_id, Ticket.scan_key_id == key_id)
    await _store_codes(
        [
            (row["id"], current.sign(row["id"], row["ticket_type_id"], row["event_timeslot_id"]))
            for row in rows
        ],
        current.row_id,
        now,
    )
    return [row["id"] for row in rows if row["status"] != "cancelled"]


async def _store_codes(
    codes: Sequence[tuple[UUID, str]], key_id: UUID, now: datetime | None
) -> None:
    """Write each ticket's new code (and ``updated_at`` when ``now`` is given)."""
    for start in range(0, len(codes), RESIGN_BATCH):
        batch = codes[start : start + RESIGN_BATCH]
        if postgres():
            await Ticket.raw(
                "UPDATE tickets AS t SET signed_code = c.code, scan_key_id = {}, "
                "updated_at = COALESCE({}, t.updated_at) "
                "FROM unnest({}::uuid[], {}::text[]) AS c(id, code) WHERE t.id = c.id",
                key_id,
                now,
                [ticket_id for ticket_id, _ in batch],
                [code for _, code in batch],
            )
            continue
        for ticket_id, code in batch:
            values: dict[Any, Any] = {Ticket.signed_code: code, Ticket.scan_key_id: key_id}
            if now is not None:
                values[Ticket.updated_at] = now
            await Ticket.update(values).where(Ticket.id == ticket_id)


TICKET_COLUMNS = (
    Ticket.id,
    Ticket.organization_id,
    Ticket.event_id,
    Ticket.ticket_type_id,
    Ticket.event_timeslot_id,
)


async def sign_unsigned_tickets(
    rows: Sequence[Mapping[str, Any]] | None = None,
) -> dict[UUID, str]:
    """Give a code to each ticket without one (``rows``: those tickets' rows; None: every such
    ticket, event by event, as the migration does), signed with its event's current key; the
    codes of ``rows`` by ticket id. Tickets written by a release before signed codes have none."""
    signed: dict[UUID, str] = {}
    if rows is not None:
        by_event: dict[UUID, list[Mapping[str, Any]]] = {}
        for row in rows:
            by_event.setdefault(row["event_id"], []).append(row)
        for event_rows in by_event.values():
            signed.update(await _sign_event_tickets(event_rows))
        return signed
    events = await Ticket.select(Ticket.event_id).where(Ticket.signed_code.is_null()).distinct()
    for event in events:
        tickets = await Ticket.select(*TICKET_COLUMNS).where(
            Ticket.event_id == event["event_id"], Ticket.signed_code.is_null()
        )
        if tickets:
            await _sign_event_tickets(tickets)
    return signed


async def _sign_event_tickets(tickets: Sequence[Mapping[str, Any]]) -> dict[UUID, str]:
    """Sign and store the codes of tickets of one event (in one transaction)."""
    event_id = tickets[0]["event_id"]
    async with transaction():
        key = _signer(event_id, await _ensure_current(tickets[0]["organization_id"], event_id))
        codes = [
            (row["id"], key.sign(row["id"], row["ticket_type_id"], row["event_timeslot_id"]))
            for row in tickets
        ]
        await _store_codes(codes, key.row_id, None)
    return dict(codes)


@requires("tickets.read")
async def event_revocations(
    principal: Principal, event_id: UUID, since: datetime | None
) -> Revocations:
    """The event's revocations at or after ``since`` (all of them when None) up to now, and the
    time to pass as the next ``since``."""
    async with transaction():
        await owned_row(Event, event_id, principal.organization_id, "event")
        until = await revocation_log.horizon(event_id)
        rows = await revocation_log.between(event_id, since, until)
    return Revocations(
        data=[
            Revocation(
                ticket_id=row["ticket_id"],
                reason=row["reason"],
                kid=row["kid"],
                revoked_at=as_utc(row["revoked_at"]),
            )
            for row in rows
        ],
        since=since,
        next_since=until,
    )


VerifyingKey = tuple[UUID, Ed25519PublicKey]
"""A key's organization and public half."""
_verifying: dict[tuple[UUID, bytes], VerifyingKey] = {}


async def _verifying_key(event_id: UUID, kid: bytes) -> VerifyingKey | None:
    """The public half of the event's key ``kid`` unless it was retired when first looked up;
    kept for the process's life (a key's public half never changes; a code of a key retired
    later names a ticket whose code has since been replaced, which the scan checks)."""
    found = _verifying.get((event_id, kid))
    if found is not None:
        return found
    row = (
        await ScanKeyTable.select(ScanKeyTable.organization_id, ScanKeyTable.public_key)
        .where(
            ScanKeyTable.event_id == event_id,
            ScanKeyTable.kid == signed_codes.b64url(kid),
            ScanKeyTable.retired_at.is_null(),
        )
        .first()
    )
    if row is None:
        return None
    public = Ed25519PublicKey.from_public_bytes(signed_codes.unb64url(row["public_key"]))
    if len(_verifying) >= CACHE_EVENTS:
        _verifying.clear()
    found = _verifying[(event_id, kid)] = (row["organization_id"], public)
    return found


async def verified_ticket(organization_id: UUID, code: str) -> UUID | None:
    """The id of the ticket a signed code names when the organization's key of the event it
    names signed it (looked up by the code's kid, cached per process); None otherwise
    (malformed, unknown or retired key, another organization's, bad signature). The caller still
    checks that the ticket's code is this one (a retired key's tickets were signed again)."""
    found = signed_codes.read(code)
    if found is None:
        return None
    claims, payload, signature = found
    key = await _verifying_key(claims.event_id, claims.kid)
    if key is None or key[0] != organization_id:
        return None
    try:
        key[1].verify(signature, payload)
    except InvalidSignature:
        return None
    return claims.ticket_id
