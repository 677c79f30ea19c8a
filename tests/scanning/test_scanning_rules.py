"""The scan service with a pinned clock (window edges) and its cost in SQL statements."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone
from uuid import UUID

import pytest
from httpx import AsyncClient

from app.errors import InvalidInput
from app.principal import Principal
from app.services.authentication import authenticate
from app.services.scanning import scan_ticket
from app.settings import get_settings
from tests.dates import YEAR
from tests.statements import count_statements
from tests.support import (
    Tenant,
    create_profile,
    create_scanner,
    create_venue,
    order_tickets,
    place_order,
)

STARTS = datetime(YEAR, 6, 1, 18, 0, tzinfo=UTC)
ENDS = datetime(YEAR, 6, 1, 23, 0, tzinfo=UTC)
SECOND = timedelta(seconds=1)


async def principal_of(tenant: Tenant) -> Principal:
    return await authenticate(f"Bearer {tenant.key}", get_settings())


async def ticket_ids(client: AsyncClient, tenant: Tenant, size: int, **event: object) -> list[UUID]:
    """The tickets of a confirmed order of ``size`` in a fresh venue (timeslot STARTS..ENDS)."""
    venue = await create_venue(client, tenant, **event)
    order = await place_order(
        client,
        tenant,
        venue.event["id"],
        venue.timeslot["id"],
        [venue.ticket_type["id"]] * size,
        confirm=True,
    )
    return [UUID(ticket["id"]) for ticket in await order_tickets(client, tenant, order)]


async def outcome(
    principal: Principal, ticket_id: UUID, scanner: dict[str, object], now: datetime
) -> tuple[str, str | None]:
    result = await scan_ticket(
        principal, ticket_id=ticket_id, scanner_id=UUID(str(scanner["id"])), now=now
    )
    return result.status, result.reason


async def test_relative_window_edges(client: AsyncClient, tenant: Tenant) -> None:
    principal = await principal_of(tenant)
    profile = await create_profile(
        client, tenant, opens_minutes_before_start=30, closes_minutes_after_end=15
    )
    scanner = await create_scanner(client, tenant, profile_id=profile["id"])
    first, second = await ticket_ids(client, tenant, 2)
    opens = STARTS - timedelta(minutes=30)
    closes = ENDS + timedelta(minutes=15)
    assert await outcome(principal, first, scanner, opens - SECOND) == ("not_allowed", "too_early")
    assert await outcome(principal, first, scanner, opens + SECOND) == ("valid", None)
    assert await outcome(principal, second, scanner, closes + SECOND) == ("not_allowed", "too_late")
    assert await outcome(principal, second, scanner, closes - SECOND) == ("valid", None)


async def test_absolute_window_edges(client: AsyncClient, tenant: Tenant) -> None:
    principal = await principal_of(tenant)
    valid_from = STARTS - timedelta(hours=1)
    valid_until = STARTS + timedelta(hours=1)
    profile = await create_profile(
        client,
        tenant,
        valid_from=valid_from.isoformat(),
        valid_until=valid_until.astimezone(timezone(timedelta(hours=2))).isoformat(),
    )
    scanner = await create_scanner(client, tenant, profile_id=profile["id"])
    first, second = await ticket_ids(client, tenant, 2)
    assert await outcome(principal, first, scanner, valid_from - SECOND) == (
        "not_allowed",
        "too_early",
    )
    assert await outcome(principal, first, scanner, valid_from + SECOND) == ("valid", None)
    assert await outcome(principal, second, scanner, valid_until + SECOND) == (
        "not_allowed",
        "too_late",
    )
    assert await outcome(principal, second, scanner, valid_until - SECOND) == ("valid", None)


async def test_window_bounds_are_inclusive(client: AsyncClient, tenant: Tenant) -> None:
    principal = await principal_of(tenant)
    profile = await create_profile(
        client, tenant, opens_minutes_before_start=0, closes_minutes_after_end=0
    )
    scanner = await create_scanner(client, tenant, profile_id=profile["id"])
    first, second = await ticket_ids(client, tenant, 2)
    assert await outcome(principal, first, scanner, STARTS) == ("valid", None)
    assert await outcome(principal, second, scanner, ENDS) == ("valid", None)


async def test_statements_per_scan_do_not_grow_with_the_order(
    client: AsyncClient, tenant: Tenant
) -> None:
    """Scanner (+ profile), its targets, the joined ticket, the related tickets, and the writes:
    the same count for an order of 1 and of 60 tickets, in every outcome."""
    principal = await principal_of(tenant)
    small = await ticket_ids(client, tenant, 1, order_scanning_enabled=True)
    large = await ticket_ids(client, tenant, 60, order_scanning_enabled=True)
    profile = await create_profile(client, tenant, closes_minutes_after_end=60)
    scanner = await create_scanner(client, tenant, profile_id=profile["id"])
    counts: dict[str, list[int]] = {"valid": [], "scanned": []}
    for tickets in (small, large):
        for expected in ("valid", "scanned"):
            with count_statements() as counter:
                result = await scan_ticket(
                    principal, ticket_id=tickets[0], scanner_id=UUID(scanner["id"])
                )
            assert result.status == expected
            counts[expected].append(counter.count)
            assert counter.count <= 9, counter.statements
    assert result.related_tickets is not None and len(result.related_tickets) == 59
    assert counts["valid"][0] == counts["valid"][1]
    assert counts["scanned"][0] == counts["scanned"][1]


async def test_service_checks_the_code_for_every_transport(
    client: AsyncClient, tenant: Tenant
) -> None:
    """GraphQL calls the service without REST's body decoding: the service checks the code too."""
    principal = await principal_of(tenant)
    for code in ("", "X" * 65, "AB\x00CD"):
        with pytest.raises(InvalidInput) as raised:
            await scan_ticket(principal, scannable_code=code)
        assert raised.value.errors[0].field == "scannable_code"
    with pytest.raises(InvalidInput):
        await scan_ticket(principal)
