"""Grant families and what they issue: authorization codes and refresh tokens.

Every state change is one conditional UPDATE (a code is used once, a refresh token rotated once),
so two concurrent exchanges of the same code or refresh token cannot both succeed: the loser sees a
replay, which revokes the whole family (RFC 6749 section 10.5, RFC 9700 section 4.14). Codes and
refresh tokens are random strings stored as SHA-256 hashes.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta
from typing import Any, Literal
from uuid import UUID

import msgspec
from piccolo.columns import ForeignKey, Timestamptz

from app import timeutil
from app.records import to_record
from app.stored_secrets import hash_secret, new_token
from db.rows import columns_of
from db.tables import OAuthAuthorizationCode, OAuthGrant, OAuthRefreshToken
from db.transactions import transaction

CODE_LIFETIME = timedelta(minutes=10)
REFRESH_TOKEN_LIFETIME = timedelta(days=30)
REFRESH_TOKEN_PREFIX = "rt_"
GrantKind = Literal["authorization_code", "client_credentials"]


def new_refresh_token() -> str:
    return new_token(REFRESH_TOKEN_PREFIX)


@dataclass(frozen=True, slots=True)
class Subject:
    """Whom a grant acts for: authlib's "user". ``grant_id`` is the family, once there is one."""

    user_id: UUID
    organization_id: UUID
    grant_id: UUID | None = None

    def get_user_id(self) -> str:
        return str(self.user_id)


class Issued(msgspec.Struct, frozen=True):
    """What a family issued (a code, a refresh token), read with the family's subject."""

    grant_id: UUID
    user_id: UUID
    organization_id: UUID

    def subject(self) -> Subject:
        return Subject(self.user_id, self.organization_id, self.grant_id)


class IssuedCode(Issued, frozen=True):
    """A code just claimed for exchange, in the shape authlib's code grant and PKCE ask for."""

    redirect_uri: str
    scope: str
    code_challenge: str | None
    code_challenge_method: str | None

    def get_redirect_uri(self) -> str:
        return self.redirect_uri

    def get_scope(self) -> str:
        return self.scope


class LiveRefreshToken(Issued, frozen=True):
    id: UUID
    client_pk: UUID
    scope: str

    def check_client(self, client: object) -> bool:
        return getattr(client, "id", None) == self.client_pk

    def get_scope(self) -> str:
        return self.scope


async def create_family(
    client_pk: UUID,
    organization_id: UUID,
    user_id: UUID,
    scope: str,
    kind: GrantKind = "authorization_code",
) -> UUID:
    """A new family: a user's authorization of the client, or one client-credentials token."""
    row = OAuthGrant(
        client_id=client_pk,
        organization_id=organization_id,
        user_id=user_id,
        scope=scope,
        kind=kind,
    )
    await row.save()
    return row.id


async def save_code(
    code: str,
    client_pk: UUID,
    subject: Subject,
    redirect_uri: str,
    scope: str,
    code_challenge: str | None,
    code_challenge_method: str | None,
) -> None:
    """Start a family with its authorization code (valid for ``CODE_LIFETIME``)."""
    async with transaction():
        grant_id = await create_family(client_pk, subject.organization_id, subject.user_id, scope)
        await OAuthAuthorizationCode(
            code_hash=hash_secret(code),
            grant_id=grant_id,
            redirect_uri=redirect_uri,
            scope=scope,
            code_challenge=code_challenge,
            code_challenge_method=code_challenge_method if code_challenge else None,
            expires_at=timeutil.utcnow() + CODE_LIFETIME,
        ).save()


async def revoke_family(grant_id: UUID) -> None:
    """Revoke a family: its access tokens (checked per request) and its refresh tokens."""
    now = timeutil.utcnow()
    async with transaction():
        await OAuthGrant.update({OAuthGrant.revoked_at: now}).where(
            OAuthGrant.id == grant_id, OAuthGrant.revoked_at.is_null()
        )
        await OAuthRefreshToken.update({OAuthRefreshToken.revoked_at: now}).where(
            OAuthRefreshToken.grant_id == grant_id, OAuthRefreshToken.revoked_at.is_null()
        )


def _family(grant: ForeignKey[OAuthGrant]) -> list[Any]:
    """The columns of the family (``grant``) a code or refresh token is read with."""
    return [
        grant.client_id.as_alias("client_pk"),
        grant.user_id.as_alias("user_id"),
        grant.organization_id.as_alias("organization_id"),
        grant.revoked_at.as_alias("family_revoked_at"),
    ]


async def _use_once(stamp: Timestamptz, row_id: UUID, grant_id: UUID, *conditions: Any) -> bool:
    """Stamp the row's ``stamp`` (``used_at``, ``rotated_at``) if no request did before (and
    ``conditions`` hold): one conditional UPDATE. False otherwise, and the family is revoked, as
    for any replay."""
    table = stamp._meta.table
    used = (
        await table.update({stamp: timeutil.utcnow()})
        .where(table._meta.primary_key == row_id, stamp.is_null(), *conditions)
        .returning(table._meta.primary_key)
    )
    if not used:
        await revoke_family(grant_id)
    return bool(used)


async def claim_code(code: str, client_pk: UUID) -> IssuedCode | None:
    """Use a code of ``client_pk`` once. A second use revokes what the first one issued."""
    row = (
        await OAuthAuthorizationCode.select(
            OAuthAuthorizationCode.id,
            OAuthAuthorizationCode.expires_at,
            *columns_of(OAuthAuthorizationCode, IssuedCode),
            *_family(OAuthAuthorizationCode.grant_id),
        )
        .where(OAuthAuthorizationCode.code_hash == hash_secret(code))
        .first()
    )
    if row is None or row["client_pk"] != client_pk:
        return None
    if not await _use_once(OAuthAuthorizationCode.used_at, row["id"], row["grant_id"]):
        return None
    if row["family_revoked_at"] is not None or row["expires_at"] <= timeutil.utcnow():
        return None
    return to_record(IssuedCode, row)


async def save_refresh_token(refresh_token: str, grant_id: UUID, scope: str) -> None:
    await OAuthRefreshToken(
        token_hash=hash_secret(refresh_token),
        grant_id=grant_id,
        scope=scope,
        expires_at=timeutil.utcnow() + REFRESH_TOKEN_LIFETIME,
    ).save()


async def find_refresh_token(refresh_token: str) -> LiveRefreshToken | None:
    """A live refresh token. Presenting one that was already rotated revokes its family."""
    row = (
        await OAuthRefreshToken.select(
            OAuthRefreshToken.expires_at,
            OAuthRefreshToken.rotated_at,
            OAuthRefreshToken.revoked_at,
            *columns_of(OAuthRefreshToken, LiveRefreshToken),
            *_family(OAuthRefreshToken.grant_id),
        )
        .where(OAuthRefreshToken.token_hash == hash_secret(refresh_token))
        .first()
    )
    if row is None:
        return None
    if row["rotated_at"] is not None:
        await revoke_family(row["grant_id"])
        return None
    expired = row["expires_at"] <= timeutil.utcnow()
    if row["revoked_at"] is not None or row["family_revoked_at"] is not None or expired:
        return None
    return to_record(LiveRefreshToken, row)


async def rotate_refresh_token(token: LiveRefreshToken) -> bool:
    """Retire ``token`` for good; False if another request rotated it first (then the family
    is revoked, as for any replay)."""
    return await _use_once(
        OAuthRefreshToken.rotated_at,
        token.id,
        token.grant_id,
        OAuthRefreshToken.revoked_at.is_null(),
    )


async def family_of_refresh_token(refresh_token: str) -> tuple[UUID, UUID] | None:
    """(family id, client pk) of any refresh token we issued, live or not (for revocation)."""
    row = (
        await OAuthRefreshToken.select(
            OAuthRefreshToken.grant_id, OAuthRefreshToken.grant_id.client_id.as_alias("client_pk")
        )
        .where(OAuthRefreshToken.token_hash == hash_secret(refresh_token))
        .first()
    )
    return None if row is None else (row["grant_id"], row["client_pk"])
