"""The common list query parameters (``limit``, ``offset``, ``sort``) as one dependency.

Bounds are declared here for the OpenAPI document; the services enforce them, so that GraphQL,
which shares the services, enforces the same ones.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Annotated, Any

from litestar.di import Provide
from litestar.params import QueryParameter

from app.pagination import DEFAULT_LIMIT, DEFAULT_SORT, MAX_LIMIT


@dataclass(frozen=True, slots=True)
class ListQuery:
    limit: int | None
    offset: int | None
    sort: str | None

    def as_kwargs(self) -> dict[str, Any]:
        return asdict(self)


def list_query(
    limit: Annotated[
        int | None,
        QueryParameter(
            ge=1, le=MAX_LIMIT, description=f"Results per page (default {DEFAULT_LIMIT})"
        ),
    ] = None,
    offset: Annotated[
        int | None, QueryParameter(ge=0, description="Results to skip (default 0)")
    ] = None,
    sort: Annotated[
        str | None,
        QueryParameter(description=f"field:asc or field:desc (default {DEFAULT_SORT})"),
    ] = None,
) -> ListQuery:
    return ListQuery(limit=limit, offset=offset, sort=sort)


LIST_DEPENDENCIES = {"listing": Provide(list_query, sync_to_thread=False)}
