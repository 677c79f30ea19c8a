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


def principal_of(info: Info) -> Principal:
    """The caller (its scope was checked by the field's declaration, ``graphql_api.scopes``)."""
    principal = info.context.principal
    assert principal is not None, "resolvers run only for authenticated requests"
    return principal


def settings_of(info: Info) -> Settings:
    request = info.context.request
    assert request is not None, "resolvers run inside an HTTP request"
    return request.app.state["settings"]


def loaders_of(info: Info) -> Loaders:
    loaders = info.context.loaders
    assert loaders is not None, "resolvers run only for authenticated requests"
    return loaders
