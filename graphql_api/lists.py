"""The filters of a list as GraphQL arguments, from the resource's declaration.

A list resolver takes ``**filters`` and is decorated with :func:`filtered`: its signature gains one
argument per filter the resource declares (the camelCase of the filter's name, its description),
which Strawberry reads to build the field. The values reach the resource as they came; it parses
and bounds them as it does for REST.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from datetime import datetime
from typing import Annotated, Any, TypeVar

import strawberry
from strawberry.utils.str_converters import to_camel_case

from app.resources import Filter, Resource

F = TypeVar("F", bound=Callable[..., Any])

_TYPES: dict[str, Any] = {"id": strawberry.ID, "timestamp": datetime}
"""The GraphQL type of a filter's value by its kind (text otherwise)."""


def _argument(key: str, declared: Filter) -> inspect.Parameter:
    description = declared.description
    if declared.choices:
        description += f": {', '.join(declared.choices)}"
    elif declared.kind == "text":
        description += f"; 1 to {declared.max_length} characters"
    annotation: Any = Annotated[
        _TYPES.get(declared.kind, str) | None,
        strawberry.argument(name=to_camel_case(declared.name), description=description),
    ]
    return inspect.Parameter(
        key, inspect.Parameter.KEYWORD_ONLY, default=None, annotation=annotation
    )


def filtered(resource: Resource[Any], *, parent: str | None = None) -> Callable[[F], F]:
    """Give the resolver (which takes ``**filters``) an argument per filter of ``resource``;
    a nested list leaves out the filter on its ``parent`` column."""

    def decorate(resolver: F) -> F:
        signature = inspect.signature(resolver)
        own = [p for p in signature.parameters.values() if p.kind is not p.VAR_KEYWORD]
        added = [_argument(key, f) for key, f in resource.filters.items() if key != parent]
        # Strawberry reads the arguments from __signature__ (PEP 362), mypy knows none on functions.
        resolver.__signature__ = signature.replace(parameters=[*own, *added])  # type: ignore[attr-defined]
        return resolver

    return decorate
