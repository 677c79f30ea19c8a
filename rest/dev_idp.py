"""The development identity provider's OpenID Connect endpoints under ``/dev-idp`` (the demo).

Mounted only when ``TICKETING_DEV_IDP_DIR`` is set; the rules are in
:mod:`app.services.oauth.dev_provider`. None of these routes takes a bearer credential.
"""

from __future__ import annotations

import base64
import binascii
import html
from pathlib import Path
from string import Template
from typing import Any
from urllib.parse import parse_qsl, unquote

from litestar import MediaType, Request, Response, get, post
from litestar.handlers import HTTPRouteHandler

from app.services.oauth.dev_provider import PATH, DevProvider, ProviderError
from rest.http import FORM_BODY_OPT

PROVIDER_STATE = "dev_provider"
AUTHORIZE_TEMPLATE = Template(
    (Path(__file__).parent / "templates" / "dev_idp_authorize.html").read_text()
)
DEFAULT_EMAIL = "demo@example.com"
PAGE_HEADERS = {
    "Cache-Control": "no-store",
    "X-Frame-Options": "DENY",
    "Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline'; "
    "form-action 'self' http: https:; frame-ancestors 'none'",
    "Referrer-Policy": "no-referrer",
}
NO_STORE = {"Cache-Control": "no-store", "Pragma": "no-cache"}
CARRIED = ("client_id", "redirect_uri", "response_type", "scope", "state", "nonce",
           "code_challenge", "code_challenge_method")  # fmt: skip
"""The authorize parameters the e-mail form carries back."""


def _provider(request: Request[Any, Any, Any]) -> DevProvider:
    provider: DevProvider = request.app.state[PROVIDER_STATE]
    return provider


def _page(params: dict[str, str], email: str, error: str = "", status: int = 200) -> Response[str]:
    hidden = "\n".join(
        f'<input type="hidden" name="{name}" value="{html.escape(params.get(name, ""))}">'
        for name in CARRIED
    )
    body = AUTHORIZE_TEMPLATE.substitute(
        action=f"{PATH}/authorize",
        hidden=hidden,
        email=html.escape(email),
        error=f'<p class="error" role="alert">{html.escape(error)}</p>' if error else "",
    )
    return Response(body, status_code=status, media_type=MediaType.HTML, headers=PAGE_HEADERS)


def _error_page(error: ProviderError) -> Response[str]:
    body = (
        "<!doctype html><html lang='en'><meta charset='utf-8'><title>Sign-in error</title>"
        f"<main><h1>Sign-in error</h1><p>{html.escape(error.error)}: "
        f"{html.escape(error.description)}</p></main></html>"
    )
    return Response(body, status_code=400, media_type=MediaType.HTML, headers=PAGE_HEADERS)


async def _form(request: Request[Any, Any, Any]) -> dict[str, str]:
    return dict(parse_qsl((await request.body()).decode("utf-8", "replace")))


@get(f"{PATH}/.well-known/openid-configuration", include_in_schema=False)
async def dev_idp_discovery(request: Request[Any, Any, Any]) -> Response[dict[str, Any]]:
    return Response(_provider(request).discovery(), media_type=MediaType.JSON)


@get(f"{PATH}/jwks.json", include_in_schema=False)
async def dev_idp_jwks(request: Request[Any, Any, Any]) -> Response[dict[str, Any]]:
    return Response(_provider(request).jwks(), media_type=MediaType.JSON)


@get(f"{PATH}/authorize", include_in_schema=False)
async def dev_idp_authorize_page(request: Request[Any, Any, Any]) -> Response[str]:
    params = {name: value for name, value in request.query_params.items() if name in CARRIED}
    try:
        _provider(request).check_authorization(params)
    except ProviderError as error:
        return _error_page(error)
    return _page(params, request.query_params.get("login_hint") or DEFAULT_EMAIL)


@post(f"{PATH}/authorize", include_in_schema=False, status_code=302, opt={FORM_BODY_OPT: True})
async def dev_idp_authorize(request: Request[Any, Any, Any]) -> Response[Any]:
    form = await _form(request)
    params = {name: form.get(name, "") for name in CARRIED}
    provider = _provider(request)
    try:
        checked = provider.check_authorization(params)
    except ProviderError as error:
        return _error_page(error)
    try:
        location = provider.approve(checked, form.get("email", ""))
    except ProviderError as error:
        return _page(params, form.get("email", ""), error.description, status=400)
    return Response(b"", status_code=302, headers={"Location": location, **NO_STORE})


def _basic(request: Request[Any, Any, Any]) -> tuple[str, str] | None:
    scheme, _, value = request.headers.get("authorization", "").partition(" ")
    if scheme.lower() != "basic":
        return None
    try:
        client_id, _, secret = base64.b64decode(value.strip()).decode().partition(":")
    except (binascii.Error, UnicodeDecodeError):
        return ("", "")
    return unquote(client_id), unquote(secret)


@post(f"{PATH}/token", include_in_schema=False, status_code=200, opt={FORM_BODY_OPT: True})
async def dev_idp_token(request: Request[Any, Any, Any]) -> Response[dict[str, Any]]:
    try:
        answer = _provider(request).exchange(await _form(request), _basic(request))
    except ProviderError as error:
        status = 401 if error.error == "invalid_client" else 400
        return Response(
            {"error": error.error, "error_description": error.description},
            status_code=status,
            media_type=MediaType.JSON,
            headers=NO_STORE,
        )
    return Response(answer, media_type=MediaType.JSON, headers=NO_STORE)


DEV_IDP_ROUTES: list[HTTPRouteHandler] = [
    dev_idp_discovery,
    dev_idp_jwks,
    dev_idp_authorize_page,
    dev_idp_authorize,
    dev_idp_token,
]
