"""Bearer authentication for the REST and GraphQL routes, and the caller's principal."""

from __future__ import annotations

from typing import Any

from litestar import Request
from litestar.connection import ASGIConnection
from litestar.middleware import AbstractAuthenticationMiddleware, AuthenticationResult
from litestar.middleware.base import DefineMiddleware

from app.principal import Principal
from app.services.authentication import authenticate
from rest.operations import OPERATIONS_PATHS
from rest.scope_headers import header

PUBLIC_PATHS = [
    "^/schema",
    "^/static/",
    "^/oauth2/",
    "^/.well-known/",
    "^/favicon.ico$",
    "^/dashboard(/|$)",
    "^/dev-idp/",
    *OPERATIONS_PATHS,
]


class BearerAuthenticationMiddleware(AbstractAuthenticationMiddleware):
    async def authenticate_request(
        self, connection: ASGIConnection[Any, Any, Any, Any]
    ) -> AuthenticationResult:
        principal = await authenticate(
            header(connection.scope, b"authorization"), connection.app.state["settings"]
        )
        return AuthenticationResult(user=principal, auth=None)


bearer_authentication = DefineMiddleware(BearerAuthenticationMiddleware, exclude=PUBLIC_PATHS)


Caller = Request[Principal, None, Any]
"""A handler's ``request`` parameter on a bearer-authenticated route: ``request.user`` is the
caller's principal. Read there rather than asked for as a dependency: Litestar resolves a
dependency on every request with its own signature model (about 5 % of ``GET /whoami``'s
instructions, docs/decisions.md, "The REST page's CPU")."""


SCOPE_OPT = "scope"
"""Route ``opt`` key naming the scope a route needs (from its service's declaration)."""
SERVICE_OPT = "service"
"""Route ``opt`` key holding the service operation the route calls (``rest.docs.operation``)."""


def require_route_scope(request: Request[Any, Any, Any]) -> None:
    """A caller without the route's scope gets its 403 before any input is read: the first
    check of the application's ``before_request`` (``rest.http.before_route``).

    Litestar parses the path, query and body before the handler runs, so without this check a bad
    input would answer 400 first and tell a caller without the scope something about the route.
    The services check the same scope again; this only keeps the order of checks
    (401, 403, 400, 404, 409) for the inputs the framework parses. It is not a Litestar guard,
    which would run at the same point: Litestar hands each guard a copy of the route handler, on
    every request (about 9 us of CPU, every route).
    """
    scope = request.route_handler.opt.get(SCOPE_OPT)
    if scope is not None:
        request.user.require(scope)
