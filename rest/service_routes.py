"""The REST route of a service operation, made from the operation's own signature.

Most routes that are not lists hand a service operation the caller's principal, the ids their
path names and, for a create or an update, the JSON body, and answer with what it returns. One
call declares such a route: its method, path, public operation name, service operation, summary
and problems. The handler's signature, which Litestar reads for the OpenAPI document and for the
parameters it hands over, follows from the operation's: each of its parameters named in the path
is a path id (``rest.docs.IdPath``, parsed by ``app.ids.parse_id`` so that a malformed one is a
400), its ``data`` is the JSON body of the type it declares, and what it returns is the answer.

:func:`record_route` makes the route reading one record of a resource.

:func:`as_written_here` names a handler made at run time as if written where the route is
declared; the list routes (``rest.list_routes``) use it too.
"""

from __future__ import annotations

import inspect
import re
import typing
from collections.abc import Awaitable, Callable
from types import FrameType
from typing import Any

from litestar import get
from litestar.handlers import HTTPRouteHandler
from litestar.params import JSONBody

from app.ids import parse_id
from app.principal import scope_of
from app.resources import Resource
from app.signatures import signed
from rest.auth import Caller
from rest.docs import IdPath, operation

_KEYWORD = inspect.Parameter.POSITIONAL_OR_KEYWORD
_PATH_ID = re.compile(r"\{(\w+):str\}")


def caller_of_route() -> FrameType:
    """The frame declaring a route: the caller of the function that calls this."""
    frame = inspect.currentframe()
    caller = frame.f_back.f_back if frame is not None and frame.f_back is not None else None
    assert caller is not None, "a route factory reads where it is called from (CPython's frames)"
    return caller


def as_written_here(
    handler: Callable[..., Any],
    name: str,
    parameters: list[inspect.Parameter],
    returned: Any,
    caller: FrameType,
) -> None:
    """Give ``handler`` the signature ``parameters -> returned`` and the name ``name`` (the
    operationId's source, ``rest.openapi_names``), as if written in ``caller``: in a
    ``Controller``'s body it is a method (Litestar binds it to the controller, and orders a
    controller's routes by their handlers' qualified names, which the OpenAPI document's order
    follows)."""
    owner = caller.f_locals.get("__qualname__") if caller.f_locals is not caller.f_globals else None
    if owner is not None:
        parameters = [inspect.Parameter("self", _KEYWORD), *parameters]
    signed(handler, parameters, returned)
    handler.__name__ = name
    handler.__qualname__ = f"{owner}.{name}" if owner is not None else name
    handler.__module__ = caller.f_globals["__name__"]


def record_route(
    resource: Resource[Any], path: str, name: str, summary: str, **options: Any
) -> HTTPRouteHandler:
    """The ``GET`` route at ``path`` answering the caller's record of ``resource`` whose id the
    path names (``Resource.get``: a 404 when it is not theirs), its handler named ``name``.
    ``options`` go to Litestar's ``get`` (e.g. ``tags``)."""
    [key] = _PATH_ID.findall(path)

    async def handler(*_: Any, **given: Any) -> Any:
        return await resource.get(given["request"].user, parse_id(given[key], key))

    parameters = [
        inspect.Parameter("request", _KEYWORD, annotation=Caller),
        inspect.Parameter(key, _KEYWORD, annotation=IdPath),
    ]
    as_written_here(handler, name, parameters, resource.record, caller_of_route())
    documented = operation(summary, service=resource, errors=(400, 403, 404))
    return get(path, **options, **documented)(handler)


def service_route(
    method: Callable[..., Callable[[Callable[..., Any]], HTTPRouteHandler]],
    path: str,
    name: str,
    service: Callable[..., Awaitable[Any]],
    summary: str,
    *,
    errors: tuple[int, ...] = (),
    text: str = "",
    **options: Any,
) -> HTTPRouteHandler:
    """The route ``method`` (Litestar's ``get``, ``post``, ``patch`` or ``delete``) at ``path``
    calling ``service``, its handler named ``name`` (the operationId's source,
    ``rest.openapi_names``), as :func:`rest.list_routes.list_route` names its own. ``options``
    go to ``method`` (e.g. ``status_code``).

    ``service`` takes the principal first, then path ids (positional or keyword-only, by the
    names the path gives them) and perhaps ``data``, the body; every path id must be one of its
    parameters. The problems the route documents follow from that: 400 (a malformed id or
    body), 403 (the operation's scope), 404 (a path id that is not the caller's), 413 and 415 (a
    body); ``errors`` adds the ones the operation itself raises (409, or 404 for an id in the
    body)."""
    signature = inspect.signature(service)
    hints = typing.get_type_hints(service)
    ids = _PATH_ID.findall(path)
    _, *taken = signature.parameters.values()
    unknown = set(ids) - {parameter.name for parameter in taken}
    assert not unknown, f"{name}: {service.__name__} takes no {sorted(unknown)}"
    positional = [p.name for p in taken if p.kind is not inspect.Parameter.KEYWORD_ONLY]
    keywords = [p.name for p in taken if p.kind is inspect.Parameter.KEYWORD_ONLY and p.name in ids]
    unfilled = set(positional) - {*ids, "data"}
    assert not unfilled, f"{name}: the route gives {service.__name__} no {sorted(unfilled)}"

    async def handler(*_: Any, **given: Any) -> Any:
        values: dict[str, Any] = {key: parse_id(given[key], key) for key in ids}
        values["data"] = given.get("data")
        return await service(
            given["request"].user,
            *(values[key] for key in positional),
            **{key: values[key] for key in keywords},
        )

    parameters = [inspect.Parameter("request", _KEYWORD, annotation=Caller)]
    parameters += [inspect.Parameter(key, _KEYWORD, annotation=IdPath) for key in ids]
    if "data" in signature.parameters:
        body: Any = JSONBody
        parameters.append(inspect.Parameter("data", _KEYWORD, annotation=body[hints["data"]]))
    as_written_here(handler, name, parameters, hints["return"], caller_of_route())
    given = {400, *(() if scope_of(service) is None else (403,)), *((404,) if ids else ())}
    if "data" in signature.parameters:
        given |= {413, 415}
    documented = operation(summary, service=service, errors=(*given, *errors), text=text)
    return method(path, **options, **documented)(handler)
