"""The organization's OAuth applications as its dashboard manages them: registration (the secret
shown once), the list, disabling, enabling, deleting and rotating the secret (shown once), and the
authorizations users gave them, which an admin can revoke.

No scope covers these: an API key or an access token cannot register another client or revoke
a user's authorization. People signed in to the dashboard read them; admins change them.
"""

from __future__ import annotations

from uuid import UUID

from app.errors import NotFound
from app.pagination import Page
from app.principal import Principal, requires
from app.resources import Resource, Rows, choice_filter
from app.schemas.oauth import (
    OAuthApplication,
    OAuthApplicationCreate,
    OAuthAuthorization,
    OAuthClientCreated,
)
from app.services import audit
from app.services.audit import Target
from app.services.oauth import clients
from app.services.oauth.clients import check_registration, register
from app.services.oauth.grants import revoke_family
from app.timeutil import utcnow
from db.tables import OAuthClient, OAuthGrant
from db.transactions import transaction


async def _split_scopes(rows: Rows) -> Rows:
    return [{**row, "scopes": row["scopes"].split()} for row in rows]


async def _with_names(rows: Rows) -> Rows:
    """Each authorization's application and user, in one statement for the page."""
    names = {
        row["id"]: row
        for row in await OAuthGrant.select(
            OAuthGrant.id,
            OAuthGrant.client_id.name.as_alias("application_name"),
            OAuthGrant.client_id.client_id.as_alias("application_client_id"),
            OAuthGrant.user_id.email.as_alias("user_email"),
        ).where(OAuthGrant.id.is_in([row["id"] for row in rows]))
    }
    return [{**row, **names[row["id"]], "scopes": row["scope"].split()} for row in rows]


APPLICATIONS = Resource(
    table=OAuthClient,
    record=OAuthApplication,
    kind="OAuth application",
    scope=None,
    enrich=_split_scopes,
)
AUTHORIZATIONS = Resource(
    table=OAuthGrant,
    record=OAuthAuthorization,
    kind="authorization",
    scope=None,
    filters={
        "kind": choice_filter(
            "kind", ("authorization_code", "client_credentials"), "Only grants of this kind"
        )
    },
    enrich=_with_names,
)
"""Grant families; the dashboard lists the users' authorizations (``kind=authorization_code``),
not the one family per client-credentials token."""


@requires(None)
async def list_applications(
    principal: Principal, *, limit: int | None = None, offset: int | None = None
) -> Page[OAuthApplication]:
    """The organization's applications, newest first."""
    principal.require_person()
    return await APPLICATIONS.page(principal, limit=limit, offset=offset)


@requires(None)
async def register_application(
    principal: Principal, data: OAuthApplicationCreate
) -> OAuthClientCreated:
    """Register an application acting for the admin who registers it; the secret (none for a
    public client) is in the answer and never again."""
    principal.require_admin()
    registration = check_registration(data.name, data.redirect_uris, " ".join(data.scopes))
    return await register(
        principal.organization_id,
        principal.user_id,
        registration,
        public=data.public,
        trusted=data.trusted,
        actor=principal,
    )


@requires(None)
async def set_application_disabled(principal: Principal, client_id: str, disabled: bool) -> None:
    """Disable the application (no token issued or accepted) or enable it again."""
    principal.require_admin()
    await clients.set_disabled(
        client_id, disabled, organization_id=principal.organization_id, actor=principal
    )


@requires(None)
async def delete_application(principal: Principal, client_id: str) -> None:
    """Delete the application: its authorizations, refresh and access tokens stop working."""
    principal.require_admin()
    await clients.delete_client(
        client_id, organization_id=principal.organization_id, actor=principal
    )


@requires(None)
async def rotate_application_secret(principal: Principal, client_id: str) -> str:
    """A new client secret, in the answer and never again; the old one stops working."""
    principal.require_admin()
    return await clients.rotate_secret(
        client_id, organization_id=principal.organization_id, actor=principal
    )


@requires(None)
async def list_authorizations(
    principal: Principal, *, limit: int | None = None, offset: int | None = None
) -> Page[OAuthAuthorization]:
    """The authorizations the organization's users gave its applications, newest first,
    revoked ones included (with ``revoked_at``)."""
    principal.require_person()
    return await AUTHORIZATIONS.page(
        principal, limit=limit, offset=offset, kind="authorization_code"
    )


@requires(None)
async def revoke_authorization(principal: Principal, authorization_id: UUID) -> None:
    """Revoke a user's authorization: its refresh tokens at once, its access tokens on their next
    use (each request checks its family). Revoking a revoked one changes nothing."""
    principal.require_admin()
    async with transaction():
        revoked = (
            await OAuthGrant.update({OAuthGrant.revoked_at: utcnow()})
            .where(
                OAuthGrant.id == authorization_id,
                OAuthGrant.organization_id == principal.organization_id,
                OAuthGrant.kind == "authorization_code",
                OAuthGrant.revoked_at.is_null(),
            )
            .returning(OAuthGrant.id)
        )
        if not revoked:
            if not await OAuthGrant.exists().where(
                OAuthGrant.id == authorization_id,
                OAuthGrant.organization_id == principal.organization_id,
                OAuthGrant.kind == "authorization_code",
            ):
                raise NotFound.resource("authorization", authorization_id)
            return
        await revoke_family(authorization_id)
        found = await AUTHORIZATIONS.get(principal, authorization_id)
        await audit.record(
            principal,
            "oauth_authorization.revoke",
            Target("oauth_authorization", authorization_id, found.application_name),
            {"user_email": found.user_email, "scopes": found.scopes},
        )
