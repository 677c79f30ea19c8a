"""The audit log: who did what, when, of every admin action, whichever way it was made.

A service that changes the organization's setup (API keys, webhooks, OAuth applications and the
authorizations users gave them, scanners and profiles, members and their roles) calls
:func:`record` inside the transaction of the change, so the entry and the change are committed
together or not at all. The actor is a :class:`~app.principal.Principal` (a person in the
dashboard, an API key, an OAuth client) or an operator at the command line
(:meth:`Actor.operator`). Orders confirmed or cancelled by a person in the dashboard are recorded
too; the same operations made by an integration through the API are the shop's business, not
administration, and are not (docs/decisions.md).

An entry never holds a secret: targets are named by id and a label (a webhook by its URL without
query string, a key by its name and prefix), and ``details`` carries only what changed.
"""

from __future__ import annotations

import getpass
import os
from collections import defaultdict
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit, urlunsplit
from uuid import UUID

import msgspec
from piccolo.columns import Column
from piccolo.table import Table

from app.pagination import Page
from app.principal import Principal, requires
from app.resources import Resource, Rows
from app.schemas.audit import ActorKind, AuditEntry
from app.timeutil import utcnow
from db.tables import (
    ApiKey,
    Event,
    OAuthClient,
    ScannerProfile,
    TicketType,
    Timeslot,
    User,
)
from db.tables import AuditEntry as AuditTable

NAMED_DETAILS: dict[str, tuple[type[Table], Column]] = {
    "profile_id": (ScannerProfile, ScannerProfile.name),
    "event_ids": (Event, Event.title),
    "ticket_type_ids": (TicketType, TicketType.name),
    "timeslot_ids": (Timeslot, Timeslot.title),
}
"""The ``details`` that hold ids, and the column that names each."""


def _ids(value: Any) -> list[str]:
    return [str(item) for item in (value if isinstance(value, list) else [value]) if item]


async def _with_names(read: Rows) -> Rows:
    """Each entry's ``names``: one statement per kind of id on the page, not one per entry."""
    wanted: dict[str, set[str]] = defaultdict(set)
    rows = [dict(row) for row in read]
    for row in rows:
        if isinstance(row["details"], str):
            row["details"] = msgspec.json.decode(row["details"])
        for key, value in row["details"].items():
            if key in NAMED_DETAILS:
                wanted[key].update(item for item in _ids(value) if _is_uuid(item))
        if row["actor_via"] == "oauth" and row["actor_detail"]:
            wanted["client_id"].add(row["actor_detail"])
    organization_id = rows[0]["organization_id"]
    names: dict[str, str] = {}
    for key, ids in wanted.items():
        if not ids:
            continue
        if key == "client_id":
            found = await OAuthClient.select(
                OAuthClient.client_id.as_alias("id"), OAuthClient.name.as_alias("name")
            ).where(OAuthClient.client_id.is_in(sorted(ids)))
        else:
            table, column = NAMED_DETAILS[key]
            primary = table._meta.primary_key
            found = await table.select(primary.as_alias("id"), column.as_alias("name")).where(
                primary.is_in([UUID(item) for item in ids]),
                table._meta.get_column_by_name("organization_id") == organization_id,
            )
        names.update({str(row["id"]): row["name"] for row in found})
    for row in rows:
        held = [row["actor_detail"]] + [
            item
            for key, value in row["details"].items()
            if key in NAMED_DETAILS
            for item in _ids(value)
        ]
        row["names"] = {item: names[item] for item in held if item in names}
    return rows


def _is_uuid(text: str) -> bool:
    try:
        UUID(text)
    except ValueError:
        return False
    return True


AUDIT_LOG = Resource(
    table=AuditTable, record=AuditEntry, kind="audit entry", scope=None, enrich=_with_names
)
"""The organization's entries, newest first (``created_at:desc``, the lists' default), with the
names of the ids they hold."""

LABEL_LENGTH = 300
DETAIL_LENGTH = 200


@dataclass(frozen=True, slots=True)
class Actor:
    """Who acts, as the audit log names them."""

    organization_id: UUID
    via: ActorKind
    user_id: UUID | None = None
    detail: str | None = None

    @classmethod
    def operator(cls, organization_id: UUID) -> Actor:
        """An operator at the command line, named by their account on the machine."""
        return cls(organization_id, "cli", detail=_account()[:DETAIL_LENGTH])


@dataclass(frozen=True, slots=True)
class Target:
    """What an action was done to: its kind, id and a label a person recognises."""

    type: str
    id: object | None
    label: str = ""


def _account() -> str:
    """The operator's account name (``SUDO_USER`` first: the person behind ``sudo``)."""
    try:
        account = getpass.getuser()
    except (KeyError, OSError):
        account = f"uid {os.getuid()}"
    sudo = os.environ.get("SUDO_USER")
    return f"{sudo} (as {account})" if sudo and sudo != account else account


def url_label(url: str) -> str:
    """A webhook URL as the log shows it: without query string or fragment, which may carry a
    token of the receiver."""
    parts = urlsplit(url)
    return urlunsplit((parts.scheme, parts.netloc, parts.path, "", ""))


def by_person(principal: Principal) -> bool:
    """Whether a person signed in to the dashboard is acting (not an integration's credential)."""
    return principal.credential == "session"


async def _actor_of(principal: Principal) -> Actor:
    via: ActorKind
    detail = None
    if principal.credential == "session":
        via = "dashboard"
    elif principal.credential == "oauth":
        via, detail = "oauth", principal.client_id
    else:
        via = "api_key"
        key = (
            await ApiKey.select(ApiKey.name, ApiKey.key_prefix)
            .where(ApiKey.id == principal.credential_id)
            .first()
        )
        if key is not None:
            detail = f"{key['name']} ({key['key_prefix']}…)" if key["name"] else key["key_prefix"]
    return Actor(principal.organization_id, via, principal.user_id, detail)


async def record(
    actor: Principal | Actor,
    action: str,
    target: Target,
    details: Mapping[str, Any] | None = None,
) -> None:
    """Write one entry of ``actor``'s organization; call inside the transaction of the action."""
    if isinstance(actor, Principal):
        actor = await _actor_of(actor)
    email = None
    if actor.user_id is not None:
        row = await User.select(User.email).where(User.id == actor.user_id).first()
        email = None if row is None else row["email"]
    await AuditTable.insert(
        AuditTable(
            organization_id=actor.organization_id,
            actor_user_id=actor.user_id,
            actor_email=email,
            actor_via=actor.via,
            actor_detail=actor.detail,
            action=action,
            target_type=target.type,
            target_id=None if target.id is None else str(target.id),
            target_label=target.label[:LABEL_LENGTH],
            details=msgspec.to_builtins(dict(details or {})),
            created_at=utcnow(),
        )
    )


@requires(None)
async def audit_log(
    principal: Principal,
    *,
    limit: int | None = None,
    offset: int | None = None,
    after: str | None = None,
) -> Page[AuditEntry]:
    """One page of the organization's audit log, newest first: for people signed in to the
    dashboard (admins and members alike), not for API credentials."""
    principal.require_person()
    return await AUDIT_LOG.page(principal, limit=limit, offset=offset, after=after)
