"""Every REST route and every GraphQL field enforces the scope its service operation declares.

The scope of an operation is written once, on the service (``app.principal.requires`` or a
``Resource``). These tests walk the whole surface, so that a route or field added later is
covered without being listed: each one names its service, is refused with exactly that scope by
a key holding every other scope, and the service itself refuses such a caller too.
"""

from __future__ import annotations

import uuid
from typing import Any

from httpx import AsyncClient
from litestar.handlers import HTTPRouteHandler
from strawberry.types.base import StrawberryObjectDefinition

from app.errors import Forbidden
from app.principal import SCOPES, Principal, scope_of
from app.resources import Resource
from app.settings import get_settings
from graphql_api.core import core_schema
from graphql_api.errors import coded
from graphql_api.schema import schema
from graphql_api.scopes import SERVICE_METADATA, RequireScope
from rest.auth import PUBLIC_PATHS, SCOPE_OPT, SERVICE_OPT
from rest.http import before_route
from tests.dates import YEAR
from tests.support import Tenant, create_venue, graphql, key_for, ok, place_order, problem
from ticketing.application import create_app

UNKNOWN = str(uuid.uuid4())


def _authenticated_handlers() -> list[tuple[str, str, HTTPRouteHandler]]:
    """(method, path, handler) of every REST route that takes a bearer credential."""
    import re

    found = []
    for route in create_app(get_settings()).routes:
        if any(re.match(pattern, route.path) for pattern in PUBLIC_PATHS) or route.path.startswith(
            "/graphql"
        ):
            continue
        for handler in getattr(route, "route_handlers", []):
            if isinstance(handler, HTTPRouteHandler):
                for method in sorted(handler.http_methods - {"OPTIONS", "HEAD"}):
                    found.append((method, route.path, handler))
    return found


def _concrete(path: str) -> str:
    """A path whose parameters are all some unknown id."""
    import re

    return re.sub(r"\{[^}]+\}", UNKNOWN, path)


def test_every_rest_route_names_its_service_and_that_services_scope() -> None:
    handlers = _authenticated_handlers()
    assert len(handlers) >= 25
    for method, path, handler in handlers:
        service = handler.opt.get(SERVICE_OPT)
        assert service is not None, f"{method} {path} does not declare its service operation"
        assert handler.opt.get(SCOPE_OPT) == scope_of(service), f"{method} {path}"


def test_every_rest_route_checks_its_scope_before_reading_its_input() -> None:
    """The scope's 403 comes before a 400 for the inputs Litestar parses because the
    application's ``before_request`` checks it; a router or route declaring its own
    ``before_request`` would replace that check."""
    for method, path, handler in _authenticated_handlers():
        assert handler.resolve_before_request() is before_route, f"{method} {path}"


async def test_every_rest_route_refuses_a_key_without_its_scope(
    client: AsyncClient, tenant: Tenant
) -> None:
    checked = 0
    for method, path, handler in _authenticated_handlers():
        scope = scope_of(handler.opt[SERVICE_OPT])
        if scope is None:
            continue
        lacking = await key_for(tenant, [s for s in SCOPES if s != scope])
        response = await client.request(method, _concrete(path), json={}, headers=lacking)
        body = problem(response, 403)
        assert response.headers["www-authenticate"] == (
            f'Bearer error="insufficient_scope", scope="{scope}"'
        ), f"{method} {path}: {body}"
        checked += 1
    assert checked >= 25


async def test_each_service_refuses_a_caller_without_its_scope(tenant: Tenant) -> None:
    """The services check the declaration themselves: a transport that forgot cannot leak."""
    services = {handler.opt[SERVICE_OPT] for _, _, handler in _authenticated_handlers()}
    for service in services:
        scope = scope_of(service)
        if scope is None:
            continue
        caller = Principal(
            organization_id=tenant.org_id,
            user_id=tenant.user_id,
            scopes=frozenset(SCOPES) - {scope},
            credential="api_key",
            credential_id=tenant.key_id,
        )
        call = service.page(caller) if isinstance(service, Resource) else service(caller)
        try:
            await call
        except Forbidden as refused:
            assert refused.scope == scope
        else:
            raise AssertionError(f"{service} ran without {scope}")


def _graphql_fields() -> list[tuple[str, str, Any]]:
    """(type name, field name, StrawberryField) of every field of the schema's object types."""
    found = []
    for graphql_type in schema.schema_converter.type_map.values():
        definition = graphql_type.definition
        if not isinstance(definition, StrawberryObjectDefinition) or definition.is_input:
            continue
        for field in definition.fields:
            found.append((definition.name, schema.config.name_converter.from_field(field), field))
    return found


def test_every_graphql_resolver_names_its_service_and_checks_that_scope() -> None:
    """A field with a resolver of its own declares the service it calls, and its scope check is
    that service's declaration; plain record attributes need none (their parent was checked)."""
    declared = 0
    for type_name, field_name, field in _graphql_fields():
        service = (field.metadata or {}).get(SERVICE_METADATA)
        if field.base_resolver is None:
            assert service is None, f"{type_name}.{field_name}"
            continue
        assert service is not None, f"{type_name}.{field_name} does not declare its service"
        checks = [e for e in field.extensions if isinstance(e, RequireScope)]
        assert [c.scope for c in checks] == [scope_of(service)], f"{type_name}.{field_name}"
        declared += 1
    assert declared >= 40


# How a query reaches an object of each type (``$event``, ... are the test's rows); a field of a
# type missing here cannot be checked live, and the test says so.
REACH: dict[str, str] = {
    "Query": "{}",
    "Mutation": "{}",
    "Event": 'event(id: "$event") {}',
    "Order": 'order(id: "$order") {}',
    "Ticket": 'ticket(id: "$ticket") {}',
    "TicketType": 'ticketTypes(eventId: "$event") { items {} }',
    "Timeslot": 'timeslots(eventId: "$event") { items {} }',
    "Scanner": "scanners { items {} }",
    "Webhook": "webhooks { items {} }",
}


def _value(graphql_type: Any) -> str:
    """A literal of ``graphql_type`` good enough to pass validation."""
    from graphql import (
        GraphQLInputObjectType,
        GraphQLList,
        GraphQLNonNull,
        GraphQLScalarType,
    )

    if isinstance(graphql_type, GraphQLNonNull):
        return _value(graphql_type.of_type)
    if isinstance(graphql_type, GraphQLList):
        return f"[{_value(graphql_type.of_type)}]"
    if isinstance(graphql_type, GraphQLInputObjectType):
        required = [
            f"{name}: {_value(field.type)}"
            for name, field in graphql_type.fields.items()
            if isinstance(field.type, GraphQLNonNull)
        ]
        return "{" + ", ".join(required) + "}"
    assert isinstance(graphql_type, GraphQLScalarType)
    return {
        "ID": f'"{UNKNOWN}"',
        "String": '"x"',
        "Int": "1",
        "Float": "1.0",
        "Boolean": "true",
        "DateTime": f'"{YEAR}-01-01T00:00:00Z"',
        "JSON": "{}",
    }[graphql_type.name]


def _selection(type_name: str, field_name: str) -> str:
    """The field with its required arguments and, for an object, one attribute selected."""
    graphql_type = core_schema(schema).get_type(type_name)
    field = graphql_type.fields[field_name]
    arguments = ", ".join(
        f"{name}: {_value(argument.type)}"
        for name, argument in field.args.items()
        if "NonNull" in type(argument.type).__name__
    )
    call = f"{field_name}({arguments})" if arguments else field_name
    from graphql import get_named_type

    result = get_named_type(field.type)
    if hasattr(result, "fields"):
        leaf = "pagination { total }" if "pagination" in result.fields else "__typename"
        return f"{call} {{ {leaf} }}"
    return call


async def _subscription_refusal(tenant: Tenant, scope: str, selection: str) -> set[Any]:
    """The error codes a subscription answers to a caller lacking ``scope`` (run in-process on
    the schema: the transport, ``rest.subscriptions``, is tested in
    tests/graphql/test_subscriptions.py)."""
    from graphql_api.context import Context

    caller = Principal(
        organization_id=tenant.org_id,
        user_id=tenant.user_id,
        scopes=frozenset(SCOPES) - {scope},
        credential="api_key",
        credential_id=tenant.key_id,
    )
    context = Context(principal=caller, settings=get_settings())
    stream = await schema.subscribe(f"subscription {{ {selection} }}", context_value=context)
    assert not hasattr(stream, "errors"), stream
    result = await anext(stream)  # type: ignore[arg-type]
    await stream.aclose()  # type: ignore[union-attr]
    return {(e.extensions["code"], e.extensions.get("scope")) for e in map(coded, result.errors)}


async def test_every_graphql_field_refuses_a_key_without_its_scope(
    client: AsyncClient, tenant: Tenant
) -> None:
    venue = await create_venue(client, tenant)
    order = await place_order(
        client, tenant, venue.event["id"], venue.timeslot["id"], [venue.ticket_type["id"]]
    )
    ticket = ok(await client.get(f"/events/{venue.event['id']}/tickets", headers=tenant.headers))[
        "data"
    ][0]
    ids = {"$event": venue.event["id"], "$order": order["id"], "$ticket": ticket["id"]}
    ok(await client.post("/scanners", json={"name": "Door"}, headers=tenant.headers), 201)

    checked, unreachable = 0, []
    for type_name, field_name, field in _graphql_fields():
        service = (field.metadata or {}).get(SERVICE_METADATA)
        scope = None if service is None else scope_of(service)
        if scope is None:
            continue
        if type_name == "Subscription":
            codes = await _subscription_refusal(tenant, scope, _selection(type_name, field_name))
            assert codes == {("FORBIDDEN", scope)}, f"{type_name}.{field_name}: {codes}"
            checked += 1
            continue
        if type_name not in REACH:
            unreachable.append(f"{type_name}.{field_name}")
            continue
        path = REACH[type_name]
        for name, value in ids.items():
            path = path.replace(name, value)
        operation = "mutation" if type_name == "Mutation" else "query"
        selection = _selection(type_name, field_name)
        reached = path.replace("{}", "{ " + selection + " }") if path != "{}" else selection
        document = f"{operation} {{ {reached} }}"
        lacking = await key_for(tenant, [s for s in SCOPES if s != scope])
        body = await graphql(client, lacking, document)
        codes = {(e["extensions"]["code"], e["extensions"].get("scope")) for e in body["errors"]}
        assert codes == {("FORBIDDEN", scope)}, f"{type_name}.{field_name}: {body}"
        checked += 1
    assert not unreachable, f"add these types to REACH: {unreachable}"
    assert checked >= 40
