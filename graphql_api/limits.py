"""Protection against abusive queries: depth, aliases, document size and a node-count cost.

The cost of an operation is the number of list items it may return. A field that takes a
``limit`` returns a page of up to that many items for each item of the list it sits in, so
``orders(limit: 100) { items { tickets(limit: 100) { ... } } }`` costs 100 + 100 * 100; any other
list field (``Timeslot.ticketTypes``, ``Ticket.metadataFields``, ...) counts as a full page of
``MAX_LIMIT`` items per parent. The limit is read the way graphql-core will run it: from the
coerced argument values (literals, variables, variable defaults, ``100.0`` for an Int), with
graphql-core's own ``get_variable_values`` and ``get_argument_values``; a limit that cannot be
known (variables that do not coerce, an invalid argument) counts as ``MAX_LIMIT``. An omitted
limit is the services' default. The page size itself is bounded by the services (1 to 100), like
in REST.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from typing import Any

from graphql import (
    FieldNode,
    FragmentDefinitionNode,
    FragmentSpreadNode,
    GraphQLError,
    GraphQLField,
    GraphQLObjectType,
    GraphQLSchema,
    InlineFragmentNode,
    OperationDefinitionNode,
    OperationType,
    SelectionSetNode,
    VariableValues,
    get_argument_values,
    get_named_type,
    get_nullable_type,
    get_variable_values,
    is_list_type,
)
from strawberry.extensions import (
    MaxAliasesLimiter,
    MaxTokensLimiter,
    QueryDepthLimiter,
    SchemaExtension,
)

from app.pagination import DEFAULT_LIMIT, MAX_LIMIT

MAX_DEPTH = 10
MAX_ALIASES = 30
MAX_TOKENS = 5_000
MAX_COST = 20_000


class _Walk:
    def __init__(
        self,
        schema: GraphQLSchema,
        fragments: Mapping[str, FragmentDefinitionNode],
        variables: VariableValues | None,
    ) -> None:
        self.schema = schema
        self.fragments = fragments
        self.variables = variables

    def page_size(self, definition: GraphQLField, field: FieldNode) -> int:
        """The ``limit`` graphql-core will pass to the resolver, capped at ``MAX_LIMIT``."""
        if self.variables is None:
            return MAX_LIMIT
        try:
            value = get_argument_values(definition, field, self.variables).get("limit")
        except (GraphQLError, TypeError, ValueError):
            return MAX_LIMIT
        if value is None:
            return DEFAULT_LIMIT
        if isinstance(value, int) and not isinstance(value, bool) and value > 0:
            return min(value, MAX_LIMIT)
        return MAX_LIMIT

    def cost(
        self,
        selection_set: SelectionSetNode | None,
        parent: Any,
        multiplier: int,
        page: bool = False,
        seen: frozenset[str] = frozenset(),
    ) -> int:
        """Items that ``selection_set`` on ``parent`` may return, ``multiplier`` times over.

        ``page``: ``parent`` is a page object whose size its field's ``limit`` already counted,
        so its ``items`` list adds nothing more.
        """
        if selection_set is None or not isinstance(parent, GraphQLObjectType):
            return 0
        total = 0
        for selection in selection_set.selections:
            if isinstance(selection, FieldNode):
                definition = parent.fields.get(selection.name.value)
                if definition is None:
                    continue
                items, is_page = multiplier, "limit" in definition.args
                if is_page:
                    items = multiplier * self.page_size(definition, selection)
                    total += items
                elif is_list_type(get_nullable_type(definition.type)) and not page:
                    items = multiplier * MAX_LIMIT
                    total += items
                child = get_named_type(definition.type)
                total += self.cost(selection.selection_set, child, items, is_page, seen)
            elif isinstance(selection, InlineFragmentNode):
                condition = selection.type_condition
                target = self.schema.get_type(condition.name.value) if condition else parent
                total += self.cost(selection.selection_set, target, multiplier, page, seen)
            elif isinstance(selection, FragmentSpreadNode):
                name = selection.name.value
                fragment = self.fragments.get(name)
                if fragment is None or name in seen:
                    continue
                target = self.schema.get_type(fragment.type_condition.name.value)
                total += self.cost(fragment.selection_set, target, multiplier, page, seen | {name})
        return total


def operation_cost(
    schema: GraphQLSchema,
    operation: OperationDefinitionNode,
    fragments: Mapping[str, Any],
    variables: Mapping[str, Any],
) -> int:
    """The cost of ``operation`` run with the raw request ``variables``."""
    root = {
        OperationType.QUERY: schema.query_type,
        OperationType.MUTATION: schema.mutation_type,
        OperationType.SUBSCRIPTION: schema.subscription_type,
    }[operation.operation]
    coerced = get_variable_values(
        schema, operation.variable_definitions or (), dict(variables), max_errors=1
    )
    known = coerced if isinstance(coerced, VariableValues) else None
    return _Walk(schema, fragments, known).cost(operation.selection_set, root, 1)


class CostLimiter(SchemaExtension):
    """Rejects an operation whose cost exceeds ``MAX_COST`` before it is validated or run."""

    def on_validate(self) -> Iterator[None]:
        context = self.execution_context
        document = context.graphql_document
        variables = context.variables or {}
        if document is not None:
            fragments = {
                d.name.value: d
                for d in document.definitions
                if isinstance(d, FragmentDefinitionNode)
            }
            for definition in document.definitions:
                if not isinstance(definition, OperationDefinitionNode):
                    continue
                cost = operation_cost(context.schema._schema, definition, fragments, variables)
                if cost > MAX_COST:
                    context.pre_execution_errors = [
                        GraphQLError(
                            f"The query may return {cost} list items; the limit is {MAX_COST}. "
                            "Ask for smaller pages or fewer nested lists.",
                            nodes=[definition],
                        )
                    ]
                    break
        yield


def limit_extensions() -> list[Callable[[], SchemaExtension]]:
    """Factories, so that each request gets fresh extension instances."""
    return [
        lambda: MaxTokensLimiter(max_token_count=MAX_TOKENS),
        lambda: QueryDepthLimiter(max_depth=MAX_DEPTH),
        lambda: MaxAliasesLimiter(max_alias_count=MAX_ALIASES),
        CostLimiter,
    ]
