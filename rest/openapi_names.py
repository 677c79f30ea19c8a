"""Plain names in the OpenAPI document, for the SDKs generated from it (docs/integrations.md).

- ``operationId``: the camelCase of the route handler's function name (``list_orders`` ->
  ``listOrders``), for every route, those added later included (:func:`operation_id` is the
  document's ``operation_id_creator``). Renaming a handler renames its operation, so handlers
  are named as the public operation should be.
- Enumerations: a string enum whose values are those of a ``Literal`` alias of ``app.schemas``
  (``OrderStatus``, ``ScanReason``, ...) becomes a component of that name, referred to wherever
  the values appear, nullable or not. Litestar writes them inline, and a generator then invents a
  class per place (``ScanResultReasonType1``, ``ListOrdersStatus``).
- Pages: Litestar names the component of ``Page[Event]`` after the generic's full path
  (``Page_app.schemas.events.Event_``, titled ``Page[Event]``); it is called ``EventPage``.
- Every component's ``title`` is its name: generators name their classes after the title.
"""

from __future__ import annotations

import dataclasses
import importlib
import pkgutil
import re
from collections.abc import Callable
from typing import Any, Literal, get_args, get_origin

from litestar import Litestar
from litestar.handlers import HTTPRouteHandler
from litestar.openapi.spec import OpenAPIType, Reference, Schema
from litestar.openapi.spec.base import BaseSchemaObject
from litestar.types import Method

import app.schemas

COMPONENTS = "#/components/schemas/"
_PAGE = re.compile(r"^Page_(?:\w+\.)*(\w+)_$")


def operation_id(handler: HTTPRouteHandler, method: Method, path: list[Any]) -> str:
    """The operationId of a route: its handler's function name in camelCase."""
    first, *rest = handler.handler_name.split("_")
    return first + "".join(word.capitalize() for word in rest)


def literal_names() -> dict[frozenset[str], str]:
    """The value sets of the string ``Literal`` aliases of ``app.schemas``, with their names
    (the first name in alphabetical order, should two aliases list the same values)."""
    names: dict[frozenset[str], str] = {}
    for module_info in pkgutil.iter_modules(app.schemas.__path__):
        module = importlib.import_module(f"app.schemas.{module_info.name}")
        for name, value in sorted(vars(module).items()):
            if get_origin(value) is Literal and all(isinstance(v, str) for v in get_args(value)):
                names.setdefault(frozenset(get_args(value)), name)
    return names


def _is_null(schema: Any) -> bool:
    return isinstance(schema, Schema) and schema.type == OpenAPIType.NULL


def _enum_name(schema: Schema, names: dict[frozenset[str], str]) -> tuple[str, bool] | None:
    """The component name of an inline string enum, and whether it admits null; None when its
    values are not a known ``Literal``."""
    if not schema.enum:
        return None
    values = [value for value in schema.enum if value is not None]
    if not all(isinstance(value, str) for value in values):
        return None
    name = names.get(frozenset(values))
    if name is None:
        return None
    types = schema.type if isinstance(schema.type, list | tuple) else [schema.type]
    nullable = (
        None in schema.enum
        or OpenAPIType.NULL in types
        or any(_is_null(member) for member in schema.one_of or ())
    )
    return name, nullable


def _transform(node: Any, change: Callable[[Any], Any]) -> Any:
    """``node`` with ``change`` applied bottom-up to every spec object in it (in place where it
    can be; the returned value replaces ``node``)."""
    if isinstance(node, list | tuple):
        return type(node)(_transform(item, change) for item in node)
    if isinstance(node, dict):
        return {key: _transform(value, change) for key, value in node.items()}
    if isinstance(node, BaseSchemaObject):
        for field in dataclasses.fields(node):
            value = getattr(node, field.name)
            if value is not None:
                setattr(node, field.name, _transform(value, change))
        return change(node)
    return node


def name_components(application: Litestar) -> None:
    """Name the enumerations and pages of the document (see the module)."""
    document = application.openapi_schema
    schemas = document.components.schemas
    names = literal_names()
    enums: dict[str, list[str]] = {}

    def change(node: Any) -> Any:
        if isinstance(node, Reference):
            found = _PAGE.match(node.ref.removeprefix(COMPONENTS))
            if found:
                node.ref = f"{COMPONENTS}{found.group(1)}Page"
            return node
        if not isinstance(node, Schema) or (named := _enum_name(node, names)) is None:
            return node
        name, nullable = named
        enums.setdefault(name, [value for value in node.enum or () if value is not None])
        reference = Reference(ref=f"{COMPONENTS}{name}")
        if not nullable:
            return reference
        nullable_reference: list[Reference | Schema] = [reference, Schema(type=OpenAPIType.NULL)]
        return Schema(one_of=nullable_reference, description=node.description)

    document.paths = _transform(document.paths, change)
    renamed = {}
    for key, schema in schemas.items():
        found = _PAGE.match(key)
        name = f"{found.group(1)}Page" if found else key
        # The component itself stays (an enum component must not become a reference to itself).
        _transform(schema, change)
        if isinstance(schema, Schema):
            schema.title = name  # generators name the class after the title (``Page[Event]``)
        renamed[name] = schema
    for name, values in enums.items():
        renamed[name] = Schema(type=OpenAPIType.STRING, enum=values, title=name)
    document.components.schemas = dict(sorted(renamed.items()))
