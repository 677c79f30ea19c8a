"""API keys: the organization's keys, creating one (scopes by checkbox, the key shown once) and
revoking one. The services decide who may: a member reads, an admin also changes."""

from __future__ import annotations

from typing import Any

from litestar import Response, get, post
from litestar.response import Template

from app.principal import SCOPE_DESCRIPTIONS, SCOPES
from app.schemas.identity import ApiKeyCreated
from app.services import api_keys, request_log
from dashboard.forms import message, redirect, submitted, text, texts
from dashboard.layout import PageRequest, PathId, page
from dashboard.security import principal_of

PATH = "/dashboard/api-keys"
MESSAGES = {"revoked": "The key was revoked: requests with it now get 401."}
NO_STORE = {"Cache-Control": "no-store"}


async def _keys_page(
    request: PageRequest,
    *,
    created: ApiKeyCreated | None = None,
    error: str = "",
    form_name: str = "",
    form_scopes: frozenset[str] = frozenset(),
    status: int = 200,
) -> Template:
    keys = await api_keys.list_api_keys(principal_of(request))
    return page(
        request,
        "api_keys.html",
        "API keys",
        status=status,
        keys=keys,
        created=created,
        error=error,
        message=message(request, MESSAGES),
        scopes=[(scope, SCOPE_DESCRIPTIONS[scope]) for scope in SCOPES],
        form_name=form_name,
        form_scopes=form_scopes,
    )


@get(PATH)
async def api_keys_page(request: PageRequest) -> Template:
    return await _keys_page(request)


@post(PATH, status_code=200)
async def create_api_key(request: PageRequest) -> Template:
    """Answers with the page itself (not a redirect): the new key is shown this once."""
    form = await request.form()
    name = text(form, "name")
    scopes = texts(form, "scopes")

    async def create() -> Template:
        created = await api_keys.issue_api_key(principal_of(request), " ".join(scopes), name)
        return await _keys_page(request, created=created, status=201)

    return await submitted(
        create,
        lambda error: _keys_page(
            request, error=error, form_name=name, form_scopes=frozenset(scopes), status=400
        ),
    )


@post(f"{PATH}/{{key_id:uuid}}/revoke", status_code=303)
async def revoke_api_key(request: PageRequest, key_id: PathId) -> Response[Any]:
    await api_keys.revoke_organization_api_key(principal_of(request), key_id)
    return redirect(PATH, "revoked")


@get(f"{PATH}/{{key_id:uuid}}/requests")
async def key_requests_page(request: PageRequest, key_id: PathId) -> Template:
    """The key's request log (CONTRACT.md section 18), newest first, filtered by status class."""
    status = request.query_params.get("status", "")
    principal = principal_of(request)
    entries = await request_log.requests_of_key(principal, key_id, status)
    key = next(k for k in await api_keys.list_api_keys(principal) if k.id == key_id)
    return page(
        request,
        "request_log.html",
        "Requests",
        key=key,
        entries=entries,
        status_class=status,
        statuses=request_log.STATUS_CLASSES,
        kept=request_log.KEEP,
        days=request_log.KEEP_FOR.days,
    )


ROUTES = [api_keys_page, create_api_key, revoke_api_key, key_requests_page]
