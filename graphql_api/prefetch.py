"""A root record, its page and the records the page's items name, read in one statement before
the operation executes, into the request's dataloaders.

``event(id: $id) { tickets(limit: 25) { items { ... order { ... } } } }`` would otherwise cost
three round trips one after the other: the event (its field's resolver), its page of tickets
(the page loader, once the event is there) and the tickets' orders (the record loader, once the
page is there). A document is planned once (:func:`plan`, kept with the prepared document): its
first root field that reads a record by id (declared with ``RECORD_ROOT``), the first page under
it (``NESTED_PAGE``) and the relations selected on the page's items (``RELATED``), written as
plain fields (no fragment, no directive). Before execution (``graphql_api.execution``)
:meth:`Prefetch.prime` reads them with ``app.resources.PlannedPageUnder.read`` and puts them into
the loaders under the keys the fields' resolvers ask for, so that the executor finds them loaded.

Whatever the prefetch cannot answer exactly as the resolvers would (a variable or argument that
does not coerce, a bad id, a scope the caller lacks, a record that is not the caller's, SQLite) it
leaves to them: it primes nothing, or leaves out the relation, and the fields load, refuse and
report as without it; so does the database unable to serve, which the fields then report on their
paths.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from graphql import (
    FieldNode,
    GraphQLError,
    GraphQLField,
    GraphQLID,
    GraphQLList,
    GraphQLNonNull,
    GraphQLObjectType,
    GraphQLSchema,
    ListValueNode,
    ObjectValueNode,
    OperationDefinitionNode,
    OperationType,
    SelectionSetNode,
    ValueNode,
    VariableNode,
    VariableValues,
    get_argument_values,
    get_nullable_type,
    get_variable_values,
    type_from_ast,
)

from app.errors import DomainError
from app.ids import parse_id
from app.resources import PlannedPageUnder, Resource
from db.availability import unavailable
from graphql_api.context import Context
from graphql_api.core import DirectResolver, field_metadata
from graphql_api.dataloaders import ListArgs, list_args

RECORD_ROOT = "record_root"
"""Metadata of a root field ``(id: ID!)`` answering the caller's record of the resource it
holds, through the request's record loader."""
NESTED_PAGE = "nested_page"
"""Metadata of a page field: (its resource, the parent column), read through the page loader."""
RELATED = "related"
"""Metadata of a relation field: (the key column, its resource), read through the record
loader."""


@dataclass(frozen=True, slots=True)
class Prefetch:
    """What :func:`plan` found in an operation: the root field and its record's resource, the
    page field under it with its resource and parent column, and the relations of its items."""

    schema: GraphQLSchema
    operation: OperationDefinitionNode
    root_field: GraphQLField
    root_node: FieldNode
    root: Resource[Any]
    page_field: GraphQLField
    page_node: FieldNode
    page: Resource[Any]
    parent: str
    names: Mapping[str, str]
    """The page field's arguments: GraphQL name -> Python name."""
    relations: tuple[tuple[str, Resource[Any]], ...]
    planned: tuple[PlannedPageUnder[Any], ListArgs] | None
    """The page planned (``Resource.plan_under``) with its loader's arguments, when the document
    writes its arguments without variables (they are then the same for every request); None:
    planned per request."""
    id_variable: str | None
    """The operation's only variable, of type ``ID``, when the root field's only argument is
    ``id: $that``: a string given for it is the id as graphql-core coerces it, so that such a
    request needs neither the variables' nor the arguments' coercion."""

    async def prime(self, context: Context, variables: dict[str, Any]) -> None:
        """Read the root record, its page and its items' relations in one statement and put
        them into ``context``'s loaders; nothing when the resolvers would answer otherwise."""
        planned = self.planned
        raw = variables.get(self.id_variable) if self.id_variable is not None else None
        try:
            if planned is None or raw.__class__ is not str:
                coerced = get_variable_values(
                    self.schema, self.operation.variable_definitions or (), variables
                )
                if isinstance(coerced, list):
                    return
                raw = get_argument_values(self.root_field, self.root_node, coerced)["id"]
                if planned is None:
                    arguments = _arguments(self.page_field, self.page_node, self.names, coerced)
                    planned = self._planned(arguments)
            parent_id = parse_id(raw, "id")
            found = await planned[0].read(context.principal, parent_id)
        except (GraphQLError, DomainError):
            return
        except Exception as error:
            if not unavailable(error):
                raise
            return  # the fields meet the database's failure too, and report it on their paths
        if found is None:
            return
        loaders = context.loaders
        loaders.prime_records(self.root, {parent_id: found.parent})
        loaders.pages(self.page, self.parent).prime((parent_id, planned[1]), found.page)
        for resource, records in found.related.items():
            loaders.prime_records(resource, records)

    def _planned(self, arguments: dict[str, Any]) -> tuple[PlannedPageUnder[Any], ListArgs]:
        """The page of ``arguments`` planned (``Resource.plan_under``), with its loader's
        arguments; :class:`DomainError` when they are not a page's."""
        planned = self.page.plan_under(self.root, self.parent, self.relations, **arguments)
        return planned, list_args(**arguments)


def _arguments(
    field: GraphQLField,
    node: FieldNode,
    names: Mapping[str, str],
    variables: VariableValues | None = None,
) -> dict[str, Any]:
    """The arguments of ``field`` at ``node``, coerced, under their Python names."""
    return {
        names[name]: value for name, value in get_argument_values(field, node, variables).items()
    }


def _constant(value: ValueNode) -> bool:
    """Whether ``value`` is written without a variable, at any depth. Not graphql-core's
    ``is_const_value_node``, which counts a list as constant when any one item is (``[1, $x]``)
    and an empty list as not."""
    if isinstance(value, VariableNode):
        return False
    if isinstance(value, ListValueNode):
        return all(_constant(item) for item in value.values)
    if isinstance(value, ObjectValueNode):
        return all(_constant(member.value) for member in value.fields)
    return True


def _constant_arguments(
    field: GraphQLField, node: FieldNode, names: Mapping[str, str]
) -> dict[str, Any] | None:
    """The arguments of ``field`` at ``node`` (:func:`_arguments`) when no variable is written in
    them, so that they coerce alike for every request; None otherwise, or when they do not
    coerce (each request then meets the error)."""
    if not all(_constant(argument.value) for argument in node.arguments or ()):
        return None
    try:
        return _arguments(field, node, names)
    except GraphQLError:
        return None


def _id_variable(
    schema: GraphQLSchema, operation: OperationDefinitionNode, root_node: FieldNode
) -> str | None:
    """The name of ``operation``'s only variable when it is of type ``ID`` and the root field's
    only argument is ``id: $that`` (:attr:`Prefetch.id_variable`); None otherwise."""
    definitions = operation.variable_definitions or ()
    arguments = root_node.arguments or ()
    if len(definitions) != 1 or len(arguments) != 1:
        return None
    [definition], [argument] = definitions, arguments
    name = definition.variable.name.value
    value = argument.value
    declared = type_from_ast(schema, definition.type)
    if isinstance(declared, GraphQLNonNull):
        declared = declared.of_type
    if (
        argument.name.value != "id"
        or not isinstance(value, VariableNode)
        or value.name.value != name
        or declared is not GraphQLID
    ):
        return None
    return name


def _fields(selection_set: SelectionSetNode | None) -> list[FieldNode]:
    """The plain fields of a selection set: no fragment, no directive."""
    if selection_set is None:
        return []
    return [
        selection
        for selection in selection_set.selections
        if isinstance(selection, FieldNode) and not selection.directives
    ]


def plan(schema: GraphQLSchema, operation: OperationDefinitionNode) -> Prefetch | None:
    """The prefetch of ``operation`` (a validated one); None when it has nothing to prefetch."""
    if operation.operation != OperationType.QUERY or schema.query_type is None:
        return None
    for root_node in _fields(operation.selection_set):
        root_field = schema.query_type.fields.get(root_node.name.value)
        if root_field is None or RECORD_ROOT not in field_metadata(root_field):
            continue
        record_type = get_nullable_type(root_field.type)
        if not isinstance(record_type, GraphQLObjectType):
            continue
        for page_node in _fields(root_node.selection_set):
            page_field = record_type.fields.get(page_node.name.value)
            if page_field is None or not isinstance(page_field.resolve, DirectResolver):
                continue
            nested = field_metadata(page_field).get(NESTED_PAGE)
            page_type = get_nullable_type(page_field.type)
            if nested is None or not isinstance(page_type, GraphQLObjectType):
                continue
            page, parent = nested
            names = page_field.resolve.names
            prefetch = Prefetch(
                schema,
                operation,
                root_field,
                root_node,
                field_metadata(root_field)[RECORD_ROOT],
                page_field,
                page_node,
                page,
                parent,
                names,
                _relations(page_type, page_node),
                None,
                _id_variable(schema, operation, root_node),
            )
            arguments = _constant_arguments(page_field, page_node, names)
            if arguments is None:
                return prefetch
            try:
                return replace(prefetch, planned=prefetch._planned(arguments))
            except DomainError:
                return prefetch  # each request meets the error
    return None


def _relations(
    page_type: GraphQLObjectType, page_node: FieldNode
) -> tuple[tuple[str, Resource[Any]], ...]:
    """The relations selected, without arguments, on the items of the page ``page_node``."""
    items_field = page_type.fields.get("items")
    listed = get_nullable_type(items_field.type) if items_field is not None else None
    if not isinstance(listed, GraphQLList):
        return ()
    item_type = get_nullable_type(listed.of_type)
    if not isinstance(item_type, GraphQLObjectType):
        return ()
    found: dict[tuple[str, Resource[Any]], None] = {}
    for items_node in _fields(page_node.selection_set):
        if items_node.name.value != "items":
            continue
        for node in _fields(items_node.selection_set):
            item_field = item_type.fields.get(node.name.value)
            if item_field is None or node.arguments:
                continue
            related = field_metadata(item_field).get(RELATED)
            if related is not None:
                found[related] = None
    return tuple(found)
