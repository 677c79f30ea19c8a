"""The GraphQL list fields, made from their resource's declaration (``app.resources.Resource``).

A list field is one line: ``tickets: Page[Ticket] | None = nested_list(TICKETS, "event_id")`` in
a type (the page of the parent's records, through the request's page loader) or
``events: Page[Event] | None = root_list(EVENTS)`` in ``Query``. The resolver's signature, which
Strawberry reads to build the field's arguments, is written here once for every list: the
parent's id for a root list under a parent, ``limit``, ``offset``, ``sort``, ``after`` where the
list offers keyset pages, then one argument per filter the resource declares (its camelCase
name, its description; a nested list leaves out the filter on its parent). The values reach the
resource as they came; it parses and bounds them as it does for REST.
"""

from __future__ import annotations

import inspect
from datetime import datetime
from typing import TYPE_CHECKING, Annotated, Any, Generic, TypeVar

import strawberry
from strawberry.utils.str_converters import to_camel_case

from app import pagination
from app.ids import parse_id
from app.resources import Filter, Resource
from app.signatures import signed
from graphql_api.context import Context, Info, principal_of
from graphql_api.dataloaders import list_args, loaded
from graphql_api.derive import object_type
from graphql_api.prefetch import NESTED_PAGE
from graphql_api.scopes import direct_field, field

T = TypeVar("T")

Limit = Annotated[
    int | None, strawberry.argument(description="Results per page, 1 to 100 (default 25)")
]
Offset = Annotated[int | None, strawberry.argument(description="Results to skip (default 0)")]
Sort = Annotated[
    str | None,
    strawberry.argument(
        description="field:asc or field:desc with the REST field names (default created_at:desc)"
    ),
]
After = Annotated[
    str | None,
    strawberry.argument(
        description="The pagination.nextAfter of the page before, with the same sort: this page "
        "starts after that page's last row (fast at any depth; not with offset)"
    ),
]

if TYPE_CHECKING:  # the record; Strawberry reads it through its derived type
    Pagination = pagination.Pagination
else:
    Pagination = object_type(pagination.Pagination)


@strawberry.type
class Page(Generic[T]):
    """A page of a list: an ``app.pagination.Page`` record; GraphQL calls its ``data`` ``items``."""

    data: list[T] = strawberry.field(name="items")
    pagination: Pagination


_TYPES: dict[str, Any] = {"id": strawberry.ID, "timestamp": datetime}
"""The GraphQL type of a filter's value by its kind (text otherwise)."""

_KEYWORD = inspect.Parameter.KEYWORD_ONLY


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
    return inspect.Parameter(key, _KEYWORD, default=None, annotation=annotation)


def _arguments(
    resource: Resource[Any], *, after: bool, leave_out: str | None = None
) -> list[inspect.Parameter]:
    """The arguments of a list of ``resource``: the page's, then one per filter."""
    paged = {"limit": Limit, "offset": Offset, "sort": Sort, **({"after": After} if after else {})}
    return [
        *(inspect.Parameter(key, _KEYWORD, default=None, annotation=a) for key, a in paged.items()),
        *(_argument(key, f) for key, f in resource.filters.items() if key != leave_out),
    ]


def _lazy(name: str, module: str) -> Any:
    """The type named ``name`` in ``module``, found when Strawberry builds the schema."""
    annotated: Any = Annotated
    return annotated[name, strawberry.lazy(module)]


def _page_of(item: Any) -> Any:
    """``Page[item] | None``, for a type known only at run time (written as a call, since a
    variable is no type to a type checker)."""
    generic: Any = Page
    return generic[item] | None


def root_list(
    resource: Resource[Any],
    description: str = "",
    *,
    within: str | None = None,
    after: bool = False,
) -> Any:
    """A ``Query`` field: a page of the caller's records of ``resource`` (of the GraphQL type
    declared for its record, ``graphql_api.derive``). ``within``: the parent column, a required
    ``ID`` argument (a parent that is not the caller's is NOT_FOUND). ``after``: the field
    offers keyset pages."""

    async def resolve(self: Any, info: Info, **arguments: Any) -> Any:
        if within is not None:
            arguments["within"] = (within, parse_id(arguments.pop(within), within))
        return await resource.page(principal_of(info), **arguments)

    parent = [inspect.Parameter(within, _KEYWORD, annotation=strawberry.ID)] if within else []
    signed(
        resolve,
        [
            inspect.Parameter("self", inspect.Parameter.POSITIONAL_OR_KEYWORD),
            inspect.Parameter("info", inspect.Parameter.POSITIONAL_OR_KEYWORD, annotation=Info),
            *parent,
            *_arguments(resource, after=after),
        ],
        _page_of(object_type(resource.record)),
    )
    return field(resource, description)(resolve)


def nested_list(resource: Resource[Any], parent: str, description: str = "") -> Any:
    """A field of the type of ``parent``'s records: the page of ``resource``'s records whose
    ``parent`` column holds the record's id, asked of the request's page loader with the pages
    of every other record of the response (one batch).

    Its items' type may be declared further down the calling module (``Event.tickets`` before
    ``Ticket``), so the items' type is named lazily (the record's name, in that module), and
    Strawberry finds it when it builds the schema."""
    frame = inspect.currentframe()
    caller = frame.f_back if frame is not None else None
    assert caller is not None, "nested_list reads where it is called from (CPython's frames)"
    module = caller.f_globals["__name__"]

    def resolve(self: Any, context: Context, **arguments: Any) -> Any:
        return loaded(context.loaders.pages(resource, parent), (self.id, list_args(**arguments)))

    signed(
        resolve,
        [
            inspect.Parameter("self", inspect.Parameter.POSITIONAL_OR_KEYWORD),
            inspect.Parameter(
                "context", inspect.Parameter.POSITIONAL_OR_KEYWORD, annotation=Context
            ),
            *_arguments(resource, after=False, leave_out=parent),
        ],
        _page_of(_lazy(resource.record.__name__, module)),
    )
    resolve.__annotations__ = {"context": Context}
    return direct_field(resource, description, metadata={NESTED_PAGE: (resource, parent)})(resolve)
