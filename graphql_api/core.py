"""Strawberry and graphql-core internals we cannot avoid, in one place: the graphql-core schema,
the validation rules, and the executor that reads plain attributes without a resolver call.

Strawberry builds a graphql-core ``GraphQLSchema`` and executes every operation against it, but
offers no public accessor for it: it is ``Schema._schema`` (Strawberry's own ``ValidationCache``
extension reads the same attribute). ``graphql_api.documents`` needs it to parse, validate and
cost a document once per query text instead of on every request, with the same rules Strawberry
validates with (graphql-core's plus two of Strawberry's own, from an undocumented module). This
module is the only place that reads either; ``tests/unit/test_strawberry_adapter.py`` fails on an
upgrade that renames them, executes against another schema object or changes Strawberry's rules.

:class:`PlainFieldsExecutor` is the graphql-core executor Strawberry runs operations with (its
public ``execution_context_class`` option), with one shortcut; see there.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import strawberry
from graphql import (
    ASTValidationRule,
    GraphQLLeafType,
    GraphQLObjectType,
    GraphQLSchema,
    Undefined,
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


class _Attribute(NamedTuple):
    """How to complete a plain attribute field: read ``name``, coerce with ``coerce``."""

    name: str
    coerce: Any
    non_null: bool


class PlainFieldsExecutor(StrawberryGraphQLCoreExecutionContext):
    """Strawberry's executor, completing plain attribute fields of a leaf type directly.

    graphql-core executes every field alike: a resolve info (a 15-member tuple), Strawberry's
    resolver wrapper around ``getattr``, then ``complete_value``'s type dispatch. A page of 25
    tickets with their orders is about 250 such fields that only read an attribute of a record
    and coerce it (``id``, ``status``, ``total``, ...). For a field Strawberry itself marks as
    basic (no resolver, no field extension, its default ``getattr`` resolver) whose type is a
    scalar or enum and that takes no arguments, this executor reads the attribute and coerces
    it with the field type's own ``coerce_output_value``, as graphql-core would. Anything else,
    and any value that is missing, refused or raises (so that its error is made, located and
    nulled exactly as before), goes the ordinary way. Schema middleware (an extension with a
    ``resolve`` hook) turns the shortcut off, so every field still reaches it."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        middleware = self.middleware_manager
        self._shortcut = not (middleware is not None and middleware.middlewares)
        self._attributes: dict[
            tuple[GraphQLObjectType, int], tuple[FieldDetailsList, _Attribute | None]
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
