"""GraphQL fields bound to the service operation they call, and checked against its scope.

A field declares its operation with :func:`field` / :func:`mutation`; the scope comes from that
operation's declaration (``app.principal.requires`` or a ``Resource``), is checked before the
resolver parses its arguments (FORBIDDEN before BAD_USER_INPUT, as REST answers 403 before 400)
and is named in the field's description. The service checks the same declaration again.
"""

from __future__ import annotations

import inspect
from typing import Any

import strawberry
from strawberry.extensions import FieldExtension

from app.principal import scope_of
from graphql_api.context import Info

SERVICE_METADATA = "service"
"""The key of a field's metadata holding its service operation (read by the scope test)."""


class RequireScope(FieldExtension):
    """The scope check of a field. A relation that only asks a dataloader is a plain function
    returning the loader's future (``graphql_api.types``), so its check is plain too: no
    coroutine per item of a page."""

    def __init__(self, scope: str | None) -> None:
        self.scope = scope

    def resolve(self, next_: Any, source: Any, info: Info, **kwargs: Any) -> Any:
        if self.scope is not None:
            info.context.principal.require(self.scope)
        return next_(source, info, **kwargs)

    async def resolve_async(self, next_: Any, source: Any, info: Info, **kwargs: Any) -> Any:
        if self.scope is not None:
            info.context.principal.require(self.scope)
        result = next_(source, info, **kwargs)
        # A subscription's resolver gives an async generator, anything else an awaitable.
        return await result if inspect.isawaitable(result) else result


def _options(service: Any, description: str) -> dict[str, Any]:
    scope = scope_of(service)
    needed = f"Scope {scope}." if scope else "Needs no scope."
    return {
        "description": f"{needed} {description}".strip(),
        "extensions": [RequireScope(scope)],
        "metadata": {SERVICE_METADATA: service},
    }


def field(service: Any, description: str = "") -> Any:
    """A query field (use as a decorator) resolved through ``service``."""
    return strawberry.field(**_options(service, description))


def mutation(service: Any, description: str = "") -> Any:
    """A mutation (use as a decorator) performed by ``service``."""
    return strawberry.mutation(**_options(service, description))


def subscription(service: Any, description: str = "") -> Any:
    """A subscription (use as a decorator) whose feed ``service`` opens."""
    return strawberry.subscription(**_options(service, description))
