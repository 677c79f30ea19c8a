"""The REST route of a list, made from its resource's declaration (``app.resources.Resource``).

One call declares a list route: its path, summary and public operation name, and, for a list
under a parent, the path parameter naming that parent (a 404 when it is not the caller's). The
handler's signature, which Litestar reads for the OpenAPI document and for the parameters it
hands over, is written here once for every list: the request (its credential's principal, and
for a list that exports the ``Accept`` that picks JSON or CSV), the parent's id and the
``listing`` dependency (``rest.lists``). The return type is the page of the resource's record.

The principal is read from the request (``request.user``, as on every route:
``rest.auth.Caller``) rather than asked for as a second dependency: Litestar resolves
dependencies that do not depend on each other concurrently, in an anyio task group, which cost
about 0.2 ms of CPU per request, a sixth of a 25-ticket page's (docs/decisions.md, "The REST
page's CPU").
"""

from __future__ import annotations

import inspect
from typing import Any

from litestar import get
from litestar.di import NamedDependency
from litestar.handlers import HTTPRouteHandler

from app.ids import parse_id
from app.pagination import Page
from app.resources import Resource
from rest.auth import Caller
from rest.csv_export import csv_stream, negotiate
from rest.docs import IdPath, operation
from rest.lists import ListQuery
from rest.service_routes import as_written_here, caller_of_route

_KEYWORD = inspect.Parameter.POSITIONAL_OR_KEYWORD


def list_route(
    resource: Resource[Any],
    path: str,
    name: str,
    summary: str,
    *,
    within: str | None = None,
    text: str = "",
    export: str | None = None,
    **options: Any,
) -> HTTPRouteHandler:
    """The ``GET`` route listing ``resource`` at ``path``, its handler named ``name`` (the
    operationId's source, ``rest.openapi_names``).

    ``within``: the parent column, also the path parameter holding the parent's id.
    ``export``: the file name of the list's CSV export (``{id}`` is the parent's id); without
    it the list answers JSON only. ``options`` go to Litestar's ``get`` (e.g. ``tags``).

    The handler is named as if written where this is called
    (``rest.service_routes.as_written_here``)."""

    async def handler(*_: Any, **given: Any) -> Any:
        request: Caller = given["request"]
        principal = request.user
        listing: ListQuery = given["listing"]
        parent: dict[str, Any] = {}
        if within is not None:
            parent["within"] = (within, parse_id(given[within], within))
        if export is not None and negotiate(request) == "csv":
            chunks = await resource.export(principal, **parent, **listing.export_kwargs())
            parent_id = parent["within"][1] if parent else None
            return csv_stream(resource.record, chunks, export.format(id=parent_id))
        return await resource.page(principal, **parent, **listing.as_kwargs())

    annotations: dict[str, Any] = {"request": Caller}
    if within is not None:
        annotations[within] = IdPath
    annotations["listing"] = NamedDependency[ListQuery]
    page: Any = Page  # Page[the record], a type made at run time
    returned = page[resource.record]
    parameters = [inspect.Parameter(key, _KEYWORD, annotation=a) for key, a in annotations.items()]
    as_written_here(handler, name, parameters, returned, caller_of_route())
    documented = operation(
        summary,
        service=resource,
        errors=(400, 403, 404) if within is not None else (400, 403),
        text=text,
        export=export is not None,
    )
    return get(path, **documented, **options)(handler)
