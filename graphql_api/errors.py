"""GraphQL errors with ``extensions.code``, mapped from the domain errors of app/errors.py.

- a domain error raised by a service keeps its code (FORBIDDEN, NOT_FOUND, BAD_USER_INPUT,
  CONFLICT, ...) and its detail as the message; validation failures add ``errors: [{field,
  message}]`` and FORBIDDEN adds the missing ``scope``;
- a document that does not parse: GRAPHQL_PARSE_FAILED; one that fails validation (unknown field,
  wrong argument, depth, aliases or cost over the limit): GRAPHQL_VALIDATION_FAILED;
- a variable of the wrong type: BAD_USER_INPUT;
- the database unable to serve now (``db.availability``): UNAVAILABLE, as REST's 503;
- anything else is a bug: answered as INTERNAL_SERVER_ERROR with a message that reveals nothing,
  and logged with its stack trace by the schema (``graphql_api.schema.TicketingSchema``).
"""

from __future__ import annotations

from typing import Any

from graphql import GraphQLError

from app.errors import DomainError, Forbidden, InvalidInput, Unavailable
from db.availability import unavailable

CODES = {
    400: "BAD_USER_INPUT",
    401: "UNAUTHENTICATED",
    403: "FORBIDDEN",
    404: "NOT_FOUND",
    409: "CONFLICT",
    422: "BAD_USER_INPUT",
    429: "RATE_LIMITED",
    503: "UNAVAILABLE",
}
"""``extensions.code`` of a domain error, by its HTTP status."""
INTERNAL_MESSAGE = "The server failed to resolve this field; it has been logged."


def is_bug(error: GraphQLError) -> bool:
    original = error.original_error
    return (
        error.path is not None
        and not isinstance(original, DomainError)
        and not (original is not None and unavailable(original))
    )


def domain_extensions(error: DomainError) -> dict[str, Any]:
    extensions: dict[str, Any] = {"code": CODES[error.status]}
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
    if original is not None and unavailable(original):
        original = Unavailable(Unavailable.DEPENDENCY_DOWN)
    if isinstance(original, DomainError):
        extensions = domain_extensions(original)
        message = original.detail
    elif not is_bug(error):
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
