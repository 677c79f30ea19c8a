"""OAuth applications: the organization's registered clients, registering one (its secret shown
once), disabling, enabling and deleting one and rotating its secret (shown once), and the
authorizations users gave them, which an admin can revoke."""

from __future__ import annotations

from typing import Annotated, Any

from litestar import Response, get, post
from litestar.params import PathParameter
from litestar.response import Template

from app.principal import SCOPE_DESCRIPTIONS, SCOPES
from app.schemas.oauth import OAuthApplicationCreate, OAuthClientCreated
from app.services.oauth import applications
from dashboard.forms import message, offset_of, pager, redirect, submitted, text, texts
from dashboard.layout import PageRequest, PathId, page
from dashboard.security import principal_of

PATH = "/dashboard/oauth-applications"
MESSAGES = {
    "revoked": "The authorization was revoked: the application's tokens for that user stop "
    "working now.",
    "disabled": "The application was disabled: it gets no tokens and its tokens stop working "
    "until you enable it again.",
    "enabled": "The application was enabled again.",
    "deleted": "The application was deleted: its authorizations and tokens no longer work.",
}


def _empty_form() -> dict[str, Any]:
    return {"name": "", "redirect_uris": "", "scopes": [], "public": False, "trusted": False}


async def _applications_page(
    request: PageRequest,
    *,
    created: OAuthClientCreated | None = None,
    rotated: tuple[str, str] | None = None,
    error: str = "",
    form: dict[str, Any] | None = None,
    status: int = 200,
) -> Template:
    principal = principal_of(request)
    registered = await applications.list_applications(principal, limit=100)
    granted = await applications.list_authorizations(
        principal, offset=offset_of(request, "granted")
    )
    return page(
        request,
        "oauth_applications.html",
        "OAuth applications",
        status=status,
        applications=registered.data,
        authorizations=granted.data,
        pages=pager(PATH, granted.pagination, len(granted.data), "granted"),
        created=created,
        rotated=rotated,
        error=error,
        message=message(request, MESSAGES),
        scopes=[(scope, SCOPE_DESCRIPTIONS[scope]) for scope in SCOPES],
        form=form or _empty_form(),
    )


@get(PATH)
async def applications_page(request: PageRequest) -> Template:
    return await _applications_page(request)


@post(PATH, status_code=201)
async def register_application(request: PageRequest) -> Template:
    """Answers with the page itself (not a redirect): the client secret is shown this once."""
    form = await request.form()
    fields: dict[str, Any] = {
        "name": text(form, "name"),
        "redirect_uris": text(form, "redirect_uris"),
        "scopes": texts(form, "scopes"),
        "public": text(form, "public") == "on",
        "trusted": text(form, "trusted") == "on",
    }
    data = OAuthApplicationCreate(
        name=fields["name"],
        redirect_uris=fields["redirect_uris"].split(),
        scopes=fields["scopes"],
        public=fields["public"],
        trusted=fields["trusted"],
    )

    async def register() -> Template:
        created = await applications.register_application(principal_of(request), data)
        return await _applications_page(request, created=created, status=201)

    return await submitted(
        register, lambda error: _applications_page(request, error=error, form=fields, status=400)
    )


@post(f"{PATH}/authorizations/{{authorization_id:uuid}}/revoke", status_code=303)
async def revoke_authorization(request: PageRequest, authorization_id: PathId) -> Response[Any]:
    await applications.revoke_authorization(principal_of(request), authorization_id)
    return redirect(PATH, "revoked")


APPLICATION = f"{PATH}/{{client_id:str}}"
ClientId = Annotated[str, PathParameter()]


@post(f"{APPLICATION}/disable", status_code=303)
async def disable_application(request: PageRequest, client_id: ClientId) -> Response[Any]:
    await applications.set_application_disabled(principal_of(request), client_id, True)
    return redirect(PATH, "disabled")


@post(f"{APPLICATION}/enable", status_code=303)
async def enable_application(request: PageRequest, client_id: ClientId) -> Response[Any]:
    await applications.set_application_disabled(principal_of(request), client_id, False)
    return redirect(PATH, "enabled")


@post(f"{APPLICATION}/delete", status_code=303)
async def delete_application(request: PageRequest, client_id: ClientId) -> Response[Any]:
    await applications.delete_application(principal_of(request), client_id)
    return redirect(PATH, "deleted")


@post(f"{APPLICATION}/rotate-secret", status_code=200)
async def rotate_secret(request: PageRequest, client_id: ClientId) -> Template:
    """Answers with the page itself: the new secret is shown this once."""
    principal = principal_of(request)
    secret = await applications.rotate_application_secret(principal, client_id)
    return await _applications_page(request, rotated=(client_id, secret))


ROUTES = [
    applications_page,
    register_application,
    revoke_authorization,
    disable_application,
    enable_application,
    delete_application,
    rotate_secret,
]
