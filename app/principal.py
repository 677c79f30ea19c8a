"""Who is calling: the organization, the user and the scopes of one request."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal
from uuid import UUID

from app.errors import Forbidden

SCOPES: tuple[str, ...] = (
    "events.read",
    "events.write",
    "orders.read",
    "orders.write",
    "tickets.read",
    "tickets.write",
    "scanners.read",
    "scanners.write",
    "webhooks.read",
    "webhooks.write",
)

SCOPE_DESCRIPTIONS: dict[str, str] = {
    "events.read": "Read events, ticket types and timeslots",
    "events.write": "Create and update events, ticket types and timeslots",
    "orders.read": "Read orders",
    "orders.write": "Place, confirm, refund and cancel orders and tickets",
    "tickets.read": "Read tickets",
    "tickets.write": "Scan tickets",
    "scanners.read": "Read scanners and scanner profiles",
    "scanners.write": "Create and update scanners and scanner profiles",
    "webhooks.read": "List webhook subscriptions and their deliveries",
    "webhooks.write": "Create and delete webhook subscriptions",
}


@dataclass(frozen=True, slots=True)
class Principal:
    organization_id: UUID
    user_id: UUID
    scopes: frozenset[str]
    credential: Literal["api_key", "oauth"]
    credential_id: UUID
    client_id: str | None = None

    def require(self, scope: str) -> None:
        """Raise :class:`Forbidden` unless the credential carries ``scope``."""
        if scope not in self.scopes:
            raise Forbidden(f"This operation needs the {scope} scope", scope=scope)


def parse_scopes(value: str) -> frozenset[str]:
    """Split a space-separated scope string, rejecting names we do not know."""
    scopes = frozenset(value.split())
    unknown = sorted(scopes - set(SCOPES))
    if unknown:
        raise ValueError(f"unknown scopes: {', '.join(unknown)}")
    return scopes
