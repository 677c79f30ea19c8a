"""Bearer authentication for the REST and GraphQL routes, and the ``principal`` dependency."""

from __future__ import annotations

from typing import Any

from litestar import Request
from litestar.connection import ASGIConnection
from litestar.middleware import AbstractAuthenticationMiddleware, AuthenticationResult
from litestar.middleware.base import DefineMiddleware

from app.principal import Principal
from app.services.authentication import authenticate

PUBLIC_PATHS = ["^/schema", "^/oauth2/", "^/.well-known/", "^/favicon.ico$"]


class BearerAuthenticationMiddleware(AbstractAuthenticationMiddleware):
    async def authenticate_request(
        self, connection: ASGIConnection[Any, Any, Any, Any]
    ) -> AuthenticationResult:
        principal = await authenticate(connection.headers.get("authorization"))
        return AuthenticationResult(user=principal, auth=None)


bearer_authentication = DefineMiddleware(BearerAuthenticationMiddleware, exclude=PUBLIC_PATHS)


def current_principal(request: Request[Principal, None, Any]) -> Principal:
    return request.user
