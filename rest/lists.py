"""The common list query parameters (``limit``, ``offset``, ``sort``) as one dependency per list.

Bounds and the allowed sort values are declared here for the OpenAPI document, from the services'
own constants; the services enforce them, so that GraphQL, which shares them, enforces the same.
"""

# No ``from __future__ import annotations``: the parameter annotations of ``list_query`` must be
# evaluated where they are written, because they close over each list's sort values.

from collections.abc import Sequence
from dataclasses import asdict, dataclass
from typing import Annotated, Any

from litestar.di import Provide
from litestar.params import QueryParameter

from app.pagination import DEFAULT_LIMIT, DEFAULT_SORT, MAX_LIMIT, MAX_OFFSET


@dataclass(frozen=True, slots=True)
class ListQuery:
    limit: int | None
    offset: int | None
    sort: str | None

    def as_kwargs(self) -> dict[str, Any]:
        return asdict(self)


def list_dependencies(sort_fields: Sequence[str]) -> dict[str, Provide]:
    """The ``listing`` dependency of a list whose service sorts by ``sort_fields``."""
    sort_values = [f"{field}:{direction}" for field in sort_fields for direction in ("asc", "desc")]

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
    ) -> ListQuery:
        return ListQuery(limit=limit, offset=offset, sort=sort)

    return {"listing": Provide(list_query, sync_to_thread=False)}
