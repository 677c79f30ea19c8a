"""Dashboard browser sessions (CONTRACT.md section 15): server-side, revocable, 12 hours idle.

The cookie holds a random token; the table holds only its SHA-256, so a copy of the database
signs nobody in. A row is first a sign-in in progress (the OpenID Connect ``state``, ``nonce`` and
PKCE verifier, for :data:`SIGN_IN_WINDOW`), then, once the identity provider has vouched for the
user, a session under a new token (the token a browser held before signing in is worth nothing
after). A session lasts while it is used: each request moves ``last_seen_at`` (at most once per
:data:`TOUCH_RESOLUTION`), and one unused for :data:`IDLE_TIMEOUT` is gone. Signing out deletes
the row, so the old cookie stops working at once.

The CSRF token of a session is an HMAC of its cookie token: the same on every form of the
session, new after sign-in, never stored, and unknowable without the cookie.
"""

from __future__ import annotations

import hashlib
import hmac
from dataclasses import dataclass
from datetime import timedelta
from uuid import UUID

from app.errors import NotFound
from app.principal import Principal, Role
from app.schemas.identity import MembershipRecord
from app.services.organizations import memberships_of, role_of
from app.services.test_mode import twin
from app.stored_secrets import hash_secret, new_token
from app.timeutil import utcnow
from db.tables import DashboardSession
from db.transactions import transaction

IDLE_TIMEOUT = timedelta(hours=12)
SIGN_IN_WINDOW = timedelta(minutes=10)
TOUCH_RESOLUTION = timedelta(minutes=1)
CSRF_CONTEXT = b"ticketing dashboard csrf"


class NoMembership(Exception):
    """The signed-in person belongs to no organization."""


def csrf_token(token: str) -> str:
    """The CSRF token of the session whose cookie holds ``token``."""
    return hmac.new(token.encode(), CSRF_CONTEXT, hashlib.sha256).hexdigest()


def csrf_matches(token: str, sent: str) -> bool:
    return hmac.compare_digest(csrf_token(token).encode(), sent.encode())


@dataclass(frozen=True, slots=True)
class PendingSignIn:
    id: UUID
    state: str
    nonce: str
    verifier: str
    return_to: str | None


@dataclass(frozen=True, slots=True)
class SessionView:
    """A signed-in session: who, and in which organization (None until picked)."""

    id: UUID
    user_id: UUID
    email: str
    organization_id: UUID | None
    organization_name: str | None
    role: Role | None
    principal: Principal | None
    """Set once an organization is picked: what the services see."""
    organizations: int
    """How many organizations the user belongs to (the picker is offered when several)."""
    test_mode: bool = False
    """The session acts as its organization's test twin (CONTRACT.md section 18)."""
    timezone: str = "UTC"
    """The organization's time zone (IANA name): the dashboard shows times in it."""


async def _prune() -> None:
    """Delete idle sessions and abandoned sign-ins (indexed on ``last_seen_at``)."""
    now = utcnow()
    abandoned = DashboardSession.user_id.is_null() & (
        DashboardSession.last_seen_at < now - SIGN_IN_WINDOW
    )
    await DashboardSession.delete().where(
        (DashboardSession.last_seen_at < now - IDLE_TIMEOUT) | abandoned
    )


async def begin_sign_in(state: str, nonce: str, verifier: str, return_to: str | None) -> str:
    """Record a sign-in in progress; the token for the browser's cookie."""
    await _prune()
    token = new_token()
    now = utcnow()
    await DashboardSession(
        token_hash=hash_secret(token),
        oidc_state=state,
        oidc_nonce=nonce,
        oidc_verifier=verifier,
        return_to=return_to,
        created_at=now,
        last_seen_at=now,
    ).save()
    return token


async def pending_sign_in(token: str) -> PendingSignIn | None:
    """The sign-in in progress of the cookie's ``token``, if it is recent."""
    row = (
        await DashboardSession.select(
            DashboardSession.id,
            DashboardSession.oidc_state.as_alias("state"),
            DashboardSession.oidc_nonce.as_alias("nonce"),
            DashboardSession.oidc_verifier.as_alias("verifier"),
            DashboardSession.return_to,
        )
        .where(
            DashboardSession.token_hash == hash_secret(token),
            DashboardSession.user_id.is_null(),
            DashboardSession.last_seen_at >= utcnow() - SIGN_IN_WINDOW,
        )
        .first()
    )
    if row is None or not row["state"]:
        return None
    return PendingSignIn(**row)


async def complete_sign_in(pending: PendingSignIn, user_id: UUID) -> str:
    """Turn the sign-in into a session of ``user_id`` under a new token (returned).

    The organization is set when the user belongs to exactly one; :class:`NoMembership` when to
    none. A sign-in completes once: a second callback with the same state finds nothing."""
    memberships = await memberships_of(user_id)
    if not memberships:
        await DashboardSession.delete().where(DashboardSession.id == pending.id)
        raise NoMembership
    token = new_token()
    now = utcnow()
    done = (
        await DashboardSession.update(
            {
                DashboardSession.token_hash: hash_secret(token),
                DashboardSession.user_id: user_id,
                DashboardSession.organization_id: (
                    memberships[0].organization_id if len(memberships) == 1 else None
                ),
                DashboardSession.oidc_state: None,
                DashboardSession.oidc_nonce: None,
                DashboardSession.oidc_verifier: None,
                DashboardSession.last_seen_at: now,
            }
        )
        .where(DashboardSession.id == pending.id, DashboardSession.user_id.is_null())
        .returning(DashboardSession.id)
    )
    if not done:
        raise NotFound("This sign-in was already completed or has expired")
    return token


SESSION_BY_HASH = """
    SELECT s.id, s.user_id, s.organization_id, s.last_seen_at, u.email,
           o.name AS organization_name, o.timezone, m.role, t.id AS test_organization_id,
           (SELECT COUNT(*) FROM memberships c WHERE c.user_id = s.user_id) AS organizations
    FROM dashboard_sessions s
    JOIN users u ON u.id = s.user_id
    LEFT JOIN organizations o ON o.id = s.organization_id
    LEFT JOIN memberships m ON m.organization_id = s.organization_id AND m.user_id = s.user_id
    LEFT JOIN organizations t ON s.test_mode AND t.live_organization_id = s.organization_id
    WHERE s.token_hash = {} AND s.last_seen_at >= {}"""
"""The session, its user, the user's role in its organization (null when no longer a member)
and, in test mode, the organization's test twin, in one statement on the unique index of
``token_hash``."""


async def load_session(token: str) -> SessionView | None:
    """The live session of the cookie's ``token`` (its idle clock restarted), or None."""
    now = utcnow()
    rows = await DashboardSession.raw(SESSION_BY_HASH, hash_secret(token), now - IDLE_TIMEOUT)
    if not rows:
        return None
    row = rows[0]
    if now - row["last_seen_at"] >= TOUCH_RESOLUTION:
        await DashboardSession.update({DashboardSession.last_seen_at: now}).where(
            DashboardSession.id == row["id"]
        )
    role: Role | None = row["role"]
    organization_id = row["organization_id"] if role is not None else None
    test_organization_id = row["test_organization_id"] if organization_id is not None else None
    principal = None
    if organization_id is not None and role is not None:
        acting = test_organization_id or organization_id
        principal = Principal.for_session(acting, row["user_id"], role, row["id"])
    return SessionView(
        id=row["id"],
        user_id=row["user_id"],
        email=row["email"],
        organization_id=organization_id,
        organization_name=row["organization_name"] if role is not None else None,
        role=role,
        principal=principal,
        organizations=row["organizations"],
        test_mode=test_organization_id is not None,
        timezone=(row["timezone"] if role is not None else None) or "UTC",
    )


async def organizations_of(session: SessionView) -> list[MembershipRecord]:
    """The organizations the session's user may switch to."""
    return await memberships_of(session.user_id)


async def choose_organization(session: SessionView, organization_id: UUID) -> None:
    """Work in ``organization_id`` from now on, in live mode; :class:`NotFound` unless a member
    of it."""
    async with transaction():
        if await role_of(organization_id, session.user_id) is None:
            raise NotFound.resource("organization", organization_id)
        await DashboardSession.update(
            {DashboardSession.organization_id: organization_id, DashboardSession.test_mode: False}
        ).where(DashboardSession.id == session.id)


async def switch_mode(session: SessionView, test: bool) -> None:
    """The dashboard's live / test switch: act as the organization's test twin (made on first
    use) or as the organization itself."""
    if session.organization_id is None:
        raise NotFound("Pick an organization first")
    if test:
        await twin(session.organization_id)
    await DashboardSession.update({DashboardSession.test_mode: test}).where(
        DashboardSession.id == session.id
    )


async def end_session(token: str) -> None:
    """Sign out: the session is deleted, so its cookie no longer works anywhere."""
    await DashboardSession.delete().where(DashboardSession.token_hash == hash_secret(token))


async def end_sessions_of_user(user_id: UUID) -> int:
    """Revoke every session of a person (all browsers); how many there were."""
    rows = (
        await DashboardSession.delete()
        .where(DashboardSession.user_id == user_id)
        .returning(DashboardSession.id)
    )
    return len(rows)
