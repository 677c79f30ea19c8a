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


class ApiKeyCreated(msgspec.Struct):
    """The only time the key itself is shown."""

    id: UUID
    key: str
    scopes: list[str]
    name: str
    created_at: datetime


class CurrentUser(msgspec.Struct):
    uid: UUID
    email: str
    organization: str
