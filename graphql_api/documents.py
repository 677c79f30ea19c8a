"""GraphQL documents parsed, validated and costed once per query text, not once per request.

A client sends the same few documents over and over (an app's operations, a door's scan). The
first request with a text parses it (at most ``MAX_TOKENS`` tokens), validates it with
graphql-core's rules, Strawberry's and the depth and alias limits, and finds the variables its
cost depends on; later requests find all of that in a bounded least-recently-used table. The cost
(``graphql_api.limits``) depends only on the values of the variables passed as a ``limit``, so
each document keeps the costs of the few value combinations it has seen. Errors come out coded
(GRAPHQL_PARSE_FAILED, GRAPHQL_VALIDATION_FAILED), ready for the response.

:class:`PreparedDocuments` hands the prepared document to Strawberry's own execution through its
documented extension hooks, so Strawberry neither parses nor validates it again.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Hashable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from graphql import (
    DocumentNode,
    FragmentDefinitionNode,
    GraphQLError,
    GraphQLSchema,
    OperationDefinitionNode,
    get_operation_ast,
    parse,
    specified_rules,
    validate,
)
from strawberry.extensions import SchemaExtension

from graphql_api.core import strawberry_validation_rules
from graphql_api.limits import (
    LIMIT_RULES,
    MAX_COST,
    MAX_TOKENS,
    cost_error,
    limit_variables,
    operation_cost,
)
from graphql_api.prefetch import Prefetch, plan

CAPACITY = 512
"""Documents kept per process."""
MAX_CACHED_CHARS = 64 * 1024
"""Longer texts are prepared for their request only, so the table stays small."""
COSTS_PER_DOCUMENT = 32
"""Cost results kept per document (one per combination of its limit variables' values)."""


def _coded(errors: list[GraphQLError], code: str) -> tuple[GraphQLError, ...]:
    return tuple(
        GraphQLError(
            error.message,
            nodes=error.nodes,
            source=error.source,
            positions=error.positions,
            extensions={"code": code},
        )
        for error in errors
    )


@dataclass(eq=False)
class Document:
    """One query text, parsed and validated; ``errors`` when it failed either."""

    schema: GraphQLSchema
    node: DocumentNode | None
    errors: tuple[GraphQLError, ...] = ()
    limit_names: frozenset[str] = frozenset()
    fragments: dict[str, FragmentDefinitionNode] = field(default_factory=dict)
    _costs: OrderedDict[Hashable, int] = field(default_factory=OrderedDict)
    _prefetches: dict[int, Prefetch | None] = field(default_factory=dict)

    def operation(self, name: str | None) -> OperationDefinitionNode | None:
        """The operation to run (``name``, or the only one); None when there is no such one."""
        assert self.node is not None
        return get_operation_ast(self.node, name)

    def prefetch(self, operation: OperationDefinitionNode) -> Prefetch | None:
        """What to read before ``operation`` executes (``graphql_api.prefetch``), planned once."""
        key = id(operation)
        if key not in self._prefetches:
            self._prefetches[key] = plan(self.schema, operation)
        return self._prefetches[key]

    def cost_errors(
        self, operation: OperationDefinitionNode, variables: Mapping[str, Any]
    ) -> tuple[GraphQLError, ...]:
        """The cost refusal of ``operation`` with ``variables``, if it costs too much."""
        cost = self._cost(operation, variables)
        if cost <= MAX_COST:
            return ()
        return _coded([cost_error(cost, operation)], "GRAPHQL_VALIDATION_FAILED")

    def _cost(self, operation: OperationDefinitionNode, variables: Mapping[str, Any]) -> int:
        values = tuple(variables.get(name) for name in sorted(self.limit_names))
        key: Hashable = (id(operation), values)
        try:
            cached = self._costs.get(key)
        except TypeError:  # a list or object where a limit goes: unhashable, and rare
            return operation_cost(
                self.schema, operation, self.fragments, variables, self.limit_names
            )
        if cached is None:
            cached = operation_cost(
                self.schema, operation, self.fragments, variables, self.limit_names
            )
            self._costs[key] = cached
            while len(self._costs) > COSTS_PER_DOCUMENT:
                self._costs.popitem(last=False)
        return cached


def prepare(schema: GraphQLSchema, query: str) -> Document:
    """Parse and validate ``query`` (uncached; see :class:`Documents`)."""
    try:
        node = parse(query, max_tokens=MAX_TOKENS)
    except GraphQLError as error:
        return Document(schema, None, _coded([error], "GRAPHQL_PARSE_FAILED"))
    rules = (*specified_rules, *strawberry_validation_rules(), *LIMIT_RULES)
    errors = validate(schema, node, rules)
    if errors:
        return Document(schema, node, _coded(errors, "GRAPHQL_VALIDATION_FAILED"))
    fragments = {
        definition.name.value: definition
        for definition in node.definitions
        if isinstance(definition, FragmentDefinitionNode)
    }
    return Document(schema, node, (), limit_variables(node), fragments)


class Documents:
    """The prepared documents of one schema, the most recently used ``capacity`` of them."""

    def __init__(self, schema: GraphQLSchema, capacity: int = CAPACITY) -> None:
        self.schema = schema
        self.capacity = capacity
        self._documents: OrderedDict[str, Document] = OrderedDict()

    def get(self, query: str) -> Document:
        document = self._documents.get(query)
        if document is not None:
            self._documents.move_to_end(query)
            return document
        document = prepare(self.schema, query)
        if len(query) <= MAX_CACHED_CHARS:
            self._documents[query] = document
            while len(self._documents) > self.capacity:
                self._documents.popitem(last=False)
        return document


class PreparedDocuments(SchemaExtension):
    """Gives Strawberry the document prepared for the request's query text (its documented
    ``graphql_document`` hand-over, as Strawberry's ParserCache does) and tells it validation has
    run (its ``pre_execution_errors``, as its ValidationCache does). Only documents that passed
    validation and the cost limit reach Strawberry (``graphql_api.execution``); the schema keeps
    their table as ``documents``."""

    def on_parse(self) -> Iterator[None]:
        context = self.execution_context
        # The schema is a TicketingSchema, which keeps the documents; Strawberry's context types it
        # as its BaseSchema.
        documents: Documents = context.schema.documents  # type: ignore[attr-defined]
        if context.query is not None:
            context.graphql_document = documents.get(context.query).node
        yield

    def on_validate(self) -> Iterator[None]:
        self.execution_context.pre_execution_errors = []
        yield
