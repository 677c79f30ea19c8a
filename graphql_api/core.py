"""Strawberry and graphql-core internals we cannot avoid, in one place: the graphql-core schema,
the validation rules, direct resolvers, and the executor that takes shortcuts through both.

Strawberry builds a graphql-core ``GraphQLSchema`` and executes every operation against it, but
offers no public accessor for it: it is ``Schema._schema`` (Strawberry's own ``ValidationCache``
extension reads the same attribute). ``graphql_api.documents`` needs it to parse, validate and
cost a document once per query text instead of on every request, with the same rules Strawberry
validates with (graphql-core's plus two of Strawberry's own, from an undocumented module). This
module is the only place that reads either; ``tests/unit/test_strawberry_adapter.py`` fails on an
upgrade that renames them, executes against another schema object or changes Strawberry's rules.

:class:`PlainFieldsExecutor` is the graphql-core executor Strawberry runs operations with (its
public ``execution_context_class`` option), with two shortcuts: plain attributes are read
without a resolver call, and a list's relations are loaded before its items are completed. A
field may name a direct resolver (:data:`DIRECT_RESOLVER`) that graphql-core calls instead of
Strawberry's resolver wrapper (:func:`install_direct_resolvers`).
"""

from __future__ import annotations

from asyncio import Future, wait
from collections.abc import Callable
from typing import Any, NamedTuple

import strawberry
from graphql import (
    ASTValidationRule,
    GraphQLLeafType,
    GraphQLList,
    GraphQLObjectType,
    GraphQLResolveInfo,
    GraphQLSchema,
    Undefined,
    get_nullable_type,
    is_leaf_type,
    is_non_null_type,
)
from graphql.execution.collect_fields import FieldDetailsList
from graphql.pyutils import AwaitableOrValue, Path
from strawberry.schema.schema import StrawberryGraphQLCoreExecutionContext
from strawberry.schema.schema_converter import GraphQLCoreConverter


def core_schema(schema: strawberry.Schema) -> GraphQLSchema:
    """The graphql-core schema ``schema`` executes against."""
    core = getattr(schema, "_schema", None)
    if not isinstance(core, GraphQLSchema):
        raise RuntimeError(
            "strawberry.Schema no longer keeps its graphql-core schema in _schema: "
            "update graphql_api/core.py for this Strawberry version"
        )
    return core


def strawberry_validation_rules() -> tuple[type[ASTValidationRule], ...]:
    """The rules Strawberry adds to graphql-core's when it validates a document itself (for
    ``strawberry.Maybe`` arguments and ``@oneOf`` inputs); they live in a module Strawberry does
    not document, so they are read here too."""
    from strawberry.schema.validation_rules.maybe_null import MaybeNullValidationRule
    from strawberry.schema.validation_rules.one_of import OneOfInputValidationRule

    return (MaybeNullValidationRule, OneOfInputValidationRule)


DIRECT_RESOLVER = "direct_resolver"
"""The key, in a Strawberry field's ``metadata``, of its direct resolver: a function
``(source, context) -> value or awaitable`` that graphql-core calls instead of Strawberry's
resolver wrapper (an info object, argument conversion, the field extensions, then the resolver),
for fields that take no arguments. It must do all that the field's resolver and extensions do
(the scope check included), and be harmless to call twice for one source (it reads through the
request's dataloaders): :class:`PlainFieldsExecutor` calls it for every item of a list before
completing the items. ``graphql_api.scopes.relation`` makes such fields."""

Direct = Callable[[Any, Any], Any]


class DirectResolver:
    """A graphql-core field resolver calling a direct resolver with the operation's context."""

    __slots__ = ("direct",)

    def __init__(self, direct: Direct) -> None:
        self.direct = direct

    def __call__(self, source: Any, info: GraphQLResolveInfo, **_arguments: Any) -> Any:
        return self.direct(source, info.context)


def _definition(field: Any) -> Any:
    """The Strawberry field behind a graphql-core field (Strawberry's back reference)."""
    return (field.extensions or {}).get(GraphQLCoreConverter.DEFINITION_BACKREF)


def install_direct_resolvers(schema: strawberry.Schema) -> None:
    """Let graphql-core call the direct resolver of every field that names one."""
    for named in core_schema(schema).type_map.values():
        if not isinstance(named, GraphQLObjectType):
            continue
        for name, field in named.fields.items():
            metadata = getattr(_definition(field), "metadata", None) or {}
            direct = metadata.get(DIRECT_RESOLVER)
            if direct is None:
                continue
            if field.args:
                raise TypeError(f"{named.name}.{name}: a direct resolver takes no arguments")
            field.resolve = DirectResolver(direct)


class _Attribute(NamedTuple):
    """How to complete a plain attribute field: read ``name``, coerce with ``coerce``."""

    name: str
    coerce: Any
    non_null: bool


class PlainFieldsExecutor(StrawberryGraphQLCoreExecutionContext):
    """Strawberry's executor, completing plain attribute fields of a leaf type directly, and
    loading a list's relations before completing its items.

    graphql-core executes every field alike: a resolve info (a 15-member tuple), Strawberry's
    resolver wrapper around ``getattr``, then ``complete_value``'s type dispatch. A page of 25
    tickets with their orders is about 250 such fields that only read an attribute of a record
    and coerce it (``id``, ``status``, ``total``, ...). For a field Strawberry itself marks as
    basic (no resolver, no field extension, its default ``getattr`` resolver) whose type is a
    scalar or enum and that takes no arguments, this executor reads the attribute and coerces
    it with the field type's own ``coerce_output_value``, as graphql-core would. Anything else,
    and any value that is missing, refused or raises (so that its error is made, located and
    nulled exactly as before), goes the ordinary way.

    graphql-core completes a list item by item; an item whose relation (``ticket.order``) waits
    for a dataloader becomes a coroutine, and the list gathers them as one task per item: 25
    tasks and a hundred coroutine steps for a page, for one batched query. Before completing a
    list of objects, this executor calls the direct resolvers selected on its items
    (:data:`DIRECT_RESOLVER`): the dataloader receives the same keys in one batch as before, the
    list waits for it once, and the items then complete without waiting, their relations
    answered from the loader's cache. Errors stay where they were: the resolver, called again
    for the item, raises the same error at the same field.

    Schema middleware (an extension with a ``resolve`` hook) turns both shortcuts off, so every
    field still reaches it."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        middleware = self.middleware_manager
        self._shortcut = not (middleware is not None and middleware.middlewares)
        self._attributes: dict[
            tuple[GraphQLObjectType, int], tuple[FieldDetailsList, _Attribute | None]
        ] = {}
        self._relations: dict[
            tuple[GraphQLObjectType, int], tuple[FieldDetailsList, tuple[Direct, ...]]
        ] = {}

    def _attribute(
        self, parent_type: GraphQLObjectType, field_details_list: FieldDetailsList
    ) -> _Attribute | None:
        node = field_details_list[0].node
        field = self.schema.get_field(parent_type, node.name.value)
        if not self._shortcut or field is None or field.args or node.arguments:
            return None
        if not getattr(field.resolve, "_is_default", False):  # Strawberry's basic-field mark
            return None
        definition = (field.extensions or {}).get(GraphQLCoreConverter.DEFINITION_BACKREF)
        if definition is None or definition.default_resolver is not getattr:
            return None
        non_null = is_non_null_type(field.type)
        leaf = field.type.of_type if non_null else field.type  # type: ignore[union-attr]
        if not is_leaf_type(leaf):
            return None
        assert isinstance(leaf, GraphQLLeafType)
        return _Attribute(definition.python_name, leaf.coerce_output_value, non_null)

    def execute_field(
        self,
        parent_type: GraphQLObjectType,
        source: Any,
        field_details_list: FieldDetailsList,
        path: Path,
        position_context: Any,
    ) -> AwaitableOrValue[Any]:
        # Keyed by the identity of the collected field group, as graphql-core memoizes
        # collect_subfields: the same group serves every item of a list. The group is kept
        # alive with the entry so that its id is not reused during the operation.
        key = (parent_type, id(field_details_list))
        known = self._attributes.get(key)
        if known is None:
            known = (field_details_list, self._attribute(parent_type, field_details_list))
            self._attributes[key] = known
        attribute = known[1]
        if attribute is not None:
            try:
                value = getattr(source, attribute.name)
                if value is None:
                    if not attribute.non_null:
                        return None
                else:
                    coerced = attribute.coerce(value)
                    if coerced is not None and coerced is not Undefined:
                        return coerced
            except Exception:  # the ordinary way below makes, locates and nulls the error
                pass
        return super().execute_field(
            parent_type, source, field_details_list, path, position_context
        )

    def _selected_relations(
        self, item_type: GraphQLObjectType, field_details_list: FieldDetailsList
    ) -> tuple[Direct, ...]:
        """The direct resolvers among the fields selected on the items of a list."""
        key = (item_type, id(field_details_list))
        known = self._relations.get(key)
        if known is None:
            found: list[Direct] = []
            grouped_field_set = self.collect_subfields(item_type, field_details_list)[0]
            for details in grouped_field_set.values():
                field = self.schema.get_field(item_type, details[0].node.name.value)
                if field is not None and isinstance(field.resolve, DirectResolver):
                    found.append(field.resolve.direct)
            known = (field_details_list, tuple(found))
            self._relations[key] = known
        return known[1]

    def _load_relations(
        self, return_type: GraphQLList[Any], field_details_list: FieldDetailsList, items: Any
    ) -> list[Future[Any]]:
        """Ask for the relations of every item; the loads still pending."""
        item_type = get_nullable_type(return_type.of_type)
        if not self._shortcut or not isinstance(item_type, GraphQLObjectType):
            return []
        if not isinstance(items, list) or len(items) < 2:
            return []
        directs = self._selected_relations(item_type, field_details_list)
        pending: list[Future[Any]] = []
        context = self.context_value
        for item in items:
            if item is None:
                continue
            for direct in directs:
                try:
                    loaded = direct(item, context)
                except Exception:  # raised again, and made a field error, when completed
                    continue
                if isinstance(loaded, Future) and not loaded.done():
                    pending.append(loaded)
        return pending

    def complete_list_value(
        self,
        return_type: GraphQLList[Any],
        field_details_list: FieldDetailsList,
        info: GraphQLResolveInfo,
        path: Path,
        result: Any,
        position_context: Any,
    ) -> AwaitableOrValue[list[Any]]:
        pending = self._load_relations(return_type, field_details_list, result)
        if not pending:
            return super().complete_list_value(
                return_type, field_details_list, info, path, result, position_context
            )

        async def once_loaded() -> list[Any]:
            await wait(pending)
            for loaded in pending:  # a failed load is raised again by its field
                if not loaded.cancelled():
                    loaded.exception()
            completed = super(PlainFieldsExecutor, self).complete_list_value(
                return_type, field_details_list, info, path, result, position_context
            )
            return await completed if self.is_awaitable(completed) else completed  # type: ignore[no-any-return]

        return once_loaded()
