"""Ticket types of an event (scopes events.read / events.write)."""

from __future__ import annotations

from typing import Any
from uuid import UUID

from app.money import amount, as_number
from app.pagination import Page, fetch_page, fetch_pages, list_params
from app.principal import Principal
from app.schemas.events import TicketType, TicketTypeCreate
from app.services.events import require_event
from app.timeutil import as_utc
from db.tables import TicketType as TicketTypeTable

SORT_FIELDS = ("created_at",)


def to_ticket_type(row: dict[str, Any]) -> TicketType:
    return TicketType(
        id=row["id"],
        event_id=row["event_id"],
        name=row["name"],
        price=as_number(row["price"]),
        swappable=row["swappable"],
        created_at=as_utc(row["created_at"]),
    )


async def list_ticket_types(
    principal: Principal,
    event_id: UUID,
    *,
    limit: int | None = None,
    offset: int | None = None,
    sort: str | None = None,
) -> Page[TicketType]:
    principal.require("events.read")
    params = list_params(limit=limit, offset=offset, sort=sort, allowed=SORT_FIELDS)
    await require_event(principal, event_id)
    return await fetch_page(
        TicketTypeTable, [TicketTypeTable.event_id == event_id], params, to_ticket_type
    )


async def ticket_types_of_events(
    principal: Principal,
    event_ids: list[UUID],
    *,
    limit: int | None = None,
    offset: int | None = None,
    sort: str | None = None,
) -> dict[UUID, Page[TicketType]]:
    """One page of ticket types per event of the caller (two statements; for dataloaders)."""
    principal.require("events.read")
    params = list_params(limit=limit, offset=offset, sort=sort, allowed=SORT_FIELDS)
    return await fetch_pages(
        TicketTypeTable,
        TicketTypeTable.event_id,
        event_ids,
        [TicketTypeTable.organization_id == principal.organization_id],
        params,
        to_ticket_type,
    )


async def load_ticket_types(
    principal: Principal, ticket_type_ids: list[UUID]
) -> dict[UUID, TicketType]:
    """The caller's ticket types among ``ticket_type_ids``, keyed by id (for dataloaders)."""
    principal.require("events.read")
    rows = await ticket_types_by_id(principal.organization_id, ticket_type_ids)
    return {type_id: to_ticket_type(row) for type_id, row in rows.items()}


async def create_ticket_type(
    principal: Principal, event_id: UUID, data: TicketTypeCreate
) -> TicketType:
    principal.require("events.write")
    price = amount(data.price, "price")
    await require_event(principal, event_id)
    row = TicketTypeTable(
        organization_id=principal.organization_id,
        event_id=event_id,
        name=data.name,
        price=price,
        swappable=data.swappable,
    )
    await row.save()
    return to_ticket_type(row.to_dict())


async def ticket_types_by_id(
    organization_id: UUID, ticket_type_ids: list[UUID]
) -> dict[UUID, dict[str, Any]]:
    """Rows of the given ticket types of one organization, keyed by id (one statement)."""
    if not ticket_type_ids:
        return {}
    rows = await TicketTypeTable.select().where(
        TicketTypeTable.id.is_in(list(set(ticket_type_ids))),
        TicketTypeTable.organization_id == organization_id,
    )
    return {row["id"]: row for row in rows}
