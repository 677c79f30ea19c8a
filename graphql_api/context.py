"""The per-operation GraphQL context: who is calling, the settings, and the dataloaders."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import strawberry

from app.principal import Principal
from app.settings import Settings
from graphql_api.dataloaders import Loaders


@dataclass(slots=True)
class Context:
    """Made by the transport (``rest/graphql.py``, ``rest/subscriptions.py``) for an
    authenticated caller. ``on_overflow`` is how a subscription's feed tells its transport that
    the subscriber could not keep up (``app.runtime.live``)."""

    principal: Principal
    settings: Settings
    on_overflow: Callable[[], None] | None = None
    loaders: Loaders = field(init=False)

    def __post_init__(self) -> None:
        self.loaders = Loaders(self.principal)


Info = strawberry.Info[Context, Any]


def principal_of(info: Info) -> Principal:
    """The caller (its scope was checked by the field's declaration, ``graphql_api.scopes``)."""
    return info.context.principal


def settings_of(info: Info) -> Settings:
    return info.context.settings


def loaders_of(info: Info) -> Loaders:
    return info.context.loaders
