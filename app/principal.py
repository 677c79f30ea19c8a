"""Who is calling: the organization, the user and the scopes of one request."""

from __future__ import annotations

import functools
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, Literal, ParamSpec, TypeVar
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


Role = Literal["admin", "member"]
ROLES: tuple[Role, ...] = ("admin", "member")
READ_SCOPES: frozenset[str] = frozenset(scope for scope in SCOPES if scope.endswith(".read"))


def scopes_of_role(role: Role) -> frozenset[str]:
    """What a person signed in to the dashboard may do: an admin everything, a member read."""
    return frozenset(SCOPES) if role == "admin" else READ_SCOPES


@dataclass(frozen=True, slots=True)
class Principal:
    organization_id: UUID
    user_id: UUID
    scopes: frozenset[str]
    credential: Literal["api_key", "oauth", "session"]
    credential_id: UUID
    client_id: str | None = None
    role: Role | None = None
    """The member's role, for a dashboard session (``credential == "session"``); None for bearer
    credentials, which their scopes alone govern."""

    def require(self, scope: str) -> None:
        """Raise :class:`Forbidden` unless the credential carries ``scope``."""
        if scope not in self.scopes:
            raise Forbidden(f"This operation needs the {scope} scope", scope=scope)

    def require_person(self) -> None:
        """Raise :class:`Forbidden` unless a member signed in to the dashboard is acting (the
        operations on credentials themselves: an API key cannot list or mint API keys)."""
        if self.role is None:
            raise Forbidden("Only a member signed in to the dashboard can do this")

    def require_admin(self) -> None:
        """Raise :class:`Forbidden` unless an admin of the organization is acting, for the
        operations that no scope covers (managing API keys, OAuth applications, members)."""
        if self.role != "admin":
            raise Forbidden("Only an admin of the organization can do this")

    @classmethod
    def for_session(
        cls, organization_id: UUID, user_id: UUID, role: Role, session_id: UUID
    ) -> Principal:
        """The principal of a dashboard session: the scopes of ``role``."""
        return cls(
            organization_id=organization_id,
            user_id=user_id,
            scopes=scopes_of_role(role),
            credential="session",
            credential_id=session_id,
            role=role,
        )


P = ParamSpec("P")
T = TypeVar("T")

SCOPE_ATTRIBUTE = "scope"


def requires(
    scope: str | None,
) -> Callable[[Callable[P, Awaitable[T]]], Callable[P, Awaitable[T]]]:
    """Declare the scope a service operation needs: the one place where that scope is written.

    The operation's first argument is the :class:`Principal`; the decorated operation checks the
    scope before it runs. Transports read the declaration with :func:`scope_of` (REST's check
    before any input is read and OpenAPI text, GraphQL's field checks, the dashboard), so that
    they cannot name another scope.
    ``None`` declares that any valid credential will do.
    """
    if scope is not None and scope not in SCOPES:
        raise ValueError(f"unknown scope {scope!r}")

    def declare(operation: Callable[P, Awaitable[T]]) -> Callable[P, Awaitable[T]]:
        @functools.wraps(operation)
        async def checked(*args: P.args, **kwargs: P.kwargs) -> T:
            if scope is not None:
                principal = args[0]
                assert isinstance(principal, Principal), f"{operation.__name__} needs a Principal"
                principal.require(scope)
            return await operation(*args, **kwargs)

        setattr(checked, SCOPE_ATTRIBUTE, scope)
        return checked

    return declare


def scope_of(operation: Any) -> str | None:
    """The scope declared by a service operation (:func:`requires`) or a resource's reads."""
    if not hasattr(operation, SCOPE_ATTRIBUTE):
        raise TypeError(f"{operation!r} declares no scope: decorate it with app.principal.requires")
    scope: str | None = getattr(operation, SCOPE_ATTRIBUTE)
    return scope


def parse_scopes(value: str) -> frozenset[str]:
    """Split a space-separated scope string, rejecting names we do not know."""
    scopes = frozenset(value.split())
    unknown = sorted(scopes - set(SCOPES))
    if unknown:
        raise ValueError(f"unknown scopes: {', '.join(unknown)}")
    return scopes
