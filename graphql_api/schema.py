"""The Strawberry schema served at ``/graphql``; its SDL is committed as ``graphql/schema.graphql``.

``python -m graphql_api.schema`` rewrites that file. It lives in the repository's top-level
``graphql/`` folder (beside this package, not in it): nothing reads it at run time, so the
installed package does not ship it, and only a source checkout can regenerate it.
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

from graphql import GraphQLError
from strawberry import Schema
from strawberry.schema.config import StrawberryConfig
from strawberry.types import ExecutionContext

from graphql_api.core import PlainFieldsExecutor, core_schema, install_direct_resolvers
from graphql_api.documents import Documents, PreparedDocuments
from graphql_api.errors import is_bug
from graphql_api.live_types import Subscription
from graphql_api.resolvers import Mutation, Query
from graphql_api.scalars import SCALAR_OVERRIDES

DOCUMENTS = Path(__file__).resolve().parent.parent / "graphql"
"""The repository's GraphQL documents: this SDL and, in ``operations/``, what clients send."""
SDL_PATH = DOCUMENTS / "schema.graphql"

logger = logging.getLogger("ticketing.graphql")


class TicketingSchema(Schema):
    """Logs only the errors that are bugs; domain and client errors are answers, not incidents.
    Keeps the schema's prepared documents (``graphql_api.documents``) and lets graphql-core call
    the fields' direct resolvers (``graphql_api.core``). Every operation runs through
    Strawberry's ``execute`` / ``subscribe``."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        install_direct_resolvers(self)
        self.documents = Documents(core_schema(self))

    def process_errors(
        self, errors: list[GraphQLError], execution_context: ExecutionContext | None = None
    ) -> None:
        for error in errors:
            if is_bug(error):
                logger.error(
                    "GraphQL resolver failed at %s",
                    ".".join(str(p) for p in error.path or []),
                    exc_info=error.original_error,
                )


schema = TicketingSchema(
    query=Query,
    mutation=Mutation,
    subscription=Subscription,
    extensions=[PreparedDocuments],
    execution_context_class=PlainFieldsExecutor,
    scalar_overrides=SCALAR_OVERRIDES,
    config=StrawberryConfig(auto_camel_case=True),
)


def sdl() -> str:
    return str(schema) + "\n"


if __name__ == "__main__":
    if not DOCUMENTS.is_dir() or (DOCUMENTS / "__init__.py").exists():
        # Installed from a wheel, the folder beside this package is graphql-core itself.
        raise SystemExit(f"{DOCUMENTS} is not a source checkout's graphql/ folder")
    SDL_PATH.write_text(sdl())
