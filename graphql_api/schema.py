"""The Strawberry schema served at ``/graphql``; its SDL is committed as ``graphql/schema.graphql``.

``python -m graphql_api.schema`` rewrites that file. It lives in the repository's top-level
``graphql/`` folder (beside this package, not in it): nothing reads it at run time, so the
installed package does not ship it, and only a source checkout can regenerate it.
"""

from __future__ import annotations

from pathlib import Path

from strawberry.schema.config import StrawberryConfig

from graphql_api.core import PlainFieldsExecutor
from graphql_api.documents import PreparedDocuments
from graphql_api.errors import TicketingSchema
from graphql_api.live_types import Subscription
from graphql_api.resolvers import Mutation, Query
from graphql_api.scalars import SCALAR_OVERRIDES

DOCUMENTS = Path(__file__).resolve().parent.parent / "graphql"
"""The repository's GraphQL documents: this SDL and, in ``operations/``, what clients send."""
SDL_PATH = DOCUMENTS / "schema.graphql"

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
