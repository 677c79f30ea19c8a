"""A root record with its page and its items' relations, read in one statement before the
operation executes (``graphql_api.prefetch``): the same answers, errors included, as the fields'
own loaders give, which a fragment (the prefetch plans plain fields only) falls back to."""

from __future__ import annotations

from typing import Any

from httpx import AsyncClient

from tests.statements import count_statements
from tests.support import (
    Tenant,
    Venue,
    create_venue,
    gql_data,
    gql_error_codes,
    graphql,
    key_for,
    place_order,
)

ITEMS = """
items {
  id orderId status sequence ownerName scannedAt signedCode
  order { id buyerName totalPrice status }
  ticketType { id name }
}
pagination { total limit offset hasMore nextAfter }
"""
ARGUMENTS = "$limit: Int, $offset: Int, $sort: String, $status: String"
PAGE = f"tickets(limit: $limit, offset: $offset, sort: $sort, status: $status) {{ {ITEMS} }}"
PLAIN = f"query($id: ID!, {ARGUMENTS}) {{ event(id: $id) {{ id title {PAGE} }} }}"
FRAGMENT = (
    f"query($id: ID!, {ARGUMENTS}) {{ event(id: $id) {{ id title ...P }} }} "
    f"fragment P on Event {{ {PAGE} }}"
)


async def _answers(
    client: AsyncClient, headers: dict[str, str], variables: dict[str, Any]
) -> tuple[dict[str, Any], dict[str, Any], int]:
    """The plain query's answer, the fragment's answer, and the plain query's statements (the
    errors' locations left out: the two documents differ)."""
    with count_statements() as counter:
        plain = await graphql(client, headers, PLAIN, variables)
    statements = counter.count
    fragment = await graphql(client, headers, FRAGMENT, variables)
    return _unlocated(plain), _unlocated(fragment), statements


def _unlocated(body: dict[str, Any]) -> dict[str, Any]:
    if "errors" not in body:
        return body
    errors = [{k: v for k, v in error.items() if k != "locations"} for error in body["errors"]]
    return {**body, "errors": errors}


async def _venue_with_orders(client: AsyncClient, tenant: Tenant) -> Venue:
    venue = await create_venue(client, tenant)
    for buyer in ("Ada", "Grace", "Edsger"):
        await place_order(
            client,
            tenant,
            venue.event["id"],
            venue.timeslot["id"],
            [venue.ticket_type["id"]] * 2,
            buyer_name=buyer,
            confirm=buyer == "Grace",
        )
    return venue


async def test_the_page_under_an_event_is_one_statement_and_answers_as_its_loaders(
    client: AsyncClient, tenant: Tenant
) -> None:
    venue = await _venue_with_orders(client, tenant)
    cases: list[dict[str, Any]] = [
        {},
        {"limit": 1},
        {"limit": 4, "offset": 2},
        {"limit": 2, "offset": 5},
        {"offset": 6},
        {"offset": 100},
        {"sort": "sequence:asc", "limit": 3},
        {"sort": "owner_name:desc", "limit": 3, "offset": 1},
        {"status": "valid", "limit": 2},
        {"status": "scanned"},
    ]
    for case in cases:
        plain, fragment, statements = await _answers(
            client, tenant.headers, {"id": venue.event["id"], **case}
        )
        assert plain == fragment, case
        page = gql_data(plain)["event"]["tickets"]
        assert statements == 1, case
        if case.get("status") == "scanned":
            assert page == {
                "items": [],
                "pagination": {
                    "total": 0, "limit": 25, "offset": 0, "hasMore": False, "nextAfter": None
                },
            }  # fmt: skip
    first = gql_data((await _answers(client, tenant.headers, {"id": venue.event["id"]}))[0])
    items = first["event"]["tickets"]["items"]
    assert len(items) == 6 and {item["order"]["buyerName"] for item in items} == {
        "Ada", "Grace", "Edsger"
    }  # fmt: skip
    assert all(item["ticketType"]["id"] == venue.ticket_type["id"] for item in items)


async def test_an_event_without_tickets_is_one_statement(
    client: AsyncClient, tenant: Tenant
) -> None:
    venue = await create_venue(client, tenant)
    plain, fragment, statements = await _answers(client, tenant.headers, {"id": venue.event["id"]})
    assert plain == fragment and statements == 1
    assert gql_data(plain)["event"]["tickets"]["items"] == []


async def test_refusals_and_other_organizations_answer_as_without_the_prefetch(
    client: AsyncClient, tenant: Tenant, other_tenant: Tenant
) -> None:
    mine = await _venue_with_orders(client, tenant)
    theirs = await _venue_with_orders(client, other_tenant)
    cases: list[tuple[dict[str, str], dict[str, Any], list[str]]] = [
        (tenant.headers, {"id": theirs.event["id"]}, ["NOT_FOUND"]),
        (tenant.headers, {"id": "not-a-uuid"}, ["BAD_USER_INPUT"]),
        (tenant.headers, {"id": mine.event["id"], "limit": 0}, ["BAD_USER_INPUT"]),
        (tenant.headers, {"id": mine.event["id"], "sort": "price:asc"}, ["BAD_USER_INPUT"]),
        (tenant.headers, {"id": mine.event["id"], "status": "lost"}, ["BAD_USER_INPUT"]),
        (await key_for(tenant, ["events.read"]), {"id": mine.event["id"]}, ["FORBIDDEN"]),
        (await key_for(tenant, ["tickets.read"]), {"id": mine.event["id"]}, ["FORBIDDEN"]),
        (
            await key_for(tenant, ["events.read", "tickets.read"]),
            {"id": mine.event["id"], "limit": 2},
            ["FORBIDDEN"] * 2,
        ),
    ]
    for headers, variables, codes in cases:
        plain, fragment, _ = await _answers(client, headers, variables)
        assert plain == fragment, variables
        assert gql_error_codes(plain) == codes, plain
    # Another organization's event: nothing of its page or orders reaches the answer.
    plain, _, _ = await _answers(client, tenant.headers, {"id": theirs.event["id"]})
    assert plain["data"] == {"event": None}


async def test_a_second_page_and_a_root_order_answer_as_their_loaders(
    client: AsyncClient, tenant: Tenant
) -> None:
    """Only the first page under the root is read with it; a second one (other arguments) and
    the pages under an order are read by the loaders or the prefetch alike."""
    venue = await _venue_with_orders(client, tenant)
    two_pages = (
        "query($id: ID!) { event(id: $id) { "
        f"a: tickets(limit: 2) {{ {ITEMS} }} b: tickets(limit: 2, offset: 2) {{ {ITEMS} }} }} }}"
    )
    with count_statements() as counter:
        both = gql_data(await graphql(client, tenant.headers, two_pages, {"id": venue.event["id"]}))
    assert counter.count == 3, counter.statements  # the prefetch, page b, page b's orders
    whole = gql_data(
        await graphql(client, tenant.headers, PLAIN, {"id": venue.event["id"], "limit": 4})
    )["event"]["tickets"]["items"]
    assert both["event"]["a"]["items"] + both["event"]["b"]["items"] == whole
    order_id = whole[0]["orderId"]
    by_order = (
        "query($id: ID!, $offset: Int) { order(id: $id) { id buyerName "
        f'tickets(limit: 1, offset: $offset, sort: "sequence:asc") {{ {ITEMS} }} }} }}'
    )
    fragment = (
        "query($id: ID!, $offset: Int) { order(id: $id) { id buyerName ...T } } "
        "fragment T on Order { "
        f'tickets(limit: 1, offset: $offset, sort: "sequence:asc") {{ {ITEMS} }} }}'
    )
    for offset in (0, 1, 2):
        variables = {"id": order_id, "offset": offset}
        with count_statements() as counter:
            plain = await graphql(client, tenant.headers, by_order, variables)
        assert plain == await graphql(client, tenant.headers, fragment, variables)
        assert counter.count == 1, counter.statements
        page = gql_data(plain)["order"]["tickets"]
        assert len(page["items"]) == (1 if offset < 2 else 0)
        assert all(item["order"]["id"] == order_id for item in page["items"])


async def test_a_page_with_written_arguments_answers_as_its_loaders(
    client: AsyncClient, tenant: Tenant
) -> None:
    """A page whose arguments are written without variables has them coerced once per document
    (``graphql_api.prefetch``): the same answers, refusals included, as through a fragment."""
    venue = await _venue_with_orders(client, tenant)
    for arguments, codes in (
        ('limit: 3, offset: 1, sort: "sequence:asc", status: "valid"', []),
        ("limit: 2", []),
        ("limit: 0", ["BAD_USER_INPUT"]),
        ('sort: "price:asc"', ["BAD_USER_INPUT"]),
    ):
        page = f"tickets({arguments}) {{ {ITEMS} }}"
        plain = f"query($id: ID!) {{ event(id: $id) {{ id title {page} }} }}"
        fragment = (
            "query($id: ID!) { event(id: $id) { id title ...P } } "
            f"fragment P on Event {{ {page} }}"
        )
        variables = {"id": venue.event["id"]}
        for _ in range(2):  # the document's first request plans it, the second reuses the plan
            with count_statements() as counter:
                answer = _unlocated(await graphql(client, tenant.headers, plain, variables))
            assert answer == _unlocated(await graphql(client, tenant.headers, fragment, variables))
            assert gql_error_codes(answer) == codes, answer
            if not codes:
                assert counter.count == 1, counter.statements


async def test_an_id_variable_of_any_value_answers_as_its_loaders(
    client: AsyncClient, tenant: Tenant, other_tenant: Tenant
) -> None:
    """With its page's arguments written, an operation whose only variable is the root's ``ID``
    takes a string given for it as the id without coercing the variables
    (``graphql_api.prefetch``); any other value is coerced as before: the same answers and
    errors as through a fragment, and one statement for a string id."""
    mine = await _venue_with_orders(client, tenant)
    theirs = await _venue_with_orders(client, other_tenant)
    page = f"tickets(limit: 4) {{ {ITEMS} }}"
    plain = f"query($id: ID!) {{ event(id: $id) {{ id title {page} }} }}"
    fragment = (
        f"query($id: ID!) {{ event(id: $id) {{ id title ...P }} }} fragment P on Event {{ {page} }}"
    )
    for variables, codes in (
        ({"id": mine.event["id"]}, []),
        ({"id": mine.event["id"].upper()}, []),
        ({"id": theirs.event["id"]}, ["NOT_FOUND"]),
        ({"id": "not-a-uuid"}, ["BAD_USER_INPUT"]),
        ({"id": 7}, ["BAD_USER_INPUT"]),
        ({"id": 7.5}, ["BAD_USER_INPUT"]),
        ({"id": [mine.event["id"]]}, ["BAD_USER_INPUT"]),
        ({}, ["BAD_USER_INPUT"]),
        ({"id": None}, ["BAD_USER_INPUT"]),
    ):
        with count_statements() as counter:
            answer = _unlocated(await graphql(client, tenant.headers, plain, variables))
        assert answer == _unlocated(await graphql(client, tenant.headers, fragment, variables))
        assert gql_error_codes(answer) == codes, (variables, answer)
        if not codes:
            assert counter.count == 1, counter.statements
