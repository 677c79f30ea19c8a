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
from collections.abc import Iterator
from typing import Any

from graphql import ExecutionResult as GraphQLExecutionResult
from graphql import GraphQLError
from strawberry import Schema
from strawberry.extensions import SchemaExtension
from strawberry.types import ExecutionContext
from strawberry.types.execution import ExecutionResult

from app.errors import DomainError, Forbidden, InvalidInput

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


class ErrorCodes(SchemaExtension):
    """Rewrites every error of the result into its coded form (see the module docstring)."""

    def __init__(self) -> None:
        self.stage = "parse"

    def on_parse(self) -> Iterator[None]:
        self.stage = "parse"
        yield
        if self.execution_context.graphql_document is not None:
            self.stage = "validate"

    def on_validate(self) -> Iterator[None]:
        yield
        if not self.execution_context.pre_execution_errors:
            self.stage = "execute"

    def on_operation(self) -> Iterator[None]:
        yield
        result = self.execution_context.result
        if isinstance(result, GraphQLExecutionResult | ExecutionResult) and result.errors:
            result.errors = [self.coded(error) for error in result.errors]

    def coded(self, error: GraphQLError) -> GraphQLError:
        original = error.original_error
        message = error.message
        if error.extensions and "code" in error.extensions:
            return error
        if isinstance(original, DomainError):
            extensions = domain_extensions(original)
            message = original.detail
        elif self.stage == "parse":
            extensions = {"code": "GRAPHQL_PARSE_FAILED"}
        elif self.stage == "validate":
            extensions = {"code": "GRAPHQL_VALIDATION_FAILED"}
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
    """Logs only the errors that are bugs; domain and client errors are answers, not incidents."""

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
