"""Scanners and scanner profiles (scopes scanners.read / scanners.write).

A profile's allowed events, ticket types and timeslots are rows of ``ScannerProfileTarget``, each
a foreign key to the row it allows; an empty list admits everything. Target ids must belong to the
caller's organization, so a profile can never name another organization's rows.
"""

from __future__ import annotations

import operator
from collections import defaultdict
from collections.abc import Mapping
from datetime import datetime
from functools import reduce
from typing import Any
from uuid import UUID

import msgspec
from piccolo.columns import ForeignKey
from piccolo.table import Table

from app.errors import Conflict, FieldError, InvalidInput, NotFound
from app.principal import Principal, requires
from app.records import to_record
from app.resources import Resource, Rows
from app.schemas.decoding import sent
from app.schemas.scanners import (
    Scanner,
    ScannerCreate,
    ScannerProfile,
    ScannerProfileCreate,
    ScannerProfileUpdate,
    ScannerUpdate,
)
from app.services import audit
from app.services.audit import Target
from app.services.lookup import update_owned
from app.timeutil import utcnow, with_offsets
from db.locks import locked
from db.tables import Event, ScannerProfileTarget, TicketType, Timeslot
from db.tables import Scanner as ScannerTable
from db.tables import ScannerProfile as ProfileTable
from db.transactions import transaction

TARGETS: dict[str, tuple[type[Table], ForeignKey[Any]]] = {
    "event_ids": (Event, ScannerProfileTarget.event_id),
    "ticket_type_ids": (TicketType, ScannerProfileTarget.ticket_type_id),
    "timeslot_ids": (Timeslot, ScannerProfileTarget.timeslot_id),
}
"""Body field -> (the table its ids must exist in, the ``ScannerProfileTarget`` column)."""

Targets = dict[str, list[UUID]]
"""A profile's target lists by body field."""


def _with_targets(row: Mapping[str, Any], targets: Targets) -> dict[str, Any]:
    return {**row, **{field: targets.get(field, []) for field in TARGETS}}


async def targets_of(profile_ids: list[UUID]) -> dict[UUID, Targets]:
    """The target lists of each profile, each sorted (one statement for any number of
    profiles)."""
    found: dict[UUID, Targets] = defaultdict(lambda: defaultdict(list))
    if not profile_ids:
        return found
    columns = {field: column._meta.name for field, (_, column) in TARGETS.items()}
    rows = await ScannerProfileTarget.select(
        ScannerProfileTarget.profile_id, *(column for _, column in TARGETS.values())
    ).where(ScannerProfileTarget.profile_id.is_in(profile_ids))
    for row in rows:
        for field, column in columns.items():
            if row[column] is not None:
                found[row["profile_id"]][field].append(row[column])
    for targets in found.values():
        for ids in targets.values():
            ids.sort()
    return found


async def _add_targets(rows: Rows) -> Rows:
    targets = await targets_of([row["id"] for row in rows])
    return [_with_targets(row, targets[row["id"]]) for row in rows]


SCANNERS = Resource(table=ScannerTable, record=Scanner, kind="scanner", scope="scanners.read")
PROFILES = Resource(
    table=ProfileTable,
    record=ScannerProfile,
    kind="scanner profile",
    scope="scanners.read",
    enrich=_add_targets,
)


# Scanners


async def _require_profile(organization_id: UUID, profile_id: UUID) -> None:
    if not await ProfileTable.exists().where(
        ProfileTable.id == profile_id, ProfileTable.organization_id == organization_id
    ):
        raise NotFound.resource("scanner profile", profile_id)


@requires("scanners.write")
async def create_scanner(principal: Principal, data: ScannerCreate) -> Scanner:
    if data.profile_id is not None:
        await _require_profile(principal.organization_id, data.profile_id)
    row = ScannerTable(
        **msgspec.structs.asdict(data),
        organization_id=principal.organization_id,
        created_at=utcnow(),
    )
    async with transaction():
        await row.save()
        await audit.record(
            principal,
            "scanner.create",
            Target("scanner", row.id, data.name),
            {"active": data.active, "profile_id": data.profile_id},
        )
    return to_record(Scanner, row.to_dict())


@requires("scanners.write")
async def update_scanner(principal: Principal, scanner_id: UUID, data: ScannerUpdate) -> Scanner:
    changes = sent(data)
    if changes.get("profile_id") is not None:
        await _require_profile(principal.organization_id, changes["profile_id"])
    async with transaction():
        row = await update_owned(
            ScannerTable, scanner_id, principal.organization_id, "scanner", changes
        )
        if changes:
            target = Target("scanner", scanner_id, row["name"])
            await audit.record(principal, "scanner.update", target, changes)
    return to_record(Scanner, row)


# Scanner profiles


def _check_window(valid_from: datetime | None, valid_until: datetime | None) -> None:
    if valid_from is not None and valid_until is not None and valid_until < valid_from:
        raise InvalidInput.field("valid_until", "must not be before valid_from")


def _profile_details(fields: dict[str, Any]) -> dict[str, Any]:
    """What the audit log keeps of a profile's change: the fields sent, without the stamp."""
    return {field: value for field, value in fields.items() if field != "updated_at"}


async def _check_targets(organization_id: UUID, lists: dict[str, list[UUID]]) -> Targets:
    """The sent target lists, deduplicated and sorted as stored lists are read back; ids not in
    the organization are a 400. Call inside the profile's transaction: the named rows stay locked
    against deletion until it ends (``refuse_if_profiles_name``)."""
    targets: Targets = {}
    errors: list[FieldError] = []
    for field, ids in lists.items():
        table, _ = TARGETS[field]
        wanted = sorted(set(ids))
        targets[field] = wanted
        if not wanted:
            continue
        known = {
            row["id"]
            for row in await locked(
                table.select(table._meta.primary_key).where(
                    table._meta.primary_key.is_in(wanted),
                    table._meta.get_column_by_name("organization_id") == organization_id,
                ),
                "KEY SHARE",
            )
        }
        unknown = [str(i) for i in wanted if i not in known]
        if unknown:
            kind = field.removesuffix("_ids")
            errors.append(FieldError(field, f"unknown {kind} ids: {', '.join(unknown)}"))
    if errors:
        raise InvalidInput("; ".join(f"{e.field}: {e.message}" for e in errors), errors)
    return targets


async def _replace_targets(profile_id: UUID, targets: Targets) -> None:
    """Replace the lists named in ``targets``; call inside the profile's transaction."""
    if not targets:
        return
    columns = [TARGETS[field][1] for field in targets]
    await ScannerProfileTarget.delete().where(
        ScannerProfileTarget.profile_id == profile_id,
        reduce(operator.or_, [column.is_not_null() for column in columns]),
    )
    rows = [
        ScannerProfileTarget({TARGETS[field][1]: target_id}, profile_id=profile_id)
        for field, ids in targets.items()
        for target_id in ids
    ]
    if rows:
        await ScannerProfileTarget.insert(*rows)


@requires("scanners.write")
async def create_profile(principal: Principal, data: ScannerProfileCreate) -> ScannerProfile:
    fields = with_offsets(msgspec.structs.asdict(data), "valid_from", "valid_until")
    lists = {field: fields.pop(field) for field in TARGETS}
    _check_window(fields["valid_from"], fields["valid_until"])
    now = utcnow()
    row = ProfileTable(
        **fields, organization_id=principal.organization_id, created_at=now, updated_at=now
    )
    async with transaction():
        targets = await _check_targets(principal.organization_id, lists)
        await row.save()
        await _replace_targets(row.id, targets)
        await audit.record(
            principal,
            "scanner_profile.create",
            Target("scanner_profile", row.id, data.name),
            _profile_details(sent(data)),
        )
    return to_record(ScannerProfile, _with_targets(row.to_dict(), targets))


@requires("scanners.write")
async def update_profile(
    principal: Principal, profile_id: UUID, data: ScannerProfileUpdate
) -> ScannerProfile:
    """Change the sent fields with one conditional UPDATE; the merged window is checked on the
    returned row, and a bad one rolls the change back."""
    changes = with_offsets(sent(data), "valid_from", "valid_until")
    _check_window(changes.get("valid_from"), changes.get("valid_until"))
    lists = {field: changes.pop(field) for field in TARGETS if field in changes}
    changes["updated_at"] = utcnow()
    async with transaction():
        targets = await _check_targets(principal.organization_id, lists)
        row = await update_owned(
            ProfileTable, profile_id, principal.organization_id, "scanner profile", changes
        )
        _check_window(row["valid_from"], row["valid_until"])
        await _replace_targets(profile_id, targets)
        current = (await targets_of([profile_id]))[profile_id]
        await audit.record(
            principal,
            "scanner_profile.update",
            Target("scanner_profile", profile_id, row["name"]),
            _profile_details({**changes, **targets}),
        )
    return to_record(ScannerProfile, _with_targets(row, current))


async def refuse_if_profiles_name(field: str, target_id: UUID, kind: str) -> None:
    """A 409 naming the profiles whose ``field`` list holds ``target_id``.

    Deleting the row would cascade its target rows away, and a profile restricted to it would be
    left with an empty list: one that admits everything. So a row a profile names is deleted only
    after the profile stops naming it. Call after locking the row (``db.locks``): a profile
    update adding it waits for that lock (``_check_targets``)."""
    column = TARGETS[field][1]
    rows = (
        await ProfileTable.select(ProfileTable.id, ProfileTable.name)
        .where(
            ProfileTable.id.is_in(
                ScannerProfileTarget.select(ScannerProfileTarget.profile_id).where(
                    column == target_id
                )
            )
        )
        .order_by(ProfileTable.name)
    )
    if rows:
        names = ", ".join(f"{row['name']!r} ({row['id']})" for row in rows)
        raise Conflict(
            f"Scanner profiles {names} name this {kind} in their {field}; remove it there first "
            f"(deleting it would take it out of their lists, and a list left empty admits every "
            f"{kind})"
        )
