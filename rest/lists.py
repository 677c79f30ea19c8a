"""The query parameters of a list (``limit``, ``offset``, ``sort``, ``after`` and its resource's
filters) as one dependency per list.

Bounds, the allowed sort values and the filters come from the resource's declaration
(``app.resources.Resource``) for the OpenAPI document; the resource enforces them, so that
GraphQL, which shares them, enforces the same.
"""

# No ``from __future__ import annotations``: the parameter annotations of ``list_query`` must be
# evaluated where they are written, because they close over each list's sort values.

import inspect
from dataclasses import dataclass, field
from typing import Annotated, Any

from litestar.di import Provide
from litestar.params import QueryParameter

from app.errors import FieldError, InvalidInput
from app.pagination import DEFAULT_LIMIT, DEFAULT_SORT, MAX_AFTER_LENGTH, MAX_LIMIT, MAX_OFFSET
from app.resources import Filter, Resource
from app.schemas.text import NO_NUL
from app.signatures import signed

FORMATS = {"id": "uuid", "timestamp": "date-time"}
"""The OpenAPI ``format`` of a filter's text, by the filter's kind."""


@dataclass(frozen=True, slots=True)
class ListQuery:
    limit: int | None
    offset: int | None
    sort: str | None
    after: str | None
    filters: dict[str, str | None] = field(default_factory=dict)

    def as_kwargs(self) -> dict[str, Any]:
        return {
            "limit": self.limit,
            "offset": self.offset,
            "sort": self.sort,
            "after": self.after,
            **self.filters,
        }

    def export_kwargs(self) -> dict[str, Any]:
        """The arguments of an export (``Resource.export``): the sort and the filters. An
        export has every row, so a page parameter is a 400 rather than silently ignored."""
        paged = [
            FieldError(name, "not with Accept: text/csv, which exports every row")
            for name in ("limit", "offset", "after")
            if getattr(self, name) is not None
        ]
        if paged:
            raise InvalidInput("; ".join(f"{e.field}: {e.message}" for e in paged), paged)
        return {"sort": self.sort, **self.filters}


def filter_parameter(key: str, declared: Filter) -> inspect.Parameter:
    """The query parameter of one filter, documented with its bounds."""
    extra: dict[str, Any] = {}
    if declared.kind in FORMATS:
        extra["format"] = FORMATS[declared.kind]
    if declared.choices:
        extra["enum"] = list(declared.choices)
    bounds = {"min_length": 1, "max_length": declared.max_length} if declared.kind == "text" else {}
    if declared.kind == "text":
        extra["pattern"] = NO_NUL
    annotation = Annotated[
        str | None,
        QueryParameter(
            name=declared.name if declared.name != key else None,
            description=declared.description,
            schema_extra=extra or None,
            **bounds,
        ),
    ]
    return inspect.Parameter(
        key, inspect.Parameter.KEYWORD_ONLY, default=None, annotation=annotation
    )


def list_dependencies(resource: Resource[Any]) -> dict[str, Provide]:
    """The ``listing`` dependency of a list of ``resource``: its common parameters and one query
    parameter per declared filter."""
    sort_values = [
        f"{field}:{direction}" for field in resource.sort_fields for direction in ("asc", "desc")
    ]

    def list_query(
        limit: Annotated[
            int | None,
            QueryParameter(
                ge=1, le=MAX_LIMIT, description=f"Results per page (default {DEFAULT_LIMIT})"
            ),
        ] = None,
        offset: Annotated[
            int | None,
            # Litestar leaves a ge of 0 out of the document; schema_extra puts it back.
            QueryParameter(
                ge=0,
                description="Results to skip (default 0)",
                schema_extra={"minimum": 0, "maximum": MAX_OFFSET},
            ),
        ] = None,
        sort: Annotated[
            str | None,
            QueryParameter(
                description=f"field:asc or field:desc (default {DEFAULT_SORT})",
                schema_extra={"enum": sort_values},
            ),
        ] = None,
        after: Annotated[
            str | None,
            QueryParameter(
                description=(
                    "The pagination.next_after of the page before, with the same sort: this "
                    "page starts after that page's last row (fast at any depth; not with offset, "
                    "nor with a sort field that may be empty)"
                ),
                max_length=MAX_AFTER_LENGTH,
            ),
        ] = None,
        **filters: str | None,
    ) -> ListQuery:
        return ListQuery(limit=limit, offset=offset, sort=sort, after=after, filters=filters)

    common = [
        parameter
        for parameter in inspect.signature(list_query).parameters.values()
        if parameter.kind is not inspect.Parameter.VAR_KEYWORD
    ]
    parameters = [
        *(parameter.replace(kind=inspect.Parameter.KEYWORD_ONLY) for parameter in common),
        *(filter_parameter(key, declared) for key, declared in resource.filters.items()),
    ]
    signed(list_query, parameters, ListQuery)
    return {"listing": Provide(list_query, sync_to_thread=False)}
