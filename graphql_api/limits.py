"""Protection against abusive queries: depth, aliases, document size and a node-count cost.

The cost of an operation is the number of list items it may return. A field that takes a
``limit`` returns a page of up to that many items for each item of the list it sits in, so
``orders(limit: 100) { items { tickets(limit: 100) { ... } } }`` costs 100 + 100 * 100; any other
list field (``Timeslot.ticketTypes``, ``Ticket.metadataFields``, ...) counts as a full page of
``MAX_LIMIT`` items per parent. The limit is read the way graphql-core will run it: from the
coerced argument values (literals, variables, variable defaults, ``100.0`` for an Int), with
graphql-core's own ``get_variable_values`` and ``value_from_ast``; a limit that cannot be known
(a limit variable that does not coerce, an invalid value) counts as ``MAX_LIMIT``. An omitted
limit is the services' default. Only the variables passed as a ``limit`` matter, so the cost of
a document is computed once per document and values of those variables
(``graphql_api.documents``).

Depth and aliases are limited by validation rules, document size by graphql-core's parser
(``max_tokens``); all three run once per document text, when it is first validated. The page
size itself is bounded by the services (1 to 100), like in REST.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from graphql import (
    ArgumentNode,
    ASTValidationRule,
    DocumentNode,
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
    VariableNode,
    VariableValues,
    Visitor,
    get_named_type,
    get_nullable_type,
    get_variable_values,
    is_list_type,
    value_from_ast,
    visit,
)
from strawberry.extensions import MaxAliasesLimiter, QueryDepthLimiter

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
        argument = next((a for a in field.arguments or () if a.name.value == "limit"), None)
        if argument is None:
            return DEFAULT_LIMIT
        coerced = self.variables.coerced
        if isinstance(argument.value, VariableNode) and argument.value.name.value not in coerced:
            return DEFAULT_LIMIT
        value = value_from_ast(argument.value, definition.args["limit"].type, coerced)
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
    limit_names: frozenset[str],
) -> int:
    """The cost of ``operation`` run with the raw request ``variables``, of which only those
    named ``limit_names`` (see :func:`limit_variables`) are read."""
    root = {
        OperationType.QUERY: schema.query_type,
        OperationType.MUTATION: schema.mutation_type,
        OperationType.SUBSCRIPTION: schema.subscription_type,
    }[operation.operation]
    used = [
        definition
        for definition in operation.variable_definitions or ()
        if definition.variable.name.value in limit_names
    ]
    coerced = get_variable_values(schema, used, dict(variables), max_errors=1)
    known = coerced if isinstance(coerced, VariableValues) else None
    return _Walk(schema, fragments, known).cost(operation.selection_set, root, 1)


def limit_variables(document: DocumentNode) -> frozenset[str]:
    """The variables ``document`` passes as a ``limit``: the only ones its cost depends on."""
    names: set[str] = set()

    class Collect(Visitor):
        def enter_argument(self, node: ArgumentNode, *_: Any) -> None:
            if node.name.value == "limit" and isinstance(node.value, VariableNode):
                names.add(node.value.name.value)

    visit(document, Collect())
    return frozenset(names)


def cost_error(cost: int, operation: OperationDefinitionNode) -> GraphQLError:
    return GraphQLError(
        f"The query may return {cost} list items; the limit is {MAX_COST}. "
        "Ask for smaller pages or fewer nested lists.",
        nodes=[operation],
    )


LIMIT_RULES: tuple[type[ASTValidationRule], ...] = (
    *QueryDepthLimiter(max_depth=MAX_DEPTH).validation_rules,
    *MaxAliasesLimiter(max_alias_count=MAX_ALIASES).validation_rules,
)
"""Depth and alias limits: the validation rules of Strawberry's public limiter extensions, made
once so that a validated document can be cached (a rule class made per request would not)."""
