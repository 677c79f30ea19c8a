"""Route documentation: each route states its scope and the problems it can answer with."""

from __future__ import annotations

from typing import Annotated, Any

from litestar.openapi.datastructures import ResponseSpec
from litestar.params import PathParameter

from app.principal import scope_of
from app.resources import Resource
from rest.auth import SCOPE_OPT, SERVICE_OPT
from rest.csv_export import EXPORT_OPT
from rest.lists import list_dependencies
from rest.problems import PROBLEM_MEDIA_TYPE, Problem

ERROR_DESCRIPTIONS = {
    400: "Invalid path, query or body",
    401: "Missing, malformed, unknown, revoked or expired credential",
    403: "The credential lacks the required scope",
    404: "No such resource in the caller's organization",
    406: "`Accept` allows neither application/json nor text/csv",
    409: "Conflicts with the current state",
    413: "Body larger than 1 MiB",
    415: "Body is not JSON",
    429: "Too many requests with this credential; retry after `Retry-After` seconds",
}


def problems(*statuses: int) -> dict[int, ResponseSpec]:
    """Response specs for 401, 429 and ``statuses``, all with a problem+json body."""
    return {
        status: ResponseSpec(
            data_container=Problem,
            description=ERROR_DESCRIPTIONS[status],
            media_type=PROBLEM_MEDIA_TYPE,
            # Litestar would fill examples with random text, different at each generation.
            generate_examples=False,
        )
        for status in sorted({401, 429, *statuses})
    }


def scoped(scope: str | None, text: str = "") -> str:
    """A route description that names its scope."""
    needed = f"Scope: `{scope}`." if scope else "Needs only a valid credential."
    return f"{text}\n\n{needed}".strip()


def operation(
    summary: str,
    *,
    service: Any,
    errors: tuple[int, ...] = (),
    text: str = "",
    export: bool = False,
) -> dict[str, Any]:
    """Route keyword arguments from the service operation the route calls: the summary, a
    description naming the operation's declared scope, the problem responses, the scope checked
    before any input is read (``rest.auth.require_route_scope``), and for a list (the service is
    a :class:`~app.resources.Resource`) the ``listing`` dependency with its sort fields and
    filters. ``export``: the list also answers ``Accept: text/csv`` (``rest.csv_export``).
    """
    scope = scope_of(service)
    options: dict[str, Any] = {
        "summary": summary,
        "description": scoped(scope, text),
        "responses": problems(*errors, *((406,) if export else ())),
        "opt": {SERVICE_OPT: service, SCOPE_OPT: scope},
    }
    if export:
        assert isinstance(service, Resource), "only a list can be exported"
        options["opt"][EXPORT_OPT] = service.record
    if isinstance(service, Resource):
        options["dependencies"] = list_dependencies(service)
    return options


IdPath = Annotated[str, PathParameter(schema_extra={"format": "uuid"})]
"""A path id: taken as text so that a malformed one is a 400 from ``app.ids.parse_id`` (not
the router's 404), and documented as the UUID it must be."""
