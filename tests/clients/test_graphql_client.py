"""A GraphQL client nobody here wrote (``gql`` with its httpx transport) against a live server."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
from gql import Client, GraphQLRequest
from gql.transport.exceptions import TransportQueryError
from gql.transport.httpx import HTTPXAsyncTransport
from httpx import AsyncClient

from tests.processes import serving
from tests.support import Tenant, create_scanner, create_venue, ok, operation, place_order


@pytest.fixture
async def server(database: None) -> AsyncIterator[str]:
    """``ticketing serve`` on a free 127.0.0.1 port against this run's DATABASE_URL."""
    async with serving() as [url]:
        yield url


@pytest.mark.slow
async def test_gql_client_browses_and_scans_against_the_live_server(
    client: AsyncClient, tenant: Tenant, server: str
) -> None:
    venue = await create_venue(client, tenant, title="Live")
    await place_order(
        client,
        tenant,
        venue.event["id"],
        venue.timeslot["id"],
        [venue.ticket_type["id"]] * 2,
        confirm=True,
    )
    await create_scanner(client, tenant)
    transport = HTTPXAsyncTransport(url=f"{server}/graphql", headers=tenant.headers, timeout=30)
    async with Client(transport=transport, fetch_schema_from_transport=True) as session:
        data = await session.execute(
            GraphQLRequest(operation("Browse"), variable_values={"id": venue.event["id"]})
        )
        event = data["event"]
        assert event["title"] == "Live"
        assert event["timeslots"]["items"] == [{"title": "Evening", "totalAvailable": 100}]
        assert [t["sequence"] for t in event["tickets"]["items"]] == [1, 2]
        assert event["tickets"]["pagination"] == {"total": 2, "hasMore": False}

        ticket = ok(await client.get(f"/tickets/{event['tickets']['items'][0]['id']}",
                                     headers=tenant.headers))  # fmt: skip
        scanned = await session.execute(
            GraphQLRequest(
                operation("ScanByCode"), variable_values={"code": ticket["scannable_code"]}
            )
        )
        assert scanned["scanTicket"] == {
            "status": "valid", "reason": None, "scannedBefore": False, "event": {"title": "Live"},
        }  # fmt: skip

        with pytest.raises(TransportQueryError) as missing:
            await session.execute(
                GraphQLRequest(
                    operation("Browse"),
                    variable_values={"id": "00000000-0000-4000-8000-000000000000"},
                )
            )
        assert missing.value.errors is not None
        assert missing.value.errors[0]["extensions"]["code"] == "NOT_FOUND"
        assert session.client.schema is not None
        assert session.client.schema.get_type("ScanResult") is not None
