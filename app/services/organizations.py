"""Organizations, their members, and the current user (``GET /whoami``)."""

from __future__ import annotations

import functools
import re
from uuid import UUID
from zoneinfo import available_timezones

from app.errors import Conflict, InvalidInput, NotFound
from app.principal import ROLES, Principal, Role, requires
from app.schemas.identity import CurrentUser, MembershipRecord, OrganizationRecord, UserRecord
from app.schemas.text import EMAIL
from app.services import audit
from app.services.audit import Actor, Target
from db.tables import Membership, Organization, User
from db.transactions import transaction

EMAIL_PATTERN = re.compile(EMAIL)
CURRENCY_PATTERN = re.compile(r"^[A-Z]{3}$")


def normalize_email(email: str) -> str:
    email = email.strip().lower()
    if not EMAIL_PATTERN.match(email):
        raise InvalidInput.field("email", f"not an email address: {email!r}")
    return email


def check_timezone(name: str) -> str:
    """``name`` if it is an IANA time zone (``Europe/Amsterdam``), else :class:`InvalidInput`."""
    if name not in time_zones():
        raise InvalidInput.field(
            "timezone", f"must be an IANA time zone such as Europe/Amsterdam, got {name!r}"
        )
    return name


@functools.cache
def time_zones() -> frozenset[str]:
    return frozenset(available_timezones()) | {"UTC"}


async def create_organization(
    name: str, currency: str = "EUR", timezone: str = "UTC"
) -> OrganizationRecord:
    name = name.strip()
    if not name:
        raise InvalidInput.field("name", "must not be empty")
    if not CURRENCY_PATTERN.match(currency):
        raise InvalidInput.field("currency", "must be an ISO 4217 code such as EUR")
    org = Organization(name=name, currency=currency, timezone=check_timezone(timezone))
    await org.save()
    return OrganizationRecord(id=org.id, name=org.name, currency=org.currency)


async def get_organization(organization_id: UUID) -> OrganizationRecord:
    row = await Organization.select().where(Organization.id == organization_id).first()
    if row is None:
        raise NotFound.resource("organization", organization_id)
    return OrganizationRecord(id=row["id"], name=row["name"], currency=row["currency"])


async def set_timezone(organization_id: UUID, timezone: str) -> None:
    """The organization's time zone (and its test twin's), which the dashboard shows times in;
    an operator's act (the command line), recorded in the audit log."""
    check_timezone(timezone)
    async with transaction():
        rows = (
            await Organization.update({Organization.timezone: timezone})
            .where(
                (Organization.id == organization_id)
                | (Organization.live_organization_id == organization_id)
            )
            .returning(Organization.name)
        )
        if not rows:
            raise NotFound.resource("organization", organization_id)
        await audit.record(
            Actor.operator(organization_id),
            "organization.timezone",
            Target("organization", organization_id, rows[0]["name"]),
            {"timezone": timezone},
        )


async def add_member(organization_id: UUID, email: str, role: str = "admin") -> UserRecord:
    """Create the user if new and make them a member of the organization with ``role``
    (``admin``: reads and changes in the dashboard; ``member``: reads). An operator's act (the
    command line), recorded in the audit log."""
    email = normalize_email(email)
    if role not in ROLES:
        raise InvalidInput.field("role", f"must be one of {', '.join(ROLES)}, got {role!r}")
    await get_organization(organization_id)
    async with transaction():
        user = await User.objects().where(User.email == email).first()
        if user is None:
            user = User(email=email)
            await user.save()
        already = await Membership.exists().where(
            Membership.organization_id == organization_id, Membership.user_id == user.id
        )
        if already:
            raise Conflict(f"{email} is already a member of organization {organization_id}")
        await Membership(organization_id=organization_id, user_id=user.id, role=role).save()
        await audit.record(
            Actor.operator(organization_id),
            "member.add",
            Target("member", user.id, email),
            {"role": role},
        )
    return UserRecord(id=user.id, email=user.email, organization_id=organization_id, role=role)


async def set_role(organization_id: UUID, email: str, role: str) -> UserRecord:
    """Make the member with ``email`` an ``admin`` or a ``member``: at once, as the dashboard
    reads the role on every request. An operator's act (the command line), recorded in the audit
    log when the role changes."""
    email = normalize_email(email)
    if role not in ROLES:
        raise InvalidInput.field("role", f"must be one of {', '.join(ROLES)}, got {role!r}")
    async with transaction():
        row = (
            await Membership.select(Membership.id, Membership.user_id, Membership.role)
            .where(Membership.organization_id == organization_id, Membership.user_id.email == email)
            .first()
        )
        if row is None:
            raise NotFound(f"No member {email} in organization {organization_id}")
        if row["role"] != role:
            await Membership.update({Membership.role: role}).where(Membership.id == row["id"])
            await audit.record(
                Actor.operator(organization_id),
                "member.role",
                Target("member", row["user_id"], email),
                {"role": role, "was": row["role"]},
            )
    return UserRecord(id=row["user_id"], email=email, organization_id=organization_id, role=role)


async def member_id(organization_id: UUID, email: str) -> UUID:
    """The id of the member with ``email``, or :class:`NotFound`."""
    email = normalize_email(email)
    row = (
        await Membership.select(Membership.user_id)
        .where(Membership.organization_id == organization_id, Membership.user_id.email == email)
        .first()
    )
    if row is None:
        raise NotFound(f"No member {email} in organization {organization_id}")
    user_id: UUID = row["user_id"]
    return user_id


async def memberships_of(user_id: UUID) -> list[MembershipRecord]:
    """The organizations ``user_id`` belongs to, by name, with the user's role in each."""
    rows = (
        await Membership.select(
            Membership.organization_id,
            Membership.organization_id.name.as_alias("organization_name"),
            Membership.role,
        )
        .where(Membership.user_id == user_id)
        .order_by(Membership.organization_id.name)
    )
    return [
        MembershipRecord(
            organization_id=row["organization_id"],
            organization_name=row["organization_name"],
            role=row["role"],
        )
        for row in rows
    ]


async def role_of(organization_id: UUID, user_id: UUID) -> Role | None:
    """The member's role in the organization, or None when not a member (any more)."""
    row = (
        await Membership.select(Membership.role)
        .where(Membership.organization_id == organization_id, Membership.user_id == user_id)
        .first()
    )
    return None if row is None else row["role"]


async def is_member(organization_id: UUID, user_id: UUID) -> bool:
    return await Membership.exists().where(
        Membership.organization_id == organization_id, Membership.user_id == user_id
    )


WHOAMI = """
    SELECT users.email AS email, organizations.name AS organization,
           organizations.live_organization_id IS NULL AS livemode
    FROM users, organizations WHERE users.id = {} AND organizations.id = {}"""
"""One fixed statement: ``GET /whoami`` is the floor of every authenticated request."""


@requires(None)
async def whoami(principal: Principal) -> CurrentUser:
    """The person behind the credential; needs no scope."""
    rows = await User.raw(WHOAMI, principal.user_id, principal.organization_id)
    if not rows:
        raise NotFound.resource("user", principal.user_id)
    return CurrentUser(
        uid=principal.user_id,
        email=rows[0]["email"],
        organization=rows[0]["organization"],
        livemode=bool(rows[0]["livemode"]),
    )
