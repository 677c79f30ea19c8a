"""The private Strawberry attribute read by ``graphql_api.core`` still means what we rely on."""

from __future__ import annotations

import enum
import uuid
from decimal import Decimal
from typing import Any

import pytest
import strawberry
from graphql import GraphQLResolveInfo, GraphQLSchema
from strawberry.extensions import SchemaExtension

from graphql_api.core import (
    DIRECT_RESOLVER,
    DirectResolver,
    PlainFieldsExecutor,
    core_schema,
    install_direct_resolvers,
    strawberry_validation_rules,
)


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


@strawberry.enum
class Colour(enum.Enum):
    RED = "red"


@strawberry.type
class Item:
    id: strawberry.ID
    count: int
    price: float
    colour: Colour
    note: str | None
    required: str
    tags: list[str]
    flag: bool = True

    @strawberry.field
    def doubled(self) -> int:
        return self.count * 2


@strawberry.type
class ItemsQuery:
    @strawberry.field
    def items(self) -> list[Item | None]:
        return [
            _item(uuid.UUID(int=1), 1, Decimal("2.50"), Colour.RED, None, "x", ["a"]),
            _item("2", "not a number", 1.0, Colour.RED, "n", "y", [], 1),
            _item("3", 3, 1.0, "not a colour", "n", "y", []),
            _item("4", 4, 1.0, Colour.RED, "n", None, [], False),
        ]

    @strawberry.field
    def strict_items(self) -> list[Item]:
        return self.items()  # type: ignore[return-value]


def _item(*values: Any) -> Any:
    """A source object for ``Item`` (its resolver reads ``self.count``)."""
    names = ("id", "count", "price", "colour", "note", "required", "tags", "flag")
    return Item(**dict(zip(names, values, strict=False)))


ITEMS = "{ items { id count price colour note required tags flag doubled } }"


def _answer(schema: strawberry.Schema, query: str = ITEMS) -> tuple[Any, list[tuple[str, Any]]]:
    result = schema.execute_sync(query)
    return result.data, sorted((e.message, e.path) for e in result.errors or [])


def test_plain_attributes_complete_as_graphql_core_completes_them() -> None:
    """The executor's shortcut for plain attribute fields answers what graphql-core answers:
    the same values, and the same errors at the same paths for a null in a non-null field or a
    value the scalar refuses."""
    plain = strawberry.Schema(query=ItemsQuery, execution_context_class=PlainFieldsExecutor)
    ordinary = strawberry.Schema(query=ItemsQuery)
    assert _answer(plain) == _answer(ordinary)
    strict = ITEMS.replace("items", "strictItems")
    assert _answer(plain, strict) == _answer(ordinary, strict)
    assert _answer(plain, strict)[0] is None  # a non-null item's error nulls the whole list
    data, errors = _answer(plain)
    assert data == {
        "items": [
            {
                "id": "00000000-0000-0000-0000-000000000001",
                "count": 1,
                "price": 2.5,
                "colour": "RED",
                "note": None,
                "required": "x",
                "tags": ["a"],
                "flag": True,
                "doubled": 2,
            },
            None,
            None,
            None,
        ]
    }
    assert [(message.split(":")[0], path) for message, path in errors] == [
        ("Cannot return null for non-nullable field Item.required.", ["items", 3, "required"]),
        ("Enum 'Colour' cannot represent value", ["items", 2, "colour"]),
        ("Int cannot represent non-integer value", ["items", 1, "count"]),
    ]


def test_the_shortcut_reads_plain_attributes_without_a_resolver_call() -> None:
    """Only fields with a resolver of their own, or of a type that is not a scalar or enum, get a
    resolve info and a resolver call; schema middleware (a ``resolve`` hook) turns the shortcut
    off, so that it sees every field."""
    fields = ["id", "count", "price", "colour", "note", "required", "tags", "doubled"]
    query = "{ items { " + " ".join(fields) + " } }"

    @strawberry.type
    class OneQuery:
        @strawberry.field
        def items(self) -> list[Item]:
            return [_item("1", 1, 1.0, Colour.RED, None, "x", [])]

    informed: list[str] = []

    class Counting(PlainFieldsExecutor):
        def build_resolve_info(self, field: Any, nodes: Any, *args: Any) -> Any:
            informed.append(nodes[0].name.value)
            return super().build_resolve_info(field, nodes, *args)

    shortcut = strawberry.Schema(query=OneQuery, execution_context_class=Counting)
    assert shortcut.execute_sync(query).errors is None
    assert informed == ["items", "tags", "doubled"]

    resolved: list[str] = []

    class SeeEveryField(SchemaExtension):
        def resolve(self, _next: Any, root: Any, info: GraphQLResolveInfo, **kwargs: Any) -> Any:
            resolved.append(info.field_name)
            return _next(root, info, **kwargs)

    middleware = strawberry.Schema(
        query=OneQuery, execution_context_class=PlainFieldsExecutor, extensions=[SeeEveryField]
    )
    assert middleware.execute_sync(query).errors is None
    assert resolved == ["items", *fields]


def test_the_application_schema_executes_with_the_plain_fields_executor() -> None:
    from graphql_api.schema import schema

    assert schema.execution_context_class is PlainFieldsExecutor


@strawberry.type
class Owner:
    name: str


def _owner_of(source: Any, context: dict[str, Any]) -> Any:
    """A direct resolver as ``graphql_api.scopes.relation`` makes them: asks the loader, and
    answers from it when the record is loaded already."""
    loaded = context["owners"].load(source.owner_id)
    return loaded.result() if loaded.done() else loaded


@strawberry.type
class Pet:
    name: str
    owner_id: strawberry.Private[int]

    @strawberry.field(metadata={DIRECT_RESOLVER: _owner_of})
    def owner(self, info: strawberry.Info) -> Owner | None:
        return _owner_of(self, info.context)  # type: ignore[no-any-return]


@strawberry.type
class PetsQuery:
    @strawberry.field
    def pets(self) -> list[Pet]:
        owners = [("a", 1), ("b", 2), ("c", 1), ("d", 3)]
        return [Pet(name=name, owner_id=owner) for name, owner in owners]


async def _pets(schema: strawberry.Schema) -> tuple[Any, list[Any], list[list[int]]]:
    from strawberry.dataloader import DataLoader

    batches: list[list[int]] = []

    async def load(ids: list[int]) -> list[Any]:
        batches.append(ids)
        known = {1: Owner(name="Ann"), 3: Owner(name=None)}  # type: ignore[arg-type]
        return [known.get(i, LookupError(f"no owner {i}")) for i in ids]

    context = {"owners": DataLoader(load_fn=load)}
    result = await schema.execute("{ pets { name owner { name } } }", context_value=context)
    return result.data, [(e.message, e.path) for e in result.errors or []], batches


async def test_a_list_loads_its_items_relations_at_once_and_answers_as_before() -> None:
    """With direct resolvers installed, a list asks the relations of all its items before
    completing them: one batch as before, the same data, and each failed load or refused value
    an error at its own item's field; the items then complete without waiting (no coroutine per
    item)."""
    waited: list[str] = []

    class Counting(PlainFieldsExecutor):
        async def complete_awaitable_value(self, *args: Any) -> Any:
            waited.append(args[3].key)
            return await super().complete_awaitable_value(*args)

    ordinary = strawberry.Schema(query=PetsQuery)
    direct = strawberry.Schema(query=PetsQuery, execution_context_class=Counting)
    install_direct_resolvers(direct)
    assert isinstance(core_schema(direct).get_type("Pet").fields["owner"].resolve, DirectResolver)  # type: ignore[union-attr]
    expected = await _pets(ordinary)
    assert await _pets(direct) == expected
    data, errors, batches = expected
    assert data == {
        "pets": [
            {"name": "a", "owner": {"name": "Ann"}},
            {"name": "b", "owner": None},
            {"name": "c", "owner": {"name": "Ann"}},
            {"name": "d", "owner": None},
        ]
    }
    assert errors == [
        ("no owner 2", ["pets", 1, "owner"]),
        ("Cannot return null for non-nullable field Owner.name.", ["pets", 3, "owner", "name"]),
    ]
    assert batches == [[1, 2, 3]]
    assert waited == []


async def test_a_list_whose_relations_are_loaded_asks_each_once_and_answers_as_before() -> None:
    """When every item's relation answers at once (its record loaded already, or its load
    failed already), the items complete with what the list was answered: each relation is asked
    once, and the data and errors are those of the ordinary way."""
    from strawberry.dataloader import DataLoader

    asked: list[int] = []

    def owner_of(source: Any, context: dict[str, Any]) -> Any:
        asked.append(source.owner_id)
        return _owner_of(source, context)

    async def pets(schema: strawberry.Schema) -> tuple[Any, list[Any]]:
        async def load(ids: list[int]) -> list[Any]:
            raise AssertionError(f"{ids} were primed")

        owners: DataLoader[int, Any] = DataLoader(load_fn=load)
        owners.prime_many({1: Owner(name="Ann"), 3: Owner(name=None)})  # type: ignore[arg-type]
        owners.prime(2, LookupError("no owner 2"))
        result = await schema.execute(
            "{ pets { name owner { name } } }", context_value={"owners": owners}
        )
        return result.data, [(e.message, e.path) for e in result.errors or []]

    ordinary = strawberry.Schema(query=PetsQuery)
    direct = strawberry.Schema(query=PetsQuery, execution_context_class=PlainFieldsExecutor)
    install_direct_resolvers(direct)
    owner = core_schema(direct).get_type("Pet").fields["owner"]  # type: ignore[union-attr]
    owner.resolve = DirectResolver(owner_of)
    assert await pets(direct) == await pets(ordinary)
    # The failed load raises when asked, so the item's field asks again and makes the error.
    assert sorted(asked) == [1, 1, 2, 2, 3]


def _shelf(source: Any, context: dict[str, Any], *, first_word: str, count: int | None) -> Any:
    """A direct resolver with arguments: they arrive under their Python names."""
    if count is not None and count < 0:
        raise ValueError("count must not be negative")
    words = [w for w in context["words"] if w.startswith(first_word)]
    return [Owner(name=w) for w in words[: count if count is not None else None]]


@strawberry.type
class ShelfQuery:
    @strawberry.field(metadata={DIRECT_RESOLVER: _shelf})
    def shelf(
        self, info: strawberry.Info, first_word: str, count: int | None = None
    ) -> list[Owner]:
        return _shelf(self, info.context, first_word=first_word, count=count)  # type: ignore[no-any-return]


async def test_a_direct_resolver_takes_scalar_arguments_by_their_python_names() -> None:
    """graphql-core hands a direct resolver the arguments it coerced, renamed from their GraphQL
    names (camelCase) to the resolver's; answers and errors are those of Strawberry's own path."""
    ordinary = strawberry.Schema(query=ShelfQuery)
    direct = strawberry.Schema(query=ShelfQuery, execution_context_class=PlainFieldsExecutor)
    install_direct_resolvers(direct)
    resolve = core_schema(direct).get_type("ShelfQuery").fields["shelf"].resolve  # type: ignore[union-attr]
    assert isinstance(resolve, DirectResolver)
    context = {"words": ["apple", "avocado", "banana", "apricot"]}
    for query, variables in [
        ('{ shelf(firstWord: "a") { name } }', None),
        ('{ shelf(firstWord: "a", count: 2) { name } }', None),
        ('query Q($n: Int) { shelf(firstWord: "b", count: $n) { name } }', {"n": 1}),
        ('{ shelf(firstWord: "a", count: -1) { name } }', None),
    ]:
        answers = []
        for schema in (ordinary, direct):
            result = await schema.execute(query, variable_values=variables, context_value=context)
            answers.append((result.data, [(e.message, e.path) for e in result.errors or []]))
        assert answers[0] == answers[1], query
    assert answers[1] == (None, [("count must not be negative", ["shelf"])])


@strawberry.input
class ShelfFilter:
    word: str


def _filtered_shelf(source: Any, context: Any, **arguments: Any) -> Any:
    return []


@strawberry.type
class FilteredShelfQuery:
    @strawberry.field(metadata={DIRECT_RESOLVER: _filtered_shelf})
    def shelf(self, where: ShelfFilter) -> list[Owner]:
        return []


def test_a_direct_resolver_refuses_arguments_that_strawberry_would_convert() -> None:
    with pytest.raises(TypeError, match="scalar arguments only"):
        install_direct_resolvers(strawberry.Schema(query=FilteredShelfQuery))


def _owner_named(source: Any, context: Any, *, name: str, late: bool | None = None) -> Any:
    """A direct resolver with arguments answering an object, at once or later, or failing."""
    if name == "raise":
        raise ValueError("no such name")
    answer: Any = {
        "none": None,
        "error": LookupError("answered an error"),
        "null-name": Owner(name=None),  # type: ignore[arg-type]
    }.get(name, Owner(name=name))
    if not late:
        return answer

    async def later() -> Any:
        if name == "raise-later":
            raise ValueError("failed later")
        return answer

    return later()


@strawberry.type
class OwnerQuery:
    @strawberry.field(metadata={DIRECT_RESOLVER: _owner_named})
    def owner(self, info: strawberry.Info, name: str, late: bool | None = None) -> Owner | None:
        return _owner_named(self, info.context, name=name, late=late)


async def test_an_object_from_a_direct_resolver_with_arguments_completes_as_before() -> None:
    """The executor completes such a field itself, awaiting it if need be: the same data and
    the same errors at the same paths as Strawberry's own execution."""
    ordinary = strawberry.Schema(query=OwnerQuery)
    direct = strawberry.Schema(query=OwnerQuery, execution_context_class=PlainFieldsExecutor)
    install_direct_resolvers(direct)
    names = ["ann", "none", "error", "null-name", "raise", "raise-later"]
    fields = " ".join(
        f'{alias}{n}: owner(name: "{name}", late: {"true" if n else "false"}) {{ name }}'
        for n in (0, 1)
        for alias, name in ((f"a{i}_", name) for i, name in enumerate(names))
    )
    query = f"query Q($n: String!) {{ {fields} v: owner(name: $n, late: true) {{ name }} }}"
    answers = []
    for schema in (ordinary, direct):
        result = await schema.execute(query, variable_values={"n": "bo"}, root_value=OwnerQuery())
        answers.append((result.data, sorted((e.message, e.path) for e in result.errors or [])))
    assert answers[0] == answers[1]
    data, errors = answers[1]
    assert data is not None and data["a0_1"] == {"name": "ann"} and data["v"] == {"name": "bo"}
    assert data["a1_0"] is None and data["a2_1"] is None and data["a3_1"] is None
    assert len(errors) == 7


async def test_an_operation_s_executor_goes_with_its_last_reference() -> None:
    """The executor's async helpers hold it weakly: once its operation is answered, the
    executor, with its memo and plans, goes by reference counting, not with the cyclic
    collector; its resolvers can still gather and track through the helpers meanwhile."""
    import asyncio
    import gc
    import weakref

    executors: list[weakref.ref[PlainFieldsExecutor]] = []
    tracked: list[int] = []

    class Remembered(PlainFieldsExecutor):
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            executors.append(weakref.ref(self))

    async def later(value: int) -> int:
        await asyncio.sleep(0)
        tracked.append(value)
        return value

    class Gathering(SchemaExtension):
        """Gathers through graphql-core's resolve info, as a resolver may."""

        async def resolve(
            self, _next: Any, root: Any, info: GraphQLResolveInfo, **kwargs: Any
        ) -> Any:
            info.async_helpers.track([later(0)])
            values = await info.async_helpers.gather([later(1), later(2)])
            return sum(values) if info.field_name == "probe" else _next(root, info, **kwargs)

    @strawberry.type
    class Query:
        probe: int = 0

    schema = strawberry.Schema(
        query=Query, extensions=[Gathering], execution_context_class=Remembered
    )
    gc.disable()
    try:
        result = await schema.execute("{ probe }", root_value=Query())
        assert result.data == {"probe": 3}
        assert sorted(tracked) == [0, 1, 2]
        assert len(executors) == 1 and executors[0]() is None
    finally:
        gc.enable()
