"""Signed codes' keys and revocations (CONTRACT.md section 17, docs/signed-codes.md)."""

from __future__ import annotations

from datetime import datetime
from typing import Literal
from uuid import UUID

import msgspec

RevocationReason = Literal["cancelled", "code_replaced"]


class ScanKey(msgspec.Struct):
    """One of an event's keys: ``kid`` and ``public_key`` in base64url without padding (8 and 32
    bytes). A code signed by a key whose ``retired_at`` is set is not to be admitted."""

    kid: str
    algorithm: Literal["Ed25519"]
    public_key: str
    created_at: datetime
    retired_at: datetime | None


class ScanKeys(msgspec.Struct):
    """Every key of the event, oldest first; the newest that is not retired signs new codes."""

    keys: list[ScanKey]


class Revocation(msgspec.Struct):
    """A ticket a door must refuse by its signed code: ``cancelled`` (every code of it), or
    ``code_replaced`` (its codes signed by ``kid``, a retired key; the ticket has a new code)."""

    ticket_id: UUID
    reason: RevocationReason
    kid: str | None
    revoked_at: datetime


class Revocations(msgspec.Struct):
    """The revocations of ``[since, next_since)``, oldest first. Pass ``next_since`` as the next
    request's ``since``: every revocation is in exactly one answer of such a chain."""

    data: list[Revocation]
    since: datetime | None
    next_since: datetime
