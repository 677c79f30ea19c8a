"""GraphQL fields bound to the service operation they call, and checked against its scope.

A field declares its operation with :func:`field` / :func:`mutation`; the scope comes from that
operation's declaration (``app.principal.requires`` or a ``Resource``), is checked before the
resolver parses its arguments (FORBIDDEN before BAD_USER_INPUT, as REST answers 403 before 400)
and is named in the field's description. The service checks the same declaration again.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable, Mapping
from typing import Any

import strawberry
from strawberry.extensions import FieldExtension
from strawberry.types.field import StrawberryField

from app.principal import scope_of
from app.resources import Resource
from app.signatures import signed
from graphql_api.context import Context, Info
from graphql_api.core import DIRECT_RESOLVER
from graphql_api.prefetch import RELATED

SERVICE_METADATA = "service"
"""The key of a field's metadata holding its service operation (read by the scope test)."""


class RequireScope(FieldExtension):
    """The scope check of a field. A relation (:func:`relation`) checks the same scope in its
    direct resolver, which graphql-core calls instead."""

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


FieldDecorator = Callable[[Callable[..., Any]], StrawberryField]
"""What :func:`field`, :func:`direct_field`, :func:`mutation` and :func:`subscription` give:
a decorator making the resolver a Strawberry field."""


def field(service: Any, description: str = "") -> FieldDecorator:
    """A query field (use as a decorator) resolved through ``service``."""
    decorator: FieldDecorator = strawberry.field(**_options(service, description))
    return decorator


def relation(service: Resource[Any], key: str, description: str = "") -> Any:
    """A field holding the record of ``service`` whose id is this record's attribute ``key``
    (null when that is null), read through the request's record loader; declared as
    ``order: Order | None = relation(ORDERS, "order_id")``.

    Its direct resolver (``graphql_api.core.DIRECT_RESOLVER``) checks the scope and asks the
    loader: graphql-core calls it without Strawberry's resolver wrapper, and a list asks it for
    all its items before completing them, so that a page's relations are one batch awaited once
    and each item then finds its record already loaded."""
    scope = scope_of(service)

    def direct(source: Any, context: Context) -> Any:
        if scope is not None:
            context.principal.require(scope)
        record_id = getattr(source, key)
        if record_id is None:
            return None
        return context.loaders.record(service, record_id)

    def resolve(root: Any, info: Info) -> Any:
        return direct(root, info.context)

    options = _options(service, description)
    options["metadata"][DIRECT_RESOLVER] = direct
    options["metadata"][RELATED] = (key, service)
    return strawberry.field(resolver=resolve, **options)


def direct_field(
    service: Any, description: str = "", *, metadata: Mapping[str, Any] | None = None
) -> FieldDecorator:
    """A query field (use as a decorator) resolved through ``service`` by a resolver that takes
    the operation's context where others take an info, and only scalar arguments:
    ``def event(self, context: Context, id: strawberry.ID) -> Event | None``.

    graphql-core calls it as the field's direct resolver (``graphql_api.core.DIRECT_RESOLVER``),
    after the scope check, without Strawberry's resolver wrapper: no info object, no argument
    conversion, no extension chain, which on the hot path of a page cost more than the resolver
    itself. Strawberry sees a resolver with the same arguments taking an info, so the field, its
    declaration and the schema are the same as with :func:`field`. ``metadata`` is added to
    the field's (``graphql_api.prefetch`` reads it)."""
    scope = scope_of(service)

    def decorate(resolver: Callable[..., Any]) -> StrawberryField:
        def direct(source: Any, context: Context, **arguments: Any) -> Any:
            if scope is not None:
                context.principal.require(scope)
            return resolver(source, context, **arguments)

        def resolve(root: Any, info: Info, **arguments: Any) -> Any:
            return direct(root, info.context, **arguments)

        functools.update_wrapper(resolve, resolver)
        signature = inspect.signature(resolver)
        signed(
            resolve,
            [
                parameter.replace(name="info", annotation=Info)
                if parameter.name == "context"
                else parameter
                for parameter in signature.parameters.values()
            ],
            signature.return_annotation,
        )
        options = _options(service, description)
        options["metadata"][DIRECT_RESOLVER] = direct
        options["metadata"].update(metadata or {})
        made: StrawberryField = strawberry.field(resolver=resolve, **options)
        return made

    return decorate


def mutation(service: Any, description: str = "") -> FieldDecorator:
    """A mutation (use as a decorator) performed by ``service``."""
    decorator: FieldDecorator = strawberry.mutation(**_options(service, description))
    return decorator


def subscription(service: Any, description: str = "") -> FieldDecorator:
    """A subscription (use as a decorator) whose feed ``service`` opens."""
    decorator: FieldDecorator = strawberry.subscription(**_options(service, description))
    return decorator
