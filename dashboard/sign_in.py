"""Signing in and out, and picking the organization to work in."""

from __future__ import annotations

from typing import Any
from uuid import UUID

from litestar import Request, Response, get, post
from litestar.response import Template

from app.errors import InvalidInput
from app.services import dashboard_sessions, dashboard_sign_in
from app.services.oauth.idp import SignInError
from app.settings import Settings
from dashboard.layout import page
from dashboard.security import (
    ANY_ORGANIZATION,
    PUBLIC,
    SIGN_IN_PATH,
    cleared_cookie,
    cookie_token,
    safe_return_path,
    session_cookie,
    session_of,
)

START_PATH = "/dashboard/sign-in/start"


def _settings(request: Request[Any, Any, Any]) -> Settings:
    settings: Settings = request.app.state["settings"]
    return settings


def _sign_in_page(request: Request[Any, Any, Any], error: str = "", status: int = 200) -> Template:
    settings = _settings(request)
    next_path = safe_return_path(request.query_params.get("next"))
    start = START_PATH if next_path == "/dashboard" else f"{START_PATH}?next={next_path}"
    return page(
        request,
        "sign_in.html",
        "Sign in",
        status=status,
        configured=settings.dashboard_enabled,
        start_url=start,
        error=error,
        signed_out=request.query_params.get("signed_out") == "1" and not error,
    )


@get(SIGN_IN_PATH, opt={PUBLIC: True})
async def sign_in_page(request: Request[Any, Any, Any]) -> Template:
    return _sign_in_page(request)


@get(START_PATH, opt={PUBLIC: True})
async def start_sign_in(request: Request[Any, Any, Any]) -> Response[Any] | Template:
    """Send the browser to the identity provider (PKCE, state and nonce kept server-side)."""
    settings = _settings(request)
    try:
        started = await dashboard_sign_in.begin(
            settings, safe_return_path(request.query_params.get("next"))
        )
    except SignInError as error:
        return _sign_in_page(request, str(error), status=503)
    return Response(
        b"",
        status_code=303,
        headers={"Location": started.authorization_url},
        cookies=[session_cookie(settings, started.cookie_token)],
    )


@get(dashboard_sign_in.CALLBACK_PATH, opt={PUBLIC: True})
async def sign_in_callback(request: Request[Any, Any, Any]) -> Response[Any] | Template:
    """The identity provider sends the browser back here with a code (or an error)."""
    settings = _settings(request)
    params = {name: value for name, value in request.query_params.items()}
    try:
        signed_in = await dashboard_sign_in.finish(settings, cookie_token(request), params)
    except SignInError as error:
        return _sign_in_page(request, str(error), status=400)
    return Response(
        b"",
        status_code=303,
        headers={"Location": safe_return_path(signed_in.return_to)},
        cookies=[session_cookie(settings, signed_in.cookie_token)],
    )


@post("/dashboard/sign-out", opt={ANY_ORGANIZATION: True}, status_code=303)
async def sign_out(request: Request[Any, Any, Any]) -> Response[Any]:
    token = cookie_token(request)
    if token:
        await dashboard_sessions.end_session(token)
    return Response(
        b"",
        status_code=303,
        headers={"Location": f"{SIGN_IN_PATH}?signed_out=1"},
        cookies=[cleared_cookie(_settings(request))],
    )


@post("/dashboard/sign-out/everywhere", opt={ANY_ORGANIZATION: True}, status_code=303)
async def sign_out_everywhere(request: Request[Any, Any, Any]) -> Response[Any]:
    """End every session of the signed-in person, in every browser (a lost laptop)."""
    await dashboard_sessions.end_sessions_of_user(session_of(request).user_id)
    return Response(
        b"",
        status_code=303,
        headers={"Location": f"{SIGN_IN_PATH}?signed_out=1"},
        cookies=[cleared_cookie(_settings(request))],
    )


@get("/dashboard/organizations", opt={ANY_ORGANIZATION: True})
async def organization_picker(request: Request[Any, Any, Any]) -> Template:
    memberships = await dashboard_sessions.organizations_of(session_of(request))
    return page(request, "organizations.html", "Your organizations", memberships=memberships)


@post("/dashboard/organizations", opt={ANY_ORGANIZATION: True}, status_code=303)
async def choose_organization(request: Request[Any, Any, Any]) -> Response[Any]:
    form = await request.form()
    try:
        organization_id = UUID(str(form.get("organization_id", "")))
    except ValueError:
        raise InvalidInput.field("organization_id", "not an organization id") from None
    await dashboard_sessions.choose_organization(session_of(request), organization_id)
    return Response(b"", status_code=303, headers={"Location": "/dashboard"})


@post("/dashboard/mode", status_code=303)
async def switch_mode(request: Request[Any, Any, Any]) -> Response[Any]:
    """The live / test switch (CONTRACT.md section 18): the session acts as the organization's
    test twin until switched back."""
    form = await request.form()
    mode = str(form.get("mode", ""))
    if mode not in ("live", "test"):
        raise InvalidInput.field("mode", "must be live or test")
    await dashboard_sessions.switch_mode(session_of(request), mode == "test")
    return Response(b"", status_code=303, headers={"Location": "/dashboard"})


ROUTES = [
    sign_in_page,
    start_sign_in,
    sign_in_callback,
    sign_out,
    sign_out_everywhere,
    organization_picker,
    choose_organization,
    switch_mode,
]
