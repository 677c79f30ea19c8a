"""Records and inputs of scanners and scanner profiles (CONTRACT.md section 4)."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated
from uuid import UUID

import msgspec

from app.schemas.scanning import EntryPolicy
from app.schemas.text import NO_NUL

Name = Annotated[str, msgspec.Meta(min_length=1, max_length=200, pattern=NO_NUL)]
Minutes = Annotated[int, msgspec.Meta(ge=0, le=527_040)]
"""A window offset in minutes: 0 to 366 days."""
TargetIds = Annotated[list[UUID], msgspec.Meta(max_length=500)]


class Scanner(msgspec.Struct):
    id: UUID
    name: str
    active: bool
    profile_id: UUID | None
    created_at: datetime


class ScannerCreate(msgspec.Struct, forbid_unknown_fields=True):
    name: Name
    active: bool = True
    profile_id: UUID | None = None


class ScannerUpdate(msgspec.Struct, forbid_unknown_fields=True):
    """PATCH body: only the fields sent are changed; ``profile_id: null`` detaches the profile."""

    name: Name | msgspec.UnsetType = msgspec.UNSET
    active: bool | msgspec.UnsetType = msgspec.UNSET
    profile_id: UUID | msgspec.UnsetType | None = msgspec.UNSET


class ScannerProfile(msgspec.Struct):
    """Empty target lists admit everything; null window bounds do not restrict."""

    id: UUID
    name: str
    event_ids: list[UUID]
    ticket_type_ids: list[UUID]
    timeslot_ids: list[UUID]
    opens_minutes_before_start: int | None
    closes_minutes_after_end: int | None
    valid_from: datetime | None
    valid_until: datetime | None
    entry_policy: EntryPolicy
    """single (one admission per ticket ever), reentry (a ticket that has exited may enter
    again) or multiple (every entry scan admits; passes)."""


class ScannerProfileCreate(msgspec.Struct, forbid_unknown_fields=True):
    name: Name
    event_ids: TargetIds = []
    ticket_type_ids: TargetIds = []
    timeslot_ids: TargetIds = []
    opens_minutes_before_start: Minutes | None = None
    closes_minutes_after_end: Minutes | None = None
    valid_from: datetime | None = None
    valid_until: datetime | None = None
    entry_policy: EntryPolicy = "single"


class ScannerProfileUpdate(msgspec.Struct, forbid_unknown_fields=True):
    """PATCH body: only the fields sent are changed; a sent target list replaces the old one."""

    name: Name | msgspec.UnsetType = msgspec.UNSET
    event_ids: TargetIds | msgspec.UnsetType = msgspec.UNSET
    ticket_type_ids: TargetIds | msgspec.UnsetType = msgspec.UNSET
    timeslot_ids: TargetIds | msgspec.UnsetType = msgspec.UNSET
    opens_minutes_before_start: Minutes | msgspec.UnsetType | None = msgspec.UNSET
    closes_minutes_after_end: Minutes | msgspec.UnsetType | None = msgspec.UNSET
    valid_from: datetime | msgspec.UnsetType | None = msgspec.UNSET
    valid_until: datetime | msgspec.UnsetType | None = msgspec.UNSET
    entry_policy: EntryPolicy | msgspec.UnsetType = msgspec.UNSET
