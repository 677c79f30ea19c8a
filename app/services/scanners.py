"""Scanners and scanner profiles (scopes scanners.read / scanners.write).

A profile's allowed events, ticket types and timeslots are rows of ``ScannerProfileTarget``
(``kind`` says which list); an empty list admits everything. Target ids must belong to the
caller's organization, so a profile can never name another organization's rows.
"""

from __future__ import annotations

from collections import defaultdict
from datetime import datetime
from typing import Any
from uuid import UUID

import msgspec
from piccolo.table import Table

from app.errors import FieldError, InvalidInput, NotFound
from app.pagination import Page, fetch_page, list_params
from app.principal import Principal
from app.schemas.scanners import (
    Scanner,
    ScannerCreate,
    ScannerProfile,
    ScannerProfileCreate,
    ScannerProfileUpdate,
    ScannerUpdate,
)
from app.services.lookup import owned_row
from app.timeutil import as_utc, maybe_utc, require_offset, utcnow
from db.tables import Event, ScannerProfileTarget, TicketType, Timeslot
from db.tables import Scanner as ScannerTable
from db.tables import ScannerProfile as ProfileTable

SORT_FIELDS = ("created_at",)

TARGET_KINDS: dict[str, tuple[str, type[Table]]] = {
    "event_ids": ("event", Event),
    "ticket_type_ids": ("ticket_type", TicketType),
    "timeslot_ids": ("timeslot", Timeslot),
}
"""Body field -> (``ScannerProfileTarget.kind``, the table the ids must exist in)."""

Targets = dict[str, list[UUID]]


def to_scanner(row: dict[str, Any]) -> Scanner:
    return Scanner(
        id=row["id"],
        name=row["name"],
        active=row["active"],
        profile_id=row["profile_id"],
        created_at=as_utc(row["created_at"]),
    )


def to_profile(row: dict[str, Any], targets: Targets) -> ScannerProfile:
    return ScannerProfile(
        id=row["id"],
        name=row["name"],
        event_ids=targets.get("event", []),
        ticket_type_ids=targets.get("ticket_type", []),
        timeslot_ids=targets.get("timeslot", []),
        opens_minutes_before_start=row["opens_minutes_before_start"],
        closes_minutes_after_end=row["closes_minutes_after_end"],
        valid_from=maybe_utc(row["valid_from"]),
        valid_until=maybe_utc(row["valid_until"]),
    )


async def targets_of(profile_ids: list[UUID]) -> dict[UUID, Targets]:
    """The target lists of each profile, by kind (one statement for any number of profiles)."""
    found: dict[UUID, Targets] = defaultdict(lambda: defaultdict(list))
    if not profile_ids:
        return found
    rows = (
        await ScannerProfileTarget.select(
            ScannerProfileTarget.profile_id,
            ScannerProfileTarget.kind,
            ScannerProfileTarget.target_id,
        )
        .where(ScannerProfileTarget.profile_id.is_in(profile_ids))
        .order_by(ScannerProfileTarget.target_id)
    )
    for row in rows:
        found[row["profile_id"]][row["kind"]].append(row["target_id"])
    return found


# Scanners


async def list_scanners(
    principal: Principal,
    *,
    limit: int | None = None,
    offset: int | None = None,
    sort: str | None = None,
) -> Page[Scanner]:
    principal.require("scanners.read")
    params = list_params(limit=limit, offset=offset, sort=sort, allowed=SORT_FIELDS)
    return await fetch_page(
        ScannerTable,
        [ScannerTable.organization_id == principal.organization_id],
        params,
        to_scanner,
    )


async def _require_profile(organization_id: UUID, profile_id: UUID) -> None:
    if not await ProfileTable.exists().where(
        ProfileTable.id == profile_id, ProfileTable.organization_id == organization_id
    ):
        raise NotFound.resource("scanner profile", profile_id)


async def create_scanner(principal: Principal, data: ScannerCreate) -> Scanner:
    principal.require("scanners.write")
    if data.profile_id is not None:
        await _require_profile(principal.organization_id, data.profile_id)
    row = ScannerTable(
        organization_id=principal.organization_id,
        name=data.name,
        active=data.active,
        profile_id=data.profile_id,
        created_at=utcnow(),
    )
    await row.save()
    return to_scanner(row.to_dict())


async def update_scanner(principal: Principal, scanner_id: UUID, data: ScannerUpdate) -> Scanner:
    principal.require("scanners.write")
    changes = _sent(data)
    if changes.get("profile_id") is not None:
        await _require_profile(principal.organization_id, changes["profile_id"])
    if not changes:
        return to_scanner(
            await owned_row(ScannerTable, scanner_id, principal.organization_id, "scanner")
        )
    updated = (
        await ScannerTable.update(changes)
        .where(
            ScannerTable.id == scanner_id,
            ScannerTable.organization_id == principal.organization_id,
        )
        .returning(*ScannerTable.all_columns())
    )
    if not updated:
        raise NotFound.resource("scanner", scanner_id)
    return to_scanner(updated[0])


# Scanner profiles


def _sent(data: msgspec.Struct) -> dict[str, Any]:
    return {
        field: getattr(data, field)
        for field in data.__struct_fields__
        if getattr(data, field) is not msgspec.UNSET
    }


def _check_window(valid_from: datetime | None, valid_until: datetime | None) -> None:
    if valid_from is not None and valid_until is not None and valid_until < valid_from:
        raise InvalidInput.field("valid_until", "must not be before valid_from")


async def _check_targets(organization_id: UUID, lists: dict[str, list[UUID]]) -> Targets:
    """The sent target lists by kind, deduplicated and sorted as stored lists are read back;
    ids not in the organization are a 400."""
    targets: Targets = {}
    errors: list[FieldError] = []
    for field, ids in lists.items():
        kind, table = TARGET_KINDS[field]
        wanted = sorted(set(ids))
        targets[kind] = wanted
        if not wanted:
            continue
        known = {
            row["id"]
            for row in await table.select(table._meta.primary_key).where(
                table._meta.primary_key.is_in(wanted), table.organization_id == organization_id
            )
        }
        unknown = [str(i) for i in wanted if i not in known]
        if unknown:
            errors.append(FieldError(field, f"unknown {kind} ids: {', '.join(unknown)}"))
    if errors:
        raise InvalidInput("; ".join(f"{e.field}: {e.message}" for e in errors), errors)
    return targets


async def _replace_targets(profile_id: UUID, targets: Targets) -> None:
    """Replace the lists named in ``targets``; call inside the profile's transaction."""
    if not targets:
        return
    await ScannerProfileTarget.delete().where(
        ScannerProfileTarget.profile_id == profile_id,
        ScannerProfileTarget.kind.is_in(list(targets)),
    )
    rows = [
        ScannerProfileTarget(profile_id=profile_id, kind=kind, target_id=target_id)
        for kind, ids in targets.items()
        for target_id in ids
    ]
    if rows:
        await ScannerProfileTarget.insert(*rows)


async def list_profiles(
    principal: Principal,
    *,
    limit: int | None = None,
    offset: int | None = None,
    sort: str | None = None,
) -> Page[ScannerProfile]:
    """One page of profiles: three statements whatever the page size."""
    principal.require("scanners.read")
    params = list_params(limit=limit, offset=offset, sort=sort, allowed=SORT_FIELDS)
    page = await fetch_page(
        ProfileTable,
        [ProfileTable.organization_id == principal.organization_id],
        params,
        lambda row: row,
    )
    targets = await targets_of([row["id"] for row in page.data])
    return Page(
        data=[to_profile(row, targets[row["id"]]) for row in page.data],
        pagination=page.pagination,
    )


async def load_profiles(
    principal: Principal, profile_ids: list[UUID]
) -> dict[UUID, ScannerProfile]:
    """The caller's profiles among ``profile_ids``, keyed by id (two statements)."""
    principal.require("scanners.read")
    if not profile_ids:
        return {}
    rows = await ProfileTable.select().where(
        ProfileTable.id.is_in(list(set(profile_ids))),
        ProfileTable.organization_id == principal.organization_id,
    )
    targets = await targets_of([row["id"] for row in rows])
    return {row["id"]: to_profile(row, targets[row["id"]]) for row in rows}


async def create_profile(principal: Principal, data: ScannerProfileCreate) -> ScannerProfile:
    principal.require("scanners.write")
    valid_from = None if data.valid_from is None else require_offset(data.valid_from, "valid_from")
    valid_until = (
        None if data.valid_until is None else require_offset(data.valid_until, "valid_until")
    )
    _check_window(valid_from, valid_until)
    targets = await _check_targets(
        principal.organization_id,
        {field: getattr(data, field) for field in TARGET_KINDS},
    )
    now = utcnow()
    row = ProfileTable(
        organization_id=principal.organization_id,
        name=data.name,
        opens_minutes_before_start=data.opens_minutes_before_start,
        closes_minutes_after_end=data.closes_minutes_after_end,
        valid_from=valid_from,
        valid_until=valid_until,
        created_at=now,
        updated_at=now,
    )
    async with ProfileTable._meta.db.transaction():
        await row.save()
        await _replace_targets(row.id, targets)
    return to_profile(row.to_dict(), targets)


async def update_profile(
    principal: Principal, profile_id: UUID, data: ScannerProfileUpdate
) -> ScannerProfile:
    """Change the sent fields with one conditional UPDATE; the merged window is checked on the
    returned row, and a bad one rolls the change back."""
    principal.require("scanners.write")
    changes = _sent(data)
    for field in ("valid_from", "valid_until"):
        if changes.get(field) is not None:
            changes[field] = require_offset(changes[field], field)
    _check_window(changes.get("valid_from"), changes.get("valid_until"))
    targets = await _check_targets(
        principal.organization_id,
        {field: changes.pop(field) for field in TARGET_KINDS if field in changes},
    )
    changes["updated_at"] = utcnow()
    async with ProfileTable._meta.db.transaction():
        updated = (
            await ProfileTable.update(changes)
            .where(
                ProfileTable.id == profile_id,
                ProfileTable.organization_id == principal.organization_id,
            )
            .returning(*ProfileTable.all_columns())
        )
        if not updated:
            raise NotFound.resource("scanner profile", profile_id)
        row = updated[0]
        _check_window(maybe_utc(row["valid_from"]), maybe_utc(row["valid_until"]))
        await _replace_targets(profile_id, targets)
        current = (await targets_of([profile_id]))[profile_id]
    return to_profile(row, current)
