"""Records of organizations, users, API keys and the current user."""

from __future__ import annotations

from datetime import datetime
from uuid import UUID

import msgspec


class OrganizationRecord(msgspec.Struct):
    id: UUID
    name: str
    currency: str


class UserRecord(msgspec.Struct):
    id: UUID
    email: str
    organization_id: UUID
    role: str = "admin"


class MembershipRecord(msgspec.Struct):
    """One organization a user belongs to, and the user's role in it."""

    organization_id: UUID
    organization_name: str
    role: str


class ApiKeyCreated(msgspec.Struct):
    """The only time the key itself is shown."""

    id: UUID
    key: str
    scopes: list[str]
    name: str
    created_at: datetime


class ApiKeyRecord(msgspec.Struct):
    """A key as its organization's dashboard lists it (never the key itself)."""

    id: UUID
    name: str
    key_prefix: str
    scopes: list[str]
    created_by: str
    created_at: datetime
    last_used_at: datetime | None
    revoked_at: datetime | None


class CurrentUser(msgspec.Struct):
    uid: UUID
    email: str
    organization: str
    livemode: bool = True
    """False for a test credential (CONTRACT.md section 18): it sees only test data."""
