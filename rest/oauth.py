"""The OAuth 2.0 endpoints (CONTRACT.md section 7). None of them takes a bearer header.

Token and revocation answers follow RFC 6749 section 5 (JSON ``{error, error_description}``,
``Cache-Control: no-store``), not problem+json; the authorize step answers a browser with a
redirect, the consent page or an error page.
"""

from __future__ import annotations

import html
from pathlib import Path
from string import Template
from typing import Any
from urllib.parse import parse_qsl

from litestar import MediaType, Request, Response, get, post
from litestar.datastructures import Cookie
from litestar.openapi.datastructures import ResponseSpec

from app.schemas.oauth import (
    AuthorizationServerMetadata,
    JsonWebKeySet,
    TokenError,
    TokenResponse,
)
from app.services.oauth import authorization, consent, discovery, server
from app.settings import Settings
from rest.http import FORM_BODY_OPT
from rest.oauth_openapi import (
    FORM_MEDIA_TYPE,
    AuthorizeOperation,
    DecideOperation,
    RevokeOperation,
    TokenOperation,
)

TEMPLATES = Path(__file__).parent / "templates"
CONSENT_TEMPLATE = Template((TEMPLATES / "oauth_consent.html").read_text())
ERROR_TEMPLATE = Template((TEMPLATES / "oauth_error.html").read_text())
AUTHORIZE_PATH = "/oauth2/authorize"
PAGE_HEADERS = {
    "Cache-Control": "no-store",
    "X-Frame-Options": "DENY",
    "Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline'; "
    "frame-ancestors 'none'",
    "Referrer-Policy": "no-referrer",
}
TOKEN_ERRORS = {
    400: ResponseSpec(
        TokenError, description="RFC 6749 section 5.2 error", generate_examples=False
    ),
    401: ResponseSpec(
        TokenError, description="invalid_client (HTTP Basic was sent)", generate_examples=False
    ),
}
TOKEN_ENDPOINT: dict[str, Any] = {
    "opt": {FORM_BODY_OPT: True},
    "security": [{}],
    "status_code": 200,
    "responses": TOKEN_ERRORS,
}
"""What the token and revocation endpoints share: a form body, no bearer, RFC 6749 errors."""


def _query_pairs(request: Request[Any, Any, Any]) -> list[tuple[str, str]]:
    return parse_qsl(request.scope.get("query_string", b"").decode("latin-1"), True)


async def _form_pairs(request: Request[Any, Any, Any]) -> list[tuple[str, str]] | None:
    """The urlencoded body as pairs (repeats kept), or None when it is not a form."""
    media_type = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if media_type != FORM_MEDIA_TYPE:
        return None
    return parse_qsl((await request.body()).decode("utf-8", "replace"), True)


def _json_outcome(outcome: server.Outcome) -> Response[Any]:
    headers = {name: value for name, value in outcome.headers if name.lower() != "content-type"}
    return Response(
        outcome.body, status_code=outcome.status, media_type=MediaType.JSON, headers=headers
    )


def _not_a_form() -> Response[Any]:
    return Response(
        {"error": "invalid_request", "error_description": f"Send the body as {FORM_MEDIA_TYPE}"},
        status_code=400,
        media_type=MediaType.JSON,
        headers={"Cache-Control": "no-store", "Pragma": "no-cache"},
    )


def _settings(request: Request[Any, Any, Any]) -> Settings:
    settings: Settings = request.app.state["settings"]
    return settings


async def _form_answer(request: Request[Any, Any, Any], endpoint: server.Endpoint) -> Response[Any]:
    """The JSON answer of a token or revocation ``endpoint`` to the request's form."""
    pairs = await _form_pairs(request)
    if pairs is None:
        return _not_a_form()
    outcome = await endpoint(pairs, request.headers.get("authorization"), _settings(request))
    return _json_outcome(outcome)


def _page(answer: authorization.Answer, settings: Settings) -> Response[Any]:
    if isinstance(answer, server.Outcome):
        return Response(
            b"",
            status_code=302,
            headers={"Location": answer.location or "", "Cache-Control": "no-store"},
        )
    if isinstance(answer, authorization.ErrorPage):
        body = ERROR_TEMPLATE.substitute(
            error=html.escape(answer.error), description=html.escape(answer.description)
        )
        return Response(
            body, status_code=answer.status, media_type=MediaType.HTML, headers=PAGE_HEADERS
        )
    items = "\n".join(
        f"<li>{html.escape(text)} <code>{html.escape(scope)}</code></li>"
        for scope, text in answer.scopes
    )
    body = CONSENT_TEMPLATE.substitute(
        client_name=html.escape(answer.client_name),
        organization_name=html.escape(answer.organization_name),
        user_email=html.escape(answer.user_email),
        scope_items=items,
        action=AUTHORIZE_PATH,
        ticket=html.escape(answer.ticket),
    )
    cookie = Cookie(
        key=answer.csrf_cookie,
        value=answer.csrf,
        path=AUTHORIZE_PATH,
        httponly=True,
        samesite="strict",
        secure=settings.public_url.startswith("https:"),
        max_age=600,
    )
    return Response(body, media_type=MediaType.HTML, headers=PAGE_HEADERS, cookies=[cookie])


@get(
    AUTHORIZE_PATH,
    tags=["oauth"],
    summary="Authorization endpoint (browser)",
    description="RFC 6749 section 4.1.1 with `organization_id` and `token` (the user's JWT from "
    "the identity provider). Answers with the consent page, a redirect to `redirect_uri` "
    "(`code` and `state`, or `error`), or an HTML error page when the client or redirect_uri "
    "is not valid.",
    security=[{}],
    include_in_schema=True,
    operation_class=AuthorizeOperation,
)
async def oauth_authorize(request: Request[Any, Any, Any]) -> Response[Any]:
    settings = _settings(request)
    return _page(await authorization.authorize(_query_pairs(request), settings), settings)


@post(
    AUTHORIZE_PATH,
    tags=["oauth"],
    summary="Consent decision (browser form)",
    description="The consent page's approve / deny form; redirects to the client.",
    opt={FORM_BODY_OPT: True},
    security=[{}],
    status_code=302,
    operation_class=DecideOperation,
)
async def oauth_consent(request: Request[Any, Any, Any]) -> Response[Any]:
    form = dict(await _form_pairs(request) or [])
    cookies = {
        name: value
        for name, value in request.cookies.items()
        if name.startswith(consent.CSRF_COOKIE_PREFIX)
    }
    settings = _settings(request)
    answer = await authorization.decide(
        form.get("consent"), cookies, form.get("decision") == "approve", settings
    )
    return _page(answer, settings)


@post(
    "/oauth2/token",
    tags=["oauth"],
    summary="Token endpoint",
    description="Form-encoded; grant types `authorization_code` (with PKCE), `client_credentials` "
    "and `refresh_token`. Clients authenticate with HTTP Basic or `client_secret` in the form; "
    "public clients send only `client_id`.",
    operation_class=TokenOperation,
    **TOKEN_ENDPOINT,
)
async def oauth_token(request: Request[Any, Any, Any]) -> Response[TokenResponse]:
    return await _form_answer(request, server.token_endpoint)


@post(
    "/oauth2/revoke",
    tags=["oauth"],
    summary="Token revocation (RFC 7009)",
    description="Revokes the grant an access or refresh token belongs to, with every token of it. "
    "Answers 200 for unknown tokens too.",
    operation_class=RevokeOperation,
    **TOKEN_ENDPOINT,
)
async def oauth_revoke(request: Request[Any, Any, Any]) -> Response[Any]:
    return await _form_answer(request, server.revocation_endpoint)


@get(
    "/.well-known/oauth-authorization-server",
    tags=["oauth"],
    summary="Authorization server metadata (RFC 8414)",
    security=[{}],
)
async def get_authorization_server_metadata(
    request: Request[Any, Any, Any],
) -> AuthorizationServerMetadata:
    return discovery.metadata(_settings(request))


@get(
    "/oauth2/jwks.json",
    tags=["oauth"],
    summary="Public keys of the access tokens (JWKS)",
    security=[{}],
)
async def get_jwks(request: Request[Any, Any, Any]) -> JsonWebKeySet:
    return JsonWebKeySet(**await discovery.jwks(_settings(request)))


OAUTH_ROUTES = [
    oauth_authorize,
    oauth_consent,
    oauth_token,
    oauth_revoke,
    get_authorization_server_metadata,
    get_jwks,
]
