"""GraphQL: queries, nested relations and mutations over the shared services."""

from __future__ import annotations

from httpx import AsyncClient

from tests.support import Tenant, create_venue, gql_data, graphql, place_order


async def test_smoke(client: AsyncClient, tenant: Tenant) -> None:
    venue = await create_venue(client, tenant)
    order = await place_order(
        client, tenant, venue.event["id"], venue.timeslot["id"], [venue.ticket_type["id"]] * 2
    )
    body = await graphql(
        client,
        tenant.headers,
        """query($id: ID!) { viewer { email organization }
          event(id: $id) { id title startsAt
            timeslots { items { id ticketTypes { name } } pagination { total hasMore } }
            orders { items { id
              tickets { items { id sequence order { id } ticketType { name } } } } }
          } }""",
        {"id": venue.event["id"]},
    )
    data = gql_data(body)
    assert data["event"]["orders"]["items"][0]["id"] == order["id"]
