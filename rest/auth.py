"""Bearer authentication for the REST and GraphQL routes, and the ``principal`` dependency."""

from __future__ import annotations

from typing import Any

from litestar import Request
from litestar.connection import ASGIConnection
from litestar.handlers import BaseRouteHandler
from litestar.middleware import AbstractAuthenticationMiddleware, AuthenticationResult
from litestar.middleware.base import DefineMiddleware

from app.principal import Principal
from app.services.authentication import authenticate
from rest.operations import OPERATIONS_PATHS

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
            connection.headers.get("authorization"), connection.app.state["settings"]
        )
        return AuthenticationResult(user=principal, auth=None)


bearer_authentication = DefineMiddleware(BearerAuthenticationMiddleware, exclude=PUBLIC_PATHS)


def current_principal(request: Request[Principal, None, Any]) -> Principal:
    return request.user


SCOPE_OPT = "scope"
"""Route ``opt`` key naming the scope a route needs (from its service's declaration)."""
SERVICE_OPT = "service"
"""Route ``opt`` key holding the service operation the route calls (``rest.docs.operation``)."""


async def require_route_scope(
    connection: ASGIConnection[Any, Any, Any, Any], handler: BaseRouteHandler
) -> None:
    """Guard: a caller without the route's scope gets its 403 before any input is read.

    A coroutine function, because Litestar runs a plain function guard in its thread pool: a
    thread hand-off on every request for a dictionary look-up.

    Litestar parses the path, query and body before the handler runs, so without this guard a bad
    input would answer 400 first and tell a caller without the scope something about the route.
    The services check the same scope again; this only keeps the order of checks
    (401, 403, 400, 404, 409) for the inputs the framework parses. It is a coroutine function
    although it awaits nothing: Litestar runs a plain function guard in a worker thread, which
    cost a quarter of a ``GET /whoami``'s time under load.
    """
    scope = handler.opt.get(SCOPE_OPT)
    if scope is not None:
        connection.user.require(scope)
