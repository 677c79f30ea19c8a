"""Test mode (CONTRACT.md section 18): test and live data of one organization never meet.

The walk is derived from the route table and the GraphQL schema (as the scope tests are), so a
route or field added later is walked without being listed here. Both modes get the same kinds of
rows; then every REST route and every GraphQL field is called with a key of one mode: reads with
that mode's ids answer without a single id of the other mode, and any route or field given the
other mode's ids answers 404 (NOT_FOUND) exactly as for ids that exist nowhere.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

import pytest
from graphql import GraphQLList, GraphQLNonNull, GraphQLObjectType, get_named_type
from httpx import AsyncClient

from graphql_api.core import core_schema
from graphql_api.schema import schema
from tests.api.test_scope_declarations import _authenticated_handlers
from tests.dates import YEAR
from tests.support import Tenant, create_venue, graphql, ok, place_order
from tests.testmode.support import in_test_mode

PARAMETER = re.compile(r"\{(\w+)(?::\w+)?\}")
KIND_OF_PARAMETER = {
    "event_id": "event",
    "ticket_type_id": "ticket_type",
    "timeslot_id": "timeslot",
    "order_id": "order",
    "ticket_id": "ticket",
    "scanner_id": "scanner",
    "profile_id": "profile",
    "webhook_id": "webhook",
    "delivery_id": "delivery",
    "hold_id": "hold",
    "kid": "scan_key",
}
"""The row each path parameter names (a new parameter fails the walk until it is added)."""
BODIES: dict[tuple[str, str], dict[str, Any]] = {
    ("PATCH", "/events/{event_id:str}"): {"title": "Moved"},
    ("POST", "/events/{event_id:str}/ticket_types"): {"name": "Extra", "price": 1},
    ("POST", "/events/{event_id:str}/timeslots"): {
        "title": "Late",
        "starts_at": f"{YEAR}-06-02T18:00:00Z",
        "ends_at": f"{YEAR}-06-02T23:00:00Z",
        "total_available": 5,
    },
    ("PATCH", "/events/{event_id:str}/ticket_types/{ticket_type_id:str}"): {"name": "Renamed"},
    ("PATCH", "/events/{event_id:str}/timeslots/{timeslot_id:str}"): {"title": "Renamed"},
    ("POST", "/orders/{order_id:str}/refund"): {"amount": 1},
    ("PATCH", "/scanners/{scanner_id:str}"): {"name": "Renamed"},
    ("PATCH", "/scanner_profiles/{profile_id:str}"): {"name": "Renamed"},
    ("PATCH", "/webhooks/{webhook_id:str}"): {"description": "Renamed"},
}
"""A body that would succeed for the owner, where the route needs one."""


@dataclass(frozen=True)
class World:
    """One mode's key and the ids of its rows, by kind."""

    headers: dict[str, str]
    ids: dict[str, str]


async def populate(client: AsyncClient, owner: Tenant) -> World:
    """Every kind of row the routes name, made through the API with ``owner``'s key."""
    headers = owner.headers
    venue = await create_venue(client, owner)
    order = await place_order(
        client,
        owner,
        venue.event["id"],
        venue.timeslot["id"],
        [venue.ticket_type["id"]] * 2,
        confirm=True,
    )
    tickets = ok(await client.get(f"/events/{venue.event['id']}/tickets", headers=headers))["data"]
    scanner = ok(await client.post("/scanners", json={"name": "Door"}, headers=headers), 201)
    profile = ok(
        await client.post("/scanner_profiles", json={"name": "Front"}, headers=headers), 201
    )
    ok(await client.post(f"/tickets/{tickets[0]['id']}/scan", json={}, headers=headers))
    hook = ok(
        await client.post(
            "/webhooks",
            json={"url": "https://hooks.example.com/t", "event_types": ["order.confirmed"]},
            headers=headers,
        ),
        201,
    )
    delivery = ok(await client.post(f"/webhooks/{hook['id']}/test", headers=headers), 202)
    hold = ok(
        await client.post(
            "/holds",
            json={
                "event_id": venue.event["id"],
                "event_timeslot_id": venue.timeslot["id"],
                "tickets": [{"ticket_type_id": venue.ticket_type["id"]}],
            },
            headers=headers,
        ),
        201,
    )
    keys = ok(await client.get(f"/events/{venue.event['id']}/scan-keys", headers=headers))
    return World(
        headers=headers,
        ids={
            "scan_key": keys["keys"][0]["kid"],
            "event": venue.event["id"],
            "ticket_type": venue.ticket_type["id"],
            "timeslot": venue.timeslot["id"],
            "order": order["id"],
            "ticket": tickets[0]["id"],
            "other_ticket": tickets[1]["id"],
            "other_code": tickets[1]["scannable_code"],
            "scanner": scanner["id"],
            "profile": profile["id"],
            "webhook": hook["id"],
            "delivery": delivery["delivery_id"],
            "hold": hold["id"],
        },
    )


@pytest.fixture
async def worlds(client: AsyncClient, tenant: Tenant) -> tuple[World, World]:
    """(live, test) of one organization, with the same kinds of rows."""
    live = await populate(client, tenant)
    test = await populate(client, await in_test_mode(tenant))
    return live, test


def _path(path: str, ids: dict[str, str]) -> str:
    def named(match: re.Match[str]) -> str:
        assert match.group(1) in KIND_OF_PARAMETER, f"add {match.group(1)} to KIND_OF_PARAMETER"
        return ids[KIND_OF_PARAMETER[match.group(1)]]

    return PARAMETER.sub(named, path)


def _leaks(text: str, other: World) -> list[str]:
    return [kind for kind, value in other.ids.items() if value in text]


async def test_every_rest_read_shows_only_its_modes_rows(
    client: AsyncClient, worlds: tuple[World, World]
) -> None:
    walked = 0
    for mine, other in (worlds, worlds[::-1]):
        for method, path, _ in _authenticated_handlers():
            if method != "GET":
                continue
            response = await client.get(_path(path, mine.ids), headers=mine.headers)
            assert response.status_code == 200, f"{path}: {response.text}"
            assert _leaks(response.text, other) == [], f"{path} shows the other mode's rows"
            walked += 1
    assert walked >= 2 * 14
    events = ok(await client.get("/events", headers=worlds[1].headers))["data"]
    assert [event["id"] for event in events] == [worlds[1].ids["event"]]
    whoami = [ok(await client.get("/whoami", headers=w.headers))["livemode"] for w in worlds]
    assert whoami == [True, False]


async def test_every_rest_route_answers_the_other_modes_ids_as_unknown(
    client: AsyncClient, worlds: tuple[World, World]
) -> None:
    walked = 0
    for mine, other in (worlds, worlds[::-1]):
        for method, path, _ in _authenticated_handlers():
            if not PARAMETER.search(path):
                continue
            body = BODIES.get((method, path))
            response = await client.request(
                method, _path(path, other.ids), json=body, headers=mine.headers
            )
            assert response.status_code == 404, f"{method} {path}: {response.text}"
            walked += 1
    assert walked >= 2 * 25
    # Nothing of the other mode changed on the way, and nothing of this mode counts it.
    for world in worlds:
        order = ok(await client.get(f"/orders/{world.ids['order']}", headers=world.headers))
        assert order["status"] == "confirmed"
        assert order["refunded"] in (0, "0.00", 0.0)


async def test_writes_cannot_reach_the_other_modes_rows(
    client: AsyncClient, worlds: tuple[World, World]
) -> None:
    """Bodies that name rows of the other mode (an order of a live event with a test key)."""
    live, test = worlds
    body = {
        "event_id": live.ids["event"],
        "event_timeslot_id": live.ids["timeslot"],
        "buyer_name": "Mallory",
        "buyer_email": "mallory@example.com",
        "channel": "online",
        "payment_method": "card",
        "tickets": [{"ticket_type_id": live.ids["ticket_type"]}],
    }
    assert (await client.post("/orders", json=body, headers=test.headers)).status_code == 404
    scan = await client.post(
        "/scans", json={"scannable_code": live.ids["other_code"]}, headers=test.headers
    )
    assert scan.status_code in (200, 404)
    assert scan.status_code == 404 or scan.json()["status"] == "not_found", scan.text
    ticket = ok(await client.get(f"/tickets/{live.ids['other_ticket']}", headers=live.headers))
    assert ticket["status"] == "valid"


def _selection(field_type: Any) -> str:
    """What to select of a field's result: ids, so that a row of the other mode would show."""
    named = get_named_type(field_type)
    if not isinstance(named, GraphQLObjectType):
        return ""
    if "items" in named.fields:
        return "{ items { " + _selection(named.fields["items"].type).strip("{} ") + " } }"
    if "id" in named.fields:
        return "{ id }"
    return "{ __typename }"


def _argument_kind(field_name: str, argument: str) -> str | None:
    """The row an ID argument names: ``eventId`` an event, ``id`` the field's own kind."""
    return _kind_of_id(field_name) if argument == "id" else ID_FIELDS.get(argument)


def _call(field_name: str, field: Any, ids: dict[str, str]) -> str | None:
    """The field called with ``ids`` for its required ID arguments; None when it needs others."""
    arguments = []
    for name, argument in field.args.items():
        if not isinstance(argument.type, GraphQLNonNull):
            continue
        kind = _argument_kind(field_name, name)
        if get_named_type(argument.type).name != "ID" or kind is None:
            return None
        arguments.append(f'{name}: "{ids[kind]}"')
    return f"{field_name}({', '.join(arguments)})" if arguments else field_name


REACH = {
    "Event": "event",
    "Order": "order",
    "Ticket": "ticket",
    "Webhook": "webhook",
}
"""Object types reached through a query field of the same kind (their fields are walked too)."""


async def test_every_graphql_field_shows_only_its_modes_rows(
    client: AsyncClient, worlds: tuple[World, World]
) -> None:
    core = core_schema(schema)
    query = core.query_type
    assert query is not None
    walked, not_found = 0, 0
    for mine, other in (worlds, worlds[::-1]):
        for name, field in query.fields.items():
            own = _call(name, field, mine.ids)
            assert own is not None, f"Query.{name}: teach _argument_kind its arguments"
            body = await graphql(client, mine.headers, f"{{ {own} {_selection(field.type)} }}")
            assert "errors" not in body, f"Query.{name}: {body}"
            assert _leaks(str(body), other) == [], f"Query.{name} shows the other mode's rows"
            walked += 1
            foreign = _call(name, field, other.ids)
            if foreign != own:
                body = await graphql(
                    client, mine.headers, f"{{ {foreign} {_selection(field.type)} }}"
                )
                codes = {e["extensions"]["code"] for e in body.get("errors", [])}
                assert codes == {"NOT_FOUND"} or body["data"][name] is None, f"{name}: {body}"
                not_found += 1
        for type_name, root in REACH.items():
            object_type = core.get_type(type_name)
            assert isinstance(object_type, GraphQLObjectType)
            for name, field in object_type.fields.items():
                if isinstance(get_named_type(field.type), GraphQLObjectType) or isinstance(
                    field.type, GraphQLList
                ):
                    inner = _call(name, field, mine.ids) or name
                    document = (
                        f'{{ {root}(id: "{mine.ids[root]}") '
                        f"{{ {inner} {_selection(field.type)} }} }}"
                    )
                    body = await graphql(client, mine.headers, document)
                    assert "errors" not in body, f"{type_name}.{name}: {body}"
                    assert _leaks(str(body), other) == [], f"{type_name}.{name} leaks"
                    walked += 1
    assert walked >= 2 * 12 and not_found >= 2 * 6


ID_FIELDS = {
    "eventId": "event",
    "eventTimeslotId": "timeslot",
    "timeslotId": "timeslot",
    "ticketTypeId": "ticket_type",
    "orderId": "order",
    "ticketId": "ticket",
    "scannerId": "scanner",
    "profileId": "profile",
    "webhookId": "webhook",
    "deliveryId": "delivery",
    "holdId": "hold",
}
"""The row an ID argument or input field names; an ``id`` names the row its mutation or input
type is about (:func:`_kind_of_id`)."""
ROW_NAMES = {
    "Webhook": "webhook",
    "Hold": "hold",
    "Event": "event",
    "Scanner": "scanner",
    "ScannerProfile": "profile",
    "TicketType": "ticket_type",
    "Timeslot": "timeslot",
    "Order": "order",
    "Ticket": "ticket",
}
PLAUSIBLE = {
    "channel": '"online"',
    "paymentMethod": '"card"',
    "buyerEmail": '"mallory@example.com"',
    "startsAt": f'"{YEAR}-06-01T18:00:00Z"',
    "endsAt": f'"{YEAR}-06-01T23:00:00Z"',
}
"""Values of required fields that pass validation, so that only the foreign id can refuse."""


def _kind_of_id(owner: str) -> str:
    """``deleteWebhook`` / ``rotateWebhookSecret`` / ``UpdateTicketTypeInput``: the row named."""
    for name in sorted(ROW_NAMES, key=len, reverse=True):
        if name in owner[0].upper() + owner[1:]:
            return ROW_NAMES[name]
    raise AssertionError(f"teach the walk which row the id of {owner} names")


def _literal(
    name: str, graphql_type: Any, owner: str, ids: dict[str, str], defaulted: bool = False
) -> str | None:
    """A literal for an argument or input field: the other mode's id for an ID, plausible values
    for the rest; None for an optional (or defaulted) field that is not an id."""
    from graphql import GraphQLInputObjectType

    required = isinstance(graphql_type, GraphQLNonNull) and not defaulted
    inner = graphql_type.of_type if required else graphql_type
    named = get_named_type(inner)
    if isinstance(inner, GraphQLList):
        if not required:
            return None
        item = _literal(name, GraphQLNonNull(get_named_type(inner)), owner, ids)
        return f"[{item}]"
    if named.name == "ID":
        kind = _kind_of_id(owner) if name == "id" else ID_FIELDS.get(name)
        if kind is None:
            assert not required, f"teach ID_FIELDS the argument {owner}.{name}"
            return None
        return f'"{ids[kind]}"'
    if not required:
        return None
    if isinstance(named, GraphQLInputObjectType):
        fields = [
            f"{field_name}: {value}"
            for field_name, field in named.fields.items()
            if (value := _literal(field_name, field.type, named.name, ids, _has_default(field)))
            is not None
        ]
        return "{" + ", ".join(fields) + "}"
    return PLAUSIBLE.get(name) or {"String": '"x"', "Int": "1", "Float": "1.0"}.get(
        named.name, "true"
    )


def _has_default(definition: Any) -> bool:
    from graphql.pyutils import Undefined

    return definition.default_value is not Undefined


async def test_every_mutation_given_the_other_modes_ids_finds_nothing(
    client: AsyncClient, worlds: tuple[World, World]
) -> None:
    core = core_schema(schema)
    mutation = core.mutation_type
    assert mutation is not None
    walked = 0
    for mine, other in (worlds, worlds[::-1]):
        for name, field in mutation.fields.items():
            arguments = {
                argument: value
                for argument, definition in field.args.items()
                if (
                    value := _literal(
                        argument, definition.type, name, other.ids, _has_default(definition)
                    )
                )
                is not None
            }
            if not any(value in str(arguments) for value in other.ids.values()):
                continue  # it names no row (createEvent, createWebhook, ...)
            call = ", ".join(f"{key}: {value}" for key, value in arguments.items())
            document = f"mutation {{ {name}({call}) {_selection(field.type)} }}"
            body = await graphql(client, mine.headers, document)
            codes = {e["extensions"]["code"] for e in body.get("errors", [])}
            if not codes:  # a scan answers every ticket, an unknown one with not_found
                assert "not_found" in str(body["data"]).lower(), f"{name}: {body}"
            elif codes == {"FORBIDDEN"}:  # a scanner elsewhere, as the contract says
                assert "does not belong to your organization" in str(body), body
            else:
                assert codes == {"NOT_FOUND"}, f"{document}: {body}"
            walked += 1
    assert walked >= 2 * 18
    for world in worlds:
        order = ok(await client.get(f"/orders/{world.ids['order']}", headers=world.headers))
        assert order["status"] == "confirmed" and float(order["refunded"]) == 0
