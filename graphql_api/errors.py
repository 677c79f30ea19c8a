"""GraphQL errors with ``extensions.code``, mapped from the domain errors of app/errors.py.

- a domain error raised by a service keeps its code (FORBIDDEN, NOT_FOUND, BAD_USER_INPUT,
  CONFLICT, ...) and its detail as the message; validation failures add ``errors: [{field,
  message}]`` and FORBIDDEN adds the missing ``scope``;
- a document that does not parse: GRAPHQL_PARSE_FAILED; one that fails validation (unknown field,
  wrong argument, depth, aliases or cost over the limit): GRAPHQL_VALIDATION_FAILED;
- a variable of the wrong type: BAD_USER_INPUT;
- anything else is a bug: logged with its stack trace, answered as INTERNAL_SERVER_ERROR with a
  message that reveals nothing.
"""

from __future__ import annotations

import logging
from typing import Any

from graphql import GraphQLError
from strawberry import Schema
from strawberry.types import ExecutionContext

from app.errors import DomainError, Forbidden, InvalidInput
from graphql_api.core import core_schema, install_direct_resolvers
from graphql_api.documents import Documents, PreparedDocuments

logger = logging.getLogger("ticketing.graphql")

INTERNAL_MESSAGE = "The server failed to resolve this field; it has been logged."


def _is_bug(error: GraphQLError) -> bool:
    return error.path is not None and not isinstance(error.original_error, DomainError)


def domain_extensions(error: DomainError) -> dict[str, Any]:
    extensions: dict[str, Any] = {"code": error.code}
    if isinstance(error, InvalidInput) and error.errors:
        extensions["errors"] = [{"field": e.field, "message": e.message} for e in error.errors]
    if isinstance(error, Forbidden) and error.scope:
        extensions["scope"] = error.scope
    return extensions


def coded(error: GraphQLError) -> GraphQLError:
    """An error of execution in its coded form (see the module docstring); parse and validation
    errors are coded where documents are prepared (``graphql_api.documents``)."""
    original = error.original_error
    message = error.message
    if error.extensions and "code" in error.extensions:
        return error
    if isinstance(original, DomainError):
        extensions = domain_extensions(original)
        message = original.detail
    elif not _is_bug(error):
        extensions = {"code": "BAD_USER_INPUT"}
    else:
        extensions = {"code": "INTERNAL_SERVER_ERROR"}
        message = INTERNAL_MESSAGE
    return GraphQLError(
        message,
        nodes=error.nodes,
        source=error.source,
        positions=error.positions,
        path=error.path,
        original_error=original,
        extensions=extensions,
    )


class TicketingSchema(Schema):
    """Logs only the errors that are bugs; domain and client errors are answers, not incidents.
    Keeps the schema's prepared documents (``graphql_api.documents``) and lets graphql-core call
    the fields' direct resolvers (``graphql_api.core``).

    ``executes_directly``: its only extension is the hand-over of prepared documents, which a
    query given its prepared document does not need, so queries and mutations may skip
    Strawberry's per-request set-up (``graphql_api.core.execute_prepared``). A schema with any
    other extension executes through ``execute``, its hooks and all."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        install_direct_resolvers(self)
        self.documents = Documents(core_schema(self))
        self.executes_directly = all(
            isinstance(extension, PreparedDocuments) for extension in self.get_extensions()
        )

    def process_errors(
        self, errors: list[GraphQLError], execution_context: ExecutionContext | None = None
    ) -> None:
        for error in errors:
            if _is_bug(error):
                logger.error(
                    "GraphQL resolver failed at %s",
                    ".".join(str(p) for p in error.path or []),
                    exc_info=error.original_error,
                )
