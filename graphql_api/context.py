"""The per-request GraphQL context: who is calling and the request's dataloaders."""

from __future__ import annotations

from typing import Any

import strawberry
from strawberry.litestar import BaseContext

from app.principal import Principal
from app.settings import Settings
from graphql_api.dataloaders import Loaders


class Context(BaseContext, kw_only=True):
    """``principal`` is None only while GraphiQL's page is served, when no resolver runs."""

    principal: Principal | None = None
    loaders: Loaders | None = None


Info = strawberry.Info[Context, Any]


def principal_of(info: Info, scope: str | None = None) -> Principal:
    """The caller; with ``scope``, only if the credential carries it.

    Root fields check their scope here, before their arguments are parsed, so that a caller
    without the scope gets FORBIDDEN rather than BAD_USER_INPUT, as REST answers 403 before 400.
    The service checks the same scope again.
    """
    principal = info.context.principal
    assert principal is not None, "resolvers run only for authenticated requests"
    if scope is not None:
        principal.require(scope)
    return principal


def settings_of(info: Info) -> Settings:
    request = info.context.request
    assert request is not None, "resolvers run inside an HTTP request"
    return request.app.state["settings"]


def loaders_of(info: Info) -> Loaders:
    loaders = info.context.loaders
    assert loaders is not None, "resolvers run only for authenticated requests"
    return loaders
