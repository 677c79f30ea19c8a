"""The audit log's record: who did what, when (the dashboard's audit page)."""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal
from uuid import UUID

import msgspec

ActorKind = Literal["dashboard", "api_key", "oauth", "cli"]
"""How the actor acted: signed in to the dashboard, with an API key, with an OAuth access token,
or as an operator at the command line."""


class AuditEntry(msgspec.Struct):
    id: UUID
    action: str
    """``<target type>.<verb>``, e.g. ``webhook.create`` or ``order.cancel``."""
    actor_via: ActorKind
    actor_user_id: UUID | None
    actor_email: str | None
    """The acting user's e-mail as it was then (for ``cli``: none; ``actor_detail`` names the
    operator's account)."""
    actor_detail: str | None
    """``cli``: the operator's account on the machine; ``api_key``: the key's name and prefix;
    ``oauth``: the client id."""
    target_type: str
    target_id: str | None
    target_label: str
    details: dict[str, Any]
    created_at: datetime
    names: dict[str, str] = msgspec.field(default_factory=dict)
    """The names of the ids this entry holds (an OAuth actor's client id, the profile, events,
    ticket types and timeslots in ``details``), as they are now; a deleted row's id has none."""
