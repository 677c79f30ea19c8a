"""GraphQL object and input types derived from the records and inputs of ``app/schemas``.

A record's fields are declared once, in its msgspec Struct; its GraphQL type takes them from there
and adds only what GraphQL has beyond REST (relations, descriptions). Resolvers return the records
themselves (Strawberry's default resolver reads the attributes), so nothing maps a record into a
GraphQL object and ids stay UUIDs (GraphQL's ``ID`` serializes them as text).

Types map as the REST document shows them: UUID -> ID, Decimal -> Float, string literals ->
String, ``dict`` / ``Any`` -> JSON, nested Structs -> their derived types; length and range
constraints stay with the Struct, which ``graphql_api.inputs.to_struct`` applies to every input.
"""

from __future__ import annotations

import inspect
import types
from collections.abc import Callable
from decimal import Decimal
from typing import (
    Annotated,
    Any,
    Literal,
    Optional,
    TypeVar,
    Union,
    cast,
    get_args,
    get_origin,
    get_type_hints,
)
from uuid import UUID

import msgspec
import strawberry
from strawberry.scalars import JSON

C = TypeVar("C", bound=type)

_OBJECTS: dict[type[msgspec.Struct], type] = {}
_INPUTS: dict[type[msgspec.Struct], type] = {}


def _plain(annotation: Any) -> tuple[Any, bool]:
    """``annotation`` without ``Annotated``, ``None`` and ``UNSET``; and whether None was in it."""
    origin = get_origin(annotation)
    if origin is Annotated:
        return _plain(get_args(annotation)[0])
    if origin in (Union, types.UnionType):
        members = [a for a in get_args(annotation) if a not in (types.NoneType, msgspec.UnsetType)]
        nullable = types.NoneType in get_args(annotation)
        if len(members) != 1:
            raise TypeError(f"cannot derive a GraphQL type from {annotation!r}")
        inner, inner_nullable = _plain(members[0])
        return inner, nullable or inner_nullable
    return annotation, False


def _graphql(
    annotation: Any, struct_type: Callable[[type[msgspec.Struct]], type]
) -> tuple[Any, bool]:
    """The GraphQL annotation of a Python annotation, without its nullability; and that."""
    plain, nullable = _plain(annotation)
    origin = get_origin(plain)
    if origin is list:
        (item,) = get_args(plain)
        result: Any = types.GenericAlias(list, (_nullable(*_graphql(item, struct_type)),))
    elif origin is dict or plain is Any:
        result = JSON
    elif origin is Literal:
        result = type(get_args(plain)[0])
    elif plain is UUID:
        result = strawberry.ID
    elif plain is Decimal:
        result = float
    elif isinstance(plain, type) and issubclass(plain, msgspec.Struct):
        result = struct_type(plain)
    else:
        result = plain
    return result, nullable


def _nullable(annotation: Any, nullable: bool) -> Any:
    return Optional[annotation] if nullable else annotation  # noqa: UP045 (ID is a NewType)


def _hints(struct: type[msgspec.Struct]) -> dict[str, Any]:
    return get_type_hints(struct, include_extras=True)


def object_type(struct: type[msgspec.Struct]) -> type:
    """The GraphQL object type of ``struct``: the one declared with :func:`record_type`, or one
    derived under the Struct's own name."""
    if struct not in _OBJECTS:
        record_type(struct)(type(struct.__name__, (), {}))
    return _OBJECTS[struct]


def record_type(
    struct: type[msgspec.Struct], *, name: str | None = None, description: str | None = None
) -> Callable[[C], C]:
    """Class decorator: a Strawberry object type with every field of the record ``struct``,
    plus what the class itself declares (relation resolvers, overridden fields)."""

    def decorate(cls: C) -> C:
        own = inspect.get_annotations(cls)
        derived = {
            field: _nullable(*_graphql(annotation, object_type))
            for field, annotation in _hints(struct).items()
            if field not in own and field not in cls.__dict__
        }
        cls.__annotations__ = {**derived, **own}
        graphql_type = strawberry.type(cls, name=name, description=description)
        _OBJECTS[struct] = graphql_type
        return graphql_type

    return decorate


def input_type(
    struct: type[msgspec.Struct],
    *,
    name: str | None = None,
    description: str | None = None,
    extra: dict[str, Any] | None = None,
) -> type:
    """The GraphQL input type of the input ``struct``, with ``extra`` fields first (ids that REST
    takes from the path). A field with a default may be left out (it stays unset, so PATCH
    semantics carry over); the others are required."""
    if struct in _INPUTS and name is None and extra is None:
        return _INPUTS[struct]
    name = name or (
        struct.__name__ if struct.__name__.endswith("Input") else f"{struct.__name__}Input"
    )
    required = {f.name for f in msgspec.structs.fields(struct) if f.required}
    annotations: dict[str, Any] = dict(extra or {})
    defaults: dict[str, Any] = {}
    for field, annotation in _hints(struct).items():
        graphql, nullable = _graphql(annotation, input_type)
        annotations[field] = _nullable(graphql, nullable or field not in required)
        if field not in required:
            defaults[field] = strawberry.UNSET
    cls = type(name, (), {"__annotations__": annotations, **defaults})
    graphql_input = strawberry.input(cls, name=name, description=description)
    if extra is None:
        _INPUTS.setdefault(struct, graphql_input)
    return graphql_input


INPUT_OF = "__input_of__"
"""The attribute of an :func:`input_class`: its Struct and the fields the class declares."""


def input_class(
    struct: type[msgspec.Struct], *, description: str | None = None
) -> Callable[[C], C]:
    """Class decorator: the :func:`input_type` of ``struct`` named after the class, with the
    fields the class declares first (ids that REST takes from the path). The class is what a
    type checker sees: the fields it declares are the ones a resolver reads by name; the rest
    go to the service's Struct whole (``graphql_api.inputs.to_struct``)."""

    def decorate(cls: C) -> C:
        extra = inspect.get_annotations(cls, eval_str=True) or None
        graphql_input = input_type(struct, name=cls.__name__, description=description, extra=extra)
        setattr(graphql_input, INPUT_OF, (struct, tuple(extra or ())))
        return cast(C, graphql_input)

    return decorate
