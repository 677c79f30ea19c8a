"""Protection against abusive queries: depth, aliases, document size and a node-count cost.

The cost of an operation is the number of list items it may return: every field that takes a
``limit`` can return that many items (25 when not given) for each item of the list it sits in, so
``orders(limit: 100) { items { tickets(limit: 100) { ... } } }`` costs 100 + 100 * 100. The page
size itself is bounded by the services (1 to 100), like in REST.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from typing import Any

from graphql import (
    FieldNode,
    FragmentDefinitionNode,
    FragmentSpreadNode,
    GraphQLError,
    GraphQLObjectType,
    GraphQLSchema,
    InlineFragmentNode,
    IntValueNode,
    OperationDefinitionNode,
    OperationType,
    SelectionSetNode,
    VariableNode,
    get_named_type,
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
        variables: Mapping[str, Any],
    ) -> None:
        self.schema = schema
        self.fragments = fragments
        self.variables = variables

    def limit(self, field: FieldNode) -> int:
        for argument in field.arguments or ():
            if argument.name.value != "limit":
                continue
            value: Any = None
            if isinstance(argument.value, IntValueNode):
                value = int(argument.value.value)
            elif isinstance(argument.value, VariableNode):
                value = self.variables.get(argument.value.name.value)
            if isinstance(value, int) and value > 0:
                return min(value, MAX_LIMIT)
            return DEFAULT_LIMIT
        return DEFAULT_LIMIT

    def cost(
        self,
        selection_set: SelectionSetNode | None,
        parent: Any,
        multiplier: int,
        seen: frozenset[str] = frozenset(),
    ) -> int:
        if selection_set is None or not isinstance(parent, GraphQLObjectType):
            return 0
        total = 0
        for selection in selection_set.selections:
            if isinstance(selection, FieldNode):
                definition = parent.fields.get(selection.name.value)
                if definition is None:
                    continue
                items = multiplier
                if "limit" in definition.args:
                    items = multiplier * self.limit(selection)
                    total += items
                child = get_named_type(definition.type)
                total += self.cost(selection.selection_set, child, items, seen)
            elif isinstance(selection, InlineFragmentNode):
                condition = selection.type_condition
                target = self.schema.get_type(condition.name.value) if condition else parent
                total += self.cost(selection.selection_set, target, multiplier, seen)
            elif isinstance(selection, FragmentSpreadNode):
                name = selection.name.value
                fragment = self.fragments.get(name)
                if fragment is None or name in seen:
                    continue
                target = self.schema.get_type(fragment.type_condition.name.value)
                total += self.cost(fragment.selection_set, target, multiplier, seen | {name})
        return total


def operation_cost(
    schema: GraphQLSchema,
    operation: OperationDefinitionNode,
    fragments: Mapping[str, Any],
    variables: Mapping[str, Any],
) -> int:
    root = {
        OperationType.QUERY: schema.query_type,
        OperationType.MUTATION: schema.mutation_type,
        OperationType.SUBSCRIPTION: schema.subscription_type,
    }[operation.operation]
    return _Walk(schema, fragments, variables).cost(operation.selection_set, root, 1)


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
