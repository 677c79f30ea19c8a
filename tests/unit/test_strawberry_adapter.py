"""The private Strawberry attribute read by ``graphql_api.core`` still means what we rely on."""

from __future__ import annotations

from typing import Any

import pytest
import strawberry
from graphql import GraphQLResolveInfo, GraphQLSchema
from strawberry.extensions import SchemaExtension

from graphql_api.core import core_schema, strawberry_validation_rules


def test_the_core_schema_is_the_one_strawberry_executes_against() -> None:
    seen: list[GraphQLSchema] = []

    class RecordSchema(SchemaExtension):
        """A resolver middleware sees graphql-core's own resolve info, and so its schema."""

        def resolve(self, _next: Any, root: Any, info: GraphQLResolveInfo, **kwargs: Any) -> Any:
            seen.append(info.schema)
            return _next(root, info, **kwargs)

    @strawberry.type
    class Query:
        probe: int = 1

    schema = strawberry.Schema(query=Query, extensions=[RecordSchema])
    core = core_schema(schema)
    assert isinstance(core, GraphQLSchema)
    assert schema.execute_sync("{ probe }", root_value=Query()).data == {"probe": 1}
    assert seen and all(s is core for s in seen)


def test_the_application_schema_exposes_its_core_schema() -> None:
    from graphql_api.schema import schema

    core = core_schema(schema)
    assert core.query_type is not None and core.query_type.name == "Query"
    assert "event" in core.query_type.fields


def test_strawberry_validates_with_graphql_core_s_rules_and_the_ones_we_add(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """If Strawberry changes the rules it validates with, graphql_api.documents must follow."""
    import strawberry.schema.schema as strawberry_schema
    from graphql import parse

    from graphql_api.schema import schema

    used: list[tuple[Any, ...]] = []

    def spy(_schema: Any, _document: Any, rules: Any, *args: Any, **kwargs: Any) -> list[Any]:
        used.append(tuple(rules))
        return []

    monkeypatch.setattr(strawberry_schema, "validate", spy)
    strawberry_schema.validate_document(core_schema(schema), parse("{ viewer { email } }"), ())
    assert used == [strawberry_validation_rules()]
