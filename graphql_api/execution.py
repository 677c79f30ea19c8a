"""Running one GraphQL operation for a transport: the request's document from the prepared ones,
the operation chosen and checked, the cost limit, then Strawberry's public ``execute`` /
``subscribe``; every error comes out coded (``graphql_api.errors``).

Problems with the request itself rather than its document (no operation of that name, a
mutation over GET) raise :class:`OperationRefused`; HTTP answers them with a 400 problem.
"""

from __future__ import annotations

from collections.abc import AsyncGenerator, AsyncIterator, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from graphql import GraphQLError, OperationDefinitionNode
from strawberry.types import ExecutionResult
from strawberry.types.graphql import OperationType

from graphql_api.context import Context
from graphql_api.errors import coded

if TYPE_CHECKING:
    from graphql_api.documents import Document
    from graphql_api.schema import TicketingSchema

_PLURAL = {
    OperationType.QUERY: "queries",
    OperationType.MUTATION: "mutations",
    OperationType.SUBSCRIPTION: "subscriptions",
}


class OperationRefused(Exception):
    """The request names no runnable operation, or one its transport does not allow."""


@dataclass(frozen=True, slots=True)
class Operation:
    query: str
    variables: dict[str, Any]
    operation_name: str | None = None


Response = dict[str, Any]
"""A GraphQL response: ``data`` and, when there are any, ``errors`` (formatted)."""


def response(data: dict[str, Any] | None, errors: Iterable[GraphQLError] = ()) -> Response:
    body: Response = {"data": data}
    formatted = [coded(error).formatted for error in errors]
    if formatted:
        body["errors"] = formatted
    return body


def _checked(
    schema: TicketingSchema,
    operation: Operation,
    allowed: frozenset[OperationType],
    transport: str,
) -> Response | tuple[Document, OperationDefinitionNode]:
    """The operation to run with its document (prepared, ``graphql_api.documents``), or the
    response refusing it."""
    document = schema.documents.get(operation.query)
    if document.errors:
        return response(None, document.errors)
    definition = document.operation(operation.operation_name)
    if definition is None:
        raise OperationRefused(
            f'Unknown operation named "{operation.operation_name}".'
            if operation.operation_name
            else "Can't get GraphQL operation type"
        )
    kind = OperationType(definition.operation.value)
    if kind not in allowed:
        raise OperationRefused(f"{_PLURAL[kind]} are not allowed when using {transport}")
    refused = document.cost_errors(definition, operation.variables)
    if refused:
        return response(None, refused)
    return document, definition


async def execute(
    schema: TicketingSchema,
    operation: Operation,
    context: Context,
    allowed: frozenset[OperationType],
    transport: str,
) -> Response:
    """The response to a query or mutation; what the query reads first is read in one
    statement before it executes (``graphql_api.prefetch``)."""
    checked = _checked(schema, operation, allowed, transport)
    if isinstance(checked, dict):
        return checked
    prefetch = checked[0].prefetch(checked[1])
    if prefetch is not None:
        await prefetch.prime(context, operation.variables)
    try:
        result = await schema.execute(
            operation.query,
            variable_values=operation.variables,
            context_value=context,
            operation_name=operation.operation_name,
            allowed_operation_types=allowed,
        )
    finally:
        # An error's traceback holds the executor's frames, so an operation that met one leaves
        # its executor (which holds the context) in a reference cycle: without this, the
        # operation's records would wait in the loaders for the cyclic collector.
        context.loaders.clear()
    return response(result.data, result.errors or ())


async def subscribe(
    schema: TicketingSchema, operation: Operation, context: Context
) -> Response | AsyncGenerator[Response, None]:
    """A refusal of the subscription's document, or the stream of its responses (a query or
    mutation sent over a subscription transport is a stream of one)."""
    checked = _checked(schema, operation, frozenset(OperationType), "WebSocket")
    if isinstance(checked, dict):
        return checked
    if checked[1].operation.value != OperationType.SUBSCRIPTION.value:
        return _one(
            await execute(schema, operation, context, frozenset(OperationType), "WebSocket")
        )
    results = await schema.subscribe(
        operation.query,
        variable_values=operation.variables,
        context_value=context,
        operation_name=operation.operation_name,
    )
    if isinstance(results, ExecutionResult):
        return response(results.data, results.errors or ())
    return _responses(results)


async def _one(only: Response) -> AsyncGenerator[Response, None]:
    yield only


async def _responses(
    results: AsyncIterator[ExecutionResult],
) -> AsyncGenerator[Response, None]:
    async for result in results:
        yield response(result.data, result.errors or ())
