"""Strawberry internals we cannot avoid, in one place: the graphql-core schema and validation rules.

Strawberry builds a graphql-core ``GraphQLSchema`` and executes every operation against it, but
offers no public accessor for it: it is ``Schema._schema`` (Strawberry's own ``ValidationCache``
extension reads the same attribute). ``graphql_api.documents`` needs it to parse, validate and
cost a document once per query text instead of on every request, with the same rules Strawberry
validates with (graphql-core's plus two of Strawberry's own, from an undocumented module). This
module is the only place that reads either; ``tests/unit/test_strawberry_adapter.py`` fails on an
upgrade that renames them, executes against another schema object or changes Strawberry's rules.
"""

from __future__ import annotations

import strawberry
from graphql import ASTValidationRule, GraphQLSchema


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
