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

import weakref
from asyncio import Future, wait
from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import Any, NamedTuple

import strawberry
from graphql import (
    ASTValidationRule,
    GraphQLField,
    GraphQLLeafType,
    GraphQLList,
    GraphQLObjectType,
    GraphQLResolveInfo,
    GraphQLResolveInfoHelpers,
    GraphQLScalarType,
    GraphQLSchema,
    Undefined,
    get_argument_values,
    get_nullable_type,
    is_leaf_type,
    is_non_null_type,
)
from graphql.execution import Executor
from graphql.execution.collect_fields import FieldDetailsList
from graphql.pyutils import AwaitableOrValue, Path, gather_with_cancel
from strawberry.resolvers import is_default_resolver
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
``(source, context, **arguments) -> value or awaitable`` that graphql-core calls instead of
Strawberry's resolver wrapper (an info object, argument conversion, the field extensions, then
the resolver). Its arguments, if the field has any, must be scalars: graphql-core coerces them
as Strawberry would hand them over, and they arrive under their Python names. It must do all that
the field's resolver and extensions do (the scope check included). A direct resolver of a field
without arguments must be harmless to call twice for one source (it reads through the request's
dataloaders): :class:`PlainFieldsExecutor` calls it for every item of a list before completing
the items. ``graphql_api.scopes.relation`` and ``graphql_api.scopes.direct_field`` make such
fields."""

Direct = Callable[..., Any]


class DirectResolver:
    """A graphql-core field resolver calling a direct resolver with the operation's context and
    the arguments under their Python names (``names``: GraphQL name -> Python name)."""

    __slots__ = ("direct", "names")

    def __init__(self, direct: Direct, names: dict[str, str] | None = None) -> None:
        self.direct = direct
        self.names = names or {}

    def __call__(self, source: Any, info: GraphQLResolveInfo[Any], **arguments: Any) -> Any:
        return self.call(source, info.context, arguments)

    def call(self, source: Any, context: Any, arguments: dict[str, Any]) -> Any:
        if not arguments:
            return self.direct(source, context)
        names = self.names
        return self.direct(source, context, **{names[name]: v for name, v in arguments.items()})


def _definition(field: Any) -> Any:
    """The Strawberry field behind a graphql-core field (Strawberry's back reference)."""
    return (field.extensions or {}).get(GraphQLCoreConverter.DEFINITION_BACKREF)


def field_metadata(field: GraphQLField) -> Mapping[str, Any]:
    """The ``metadata`` of the Strawberry field behind a graphql-core field (empty for none)."""
    return getattr(_definition(field), "metadata", None) or {}


def install_direct_resolvers(schema: strawberry.Schema) -> None:
    """Let graphql-core call the direct resolver of every field that names one."""
    names_of = schema.config.name_converter.from_argument
    for named in core_schema(schema).type_map.values():
        if not isinstance(named, GraphQLObjectType):
            continue
        for name, field in named.fields.items():
            definition = _definition(field)
            metadata = getattr(definition, "metadata", None) or {}
            direct = metadata.get(DIRECT_RESOLVER)
            if direct is None:
                continue
            for argument in field.args.values():
                scalar = get_nullable_type(argument.type)
                if not isinstance(scalar, GraphQLScalarType) or scalar.name == "GlobalID":
                    raise TypeError(
                        f"{named.name}.{name}: a direct resolver takes scalar arguments only"
                    )
            names = {names_of(argument): argument.python_name for argument in definition.arguments}
            field.resolve = DirectResolver(direct, names)


class _Relation(NamedTuple):
    """A field with a direct resolver whose type is a nullable object type."""

    resolver: DirectResolver
    field: GraphQLField
    object_type: GraphQLObjectType


_Shortcut = tuple[str | None, Any, bool, _Relation | None]
"""How :class:`PlainFieldsExecutor` may execute a field: a plain attribute of a leaf type (its
name, the type's own ``coerce_output_value``, whether it is non-null), a loaded relation, or
neither (:data:`_NO_SHORTCUT`)."""

_NO_SHORTCUT: _Shortcut = (None, None, False, None)

_Step = tuple[str, FieldDetailsList, str | None, Any, bool, _Relation | None]
"""How :class:`PlainFieldsExecutor` executes one field of a selection set: its response name,
its field details and its :data:`_Shortcut`, in one flat tuple that the loop unpacks once."""


class _Items(NamedTuple):
    """A list of objects completed by :class:`PlainFieldsExecutor`: the selection set on its
    items, and the direct resolvers in it."""

    object_type: GraphQLObjectType
    grouped_field_set: Any
    relations: tuple[Direct, ...]


def _field_shortcut(schema: GraphQLSchema, parent_type: GraphQLObjectType, name: str) -> _Shortcut:
    """How :class:`PlainFieldsExecutor` may execute the field ``name`` of ``parent_type`` when
    the query passes it no arguments: read as an attribute, completed as a loaded relation, or
    neither."""
    field = schema.get_field(parent_type, name)
    if field is None:
        return _NO_SHORTCUT
    if isinstance(field.resolve, DirectResolver):
        target = field.type
        if isinstance(target, GraphQLObjectType) and target.is_type_of is None:
            return None, None, False, _Relation(field.resolve, field, target)
        return _NO_SHORTCUT
    if field.args:
        return _NO_SHORTCUT
    if field.resolve is None or not is_default_resolver(field.resolve):  # not a plain attribute
        return _NO_SHORTCUT
    definition = _definition(field)
    if definition is None or definition.default_resolver is not getattr:
        return _NO_SHORTCUT
    non_null = is_non_null_type(field.type)
    leaf = get_nullable_type(field.type)
    if not is_leaf_type(leaf):
        return _NO_SHORTCUT
    assert isinstance(leaf, GraphQLLeafType)
    return definition.python_name, leaf.coerce_output_value, non_null, None


_FIELD_SHORTCUTS: dict[tuple[GraphQLObjectType, str], _Shortcut] = {}
""":func:`_field_shortcut` of each field met: it depends on the schema alone, so it is decided
once per process instead of once per operation."""

_ORDINARY = object()
"""A shortcut declined: the field goes graphql-core's ordinary way."""


def _weak_helpers(executor: Executor[Any]) -> GraphQLResolveInfoHelpers:
    """The executor's ``async_helpers`` (each resolve info's ``gather`` and ``track``) calling
    its methods through a weak reference. graphql-core makes them of its bound methods, a
    reference cycle (the executor, its helpers, their methods) that left each operation's
    executor, with its memo of collected fields and the plans below, to the cyclic collector
    rather than to its reference count: about 140 objects per page, a young collection every
    150 pages. Resolvers and graphql-core call the helpers while the executor executes (a
    subscription's per-event copies while the subscription's executor maps its events), when
    the executor is alive."""
    reference = weakref.ref(executor)

    def alive() -> Executor[Any]:
        found = reference()
        if found is None:
            raise RuntimeError("a resolver used its info's async helpers after its operation")
        return found

    def gather(values: Sequence[Awaitable[Any]]) -> Awaitable[list[Any]]:
        return alive().gather_async_work(values)

    def track(values: Sequence[Any]) -> None:
        alive().track_async_work(values)

    return GraphQLResolveInfoHelpers(gather=gather, track=track)


class PlainFieldsExecutor(StrawberryGraphQLCoreExecutionContext):
    """Strawberry's executor, completing plain attributes and loaded relations directly, and
    loading a list's relations before completing its items.

    graphql-core executes every field alike: a path, a resolve info (a 15-member tuple),
    Strawberry's resolver wrapper, then ``complete_value``'s type dispatch down to
    ``execute_fields`` of the next object. A page of 25 tickets with their orders is about 250
    fields that only read an attribute of a record and coerce it (``id``, ``status``, ...), and
    25 relations answered from a dataloader. This executor plans each selection set once per
    operation (what each field allows is decided once per process): a field Strawberry itself
    marks as basic (no resolver, no field extension, its
    default ``getattr`` resolver) whose type is a scalar or enum and that takes no arguments is
    read and coerced with the type's own ``coerce_output_value``, as graphql-core would; a field
    with a direct resolver (:data:`DIRECT_RESOLVER`) of a nullable object type whose value is
    already there executes its selection on that object at once. Anything else, and any value
    that is missing, refused, not yet loaded or raises, goes the ordinary way (a direct resolver
    is harmless to call again), so that errors are made, located and nulled exactly as before.

    graphql-core completes a list item by item; an item whose relation (``ticket.order``) waits
    for a dataloader becomes a coroutine, and the list gathers them as one task per item: 25
    tasks and a hundred coroutine steps for a page, for one batched query. Before completing a
    list of objects, this executor calls the direct resolvers selected on its items: the
    dataloader receives the same keys in one batch as before, the list waits for it once, and
    the items then complete without waiting, their relations answered from the loader's cache.

    Schema middleware (an extension with a ``resolve`` hook) turns the shortcuts off, so every
    field still reaches it."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.async_helpers = _weak_helpers(self)
        middleware = self.middleware_manager
        self._shortcut = not (middleware is not None and middleware.middlewares)
        # Keyed by the identity of the collected field set or group, as graphql-core memoizes
        # collect_subfields: the same one serves every item of a list. It is kept alive with
        # the entry so that its id is not reused during the operation.
        self._plans: dict[tuple[GraphQLObjectType, int], tuple[Any, tuple[_Step, ...]]] = {}
        self._lists: dict[tuple[Any, int], tuple[FieldDetailsList, _Items | None]] = {}

    def _plan(self, parent_type: GraphQLObjectType, grouped_field_set: Any) -> tuple[_Step, ...]:
        """The steps of a selection set not planned yet in this operation."""
        steps = tuple(
            (name, details, *self._shortcut_of(parent_type, details))
            for name, details in grouped_field_set.items()
        )
        self._plans[(parent_type, id(grouped_field_set))] = (grouped_field_set, steps)
        return steps

    def _shortcut_of(
        self, parent_type: GraphQLObjectType, field_details_list: FieldDetailsList
    ) -> _Shortcut:
        if not self._shortcut:
            return _NO_SHORTCUT
        name = field_details_list[0].node.name.value
        key = (parent_type, name)
        known = _FIELD_SHORTCUTS.get(key)
        if known is None:
            known = _field_shortcut(self.schema, parent_type, name)
            _FIELD_SHORTCUTS[key] = known
        return known

    def execute_fields(
        self,
        parent_type: GraphQLObjectType,
        source_value: Any,
        path: Path | None,
        grouped_field_set: Any,
        position_context: Any,
    ) -> AwaitableOrValue[dict[str, Any]]:
        """graphql-core's ``execute_fields``, with the shortcuts of the selection set's plan."""
        results: dict[str, Any] = {}
        is_awaitable = self.is_awaitable
        awaitable_fields: list[str] = []
        planned = self._plans.get((parent_type, id(grouped_field_set)))
        steps = self._plan(parent_type, grouped_field_set) if planned is None else planned[1]
        try:
            for name, details, attribute, coerce, non_null, relation in steps:
                if attribute is not None:
                    try:
                        value = getattr(source_value, attribute)
                        if value is None:
                            if not non_null:
                                results[name] = None
                                continue
                        else:
                            coerced = coerce(value)
                            if coerced is not None and coerced is not Undefined:
                                results[name] = coerced
                                continue
                    except Exception:  # the ordinary way below makes, locates and nulls it
                        pass
                field_path = Path(path, name, parent_type.name)
                result = _ORDINARY
                if relation is not None and position_context is None:
                    result = self._related(relation, source_value, details, field_path)
                if result is _ORDINARY:
                    result = self.execute_field(
                        parent_type, source_value, details, field_path, position_context
                    )
                if result is not Undefined:
                    results[name] = result
                    # A dict is an object completed at once (by _related or graphql-core).
                    if type(result) is not dict and is_awaitable(result):
                        awaitable_fields.append(name)
        except Exception:
            if awaitable_fields:
                self.settle_in_background([results[field] for field in awaitable_fields])
            raise
        if not awaitable_fields:
            return results

        async def get_results() -> dict[str, Any]:
            if len(awaitable_fields) == 1:
                field = awaitable_fields[0]
                results[field] = await results[field]
            else:
                awaited = await gather_with_cancel(*(results[f] for f in awaitable_fields))
                results.update(zip(awaitable_fields, awaited, strict=True))
            return results

        return get_results()

    def _related(
        self,
        relation: _Relation,
        source: Any,
        field_details_list: FieldDetailsList,
        path: Path,
    ) -> Any:
        """The completed relation (graphql-core's ``execute_field`` and ``complete_object_value``
        without the detours: no resolve info, no type dispatch), awaited here when its record is
        still to come; :data:`_ORDINARY` when the direct resolver raises (the ordinary way calls
        it again and makes the error) or answers an error."""
        collected = self.collect_subfields(relation.object_type, field_details_list)
        if collected.new_defer_usages:
            return _ORDINARY
        try:
            if relation.field.args:
                details = field_details_list[0]
                arguments = get_argument_values(
                    relation.field,
                    details.node,
                    self.variable_values,
                    details.fragment_variable_values,
                    self.hide_suggestions,
                )
                value = relation.resolver.call(source, self.context_value, arguments)
            else:
                value = relation.resolver.direct(source, self.context_value)
        except Exception:
            return _ORDINARY
        if value is None:
            return None
        if isinstance(value, Exception):
            return _ORDINARY
        grouped_field_set = collected.grouped_field_set
        if self.is_awaitable(value):
            return self._related_awaited(
                value, relation.object_type, grouped_field_set, field_details_list, path
            )
        try:
            completed = self.execute_fields(
                relation.object_type, value, path, grouped_field_set, None
            )
        except Exception as error:
            self.handle_field_error(error, relation.object_type, field_details_list, path)
            return None
        if isinstance(completed, dict):  # else a coroutine: one of its fields waits
            return completed

        async def await_completed() -> Any:
            try:
                return await completed
            except Exception as error:
                self.handle_field_error(error, relation.object_type, field_details_list, path)
                return None

        return await_completed()

    async def _related_awaited(
        self,
        value: Any,
        object_type: GraphQLObjectType,
        grouped_field_set: Any,
        field_details_list: FieldDetailsList,
        path: Path,
    ) -> Any:
        """A relation whose direct resolver answered an awaitable, completed as graphql-core's
        ``complete_awaitable_value`` completes a nullable object: null for null, a field error
        for an error, raised or answered."""
        try:
            resolved = await value
            if resolved is None:
                return None
            if isinstance(resolved, Exception):
                raise resolved
            completed = self.execute_fields(object_type, resolved, path, grouped_field_set, None)
            return await completed if self.is_awaitable(completed) else completed
        except Exception as error:
            self.handle_field_error(error, object_type, field_details_list, path)
            return None

    def _list_plan(
        self, return_type: GraphQLList[Any], field_details_list: FieldDetailsList
    ) -> _Items | None:
        """How to complete the items of a list of objects directly; None for any other list."""
        key = (return_type, id(field_details_list))
        known = self._lists.get(key)
        if known is None:
            known = (field_details_list, self._items(return_type, field_details_list))
            self._lists[key] = known
        return known[1]

    def _items(
        self, return_type: GraphQLList[Any], field_details_list: FieldDetailsList
    ) -> _Items | None:
        item_type = get_nullable_type(return_type.of_type)
        if not self._shortcut or not isinstance(item_type, GraphQLObjectType):
            return None
        if item_type.is_type_of is not None:
            return None
        collected = self.collect_subfields(item_type, field_details_list)
        if collected.new_defer_usages:
            return None
        relations = []
        for details in collected.grouped_field_set.values():
            field = self.schema.get_field(item_type, details[0].node.name.value)
            # A field with arguments is asked when its item completes, with its arguments.
            if field is not None and isinstance(field.resolve, DirectResolver) and not field.args:
                relations.append(field.resolve.direct)
        return _Items(item_type, collected.grouped_field_set, tuple(relations))

    def _load_relations(self, items: list[Any], relations: tuple[Direct, ...]) -> set[Future[Any]]:
        """Ask for the relations of every item; the loads still pending."""
        pending: set[Future[Any]] = set()
        context = self.context_value
        for item in items:
            for direct in relations:
                try:
                    loaded = direct(item, context)
                except Exception:  # raised again, and made a field error, when completed
                    continue
                if isinstance(loaded, Future) and not loaded.done():
                    pending.add(loaded)
        return pending

    def complete_list_value(
        self,
        return_type: GraphQLList[Any],
        field_details_list: FieldDetailsList,
        info: GraphQLResolveInfo[Any],
        path: Path,
        result: Any,
        position_context: Any,
    ) -> AwaitableOrValue[list[Any]]:
        plan = None
        if position_context is None and type(result) is list:
            plan = self._list_plan(return_type, field_details_list)
        if plan is None or any(item is None or self.is_awaitable(item) for item in result):
            return super().complete_list_value(
                return_type, field_details_list, info, path, result, position_context
            )
        pending = self._load_relations(result, plan.relations) if len(result) > 1 else set()
        if not pending:
            return self._complete_objects(return_type, field_details_list, path, result, plan)

        async def once_loaded() -> list[Any]:
            await wait(pending)
            for loaded in pending:  # a failed load is raised again by its field
                if not loaded.cancelled():
                    loaded.exception()
            completed = self._complete_objects(return_type, field_details_list, path, result, plan)
            return completed if isinstance(completed, list) else await completed

        return once_loaded()

    def _complete_objects(
        self,
        return_type: GraphQLList[Any],
        field_details_list: FieldDetailsList,
        path: Path,
        items: list[Any],
        plan: _Items,
    ) -> AwaitableOrValue[list[Any]]:
        """graphql-core's ``complete_iterable_value`` for objects that are all there: each item's
        selection executed on it at once, its errors handled as ``complete_list_item_value``
        handles them."""
        item_type = return_type.of_type
        object_type, grouped_field_set = plan.object_type, plan.grouped_field_set
        execute_fields = self.execute_fields
        completed: list[Any] = []
        awaitable_indices: list[int] = []
        try:
            for index, item in enumerate(items):
                item_path = Path(path, index, None)
                try:
                    value = execute_fields(object_type, item, item_path, grouped_field_set, None)
                except Exception as error:
                    self.handle_field_error(error, item_type, field_details_list, item_path)
                    value = None
                else:
                    if not isinstance(value, dict):  # a coroutine: one of its fields waits
                        value = self._item_awaited(value, item_type, field_details_list, item_path)
                        awaitable_indices.append(index)
                completed.append(value)
        except Exception:
            if awaitable_indices:
                self.settle_in_background([completed[index] for index in awaitable_indices])
            raise
        if not awaitable_indices:
            return completed

        async def get_completed_results() -> list[Any]:
            if len(awaitable_indices) == 1:
                index = awaitable_indices[0]
                completed[index] = await completed[index]
            else:
                awaited = await gather_with_cancel(*(completed[i] for i in awaitable_indices))
                for index, value in zip(awaitable_indices, awaited, strict=True):
                    completed[index] = value
            return completed

        return get_completed_results()

    async def _item_awaited(
        self,
        value: Any,
        item_type: Any,
        field_details_list: FieldDetailsList,
        item_path: Path,
    ) -> Any:
        try:
            return await value
        except Exception as error:
            self.handle_field_error(error, item_type, field_details_list, item_path)
            return None
