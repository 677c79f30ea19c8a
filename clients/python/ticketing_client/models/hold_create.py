from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar
from uuid import UUID

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.held_ticket import HeldTicket


T = TypeVar("T", bound="HoldCreate")


@_attrs_define
class HoldCreate:
    """
    Attributes:
        event_id (UUID):
        event_timeslot_id (UUID):
        tickets (list[HeldTicket]):
        ttl_seconds (int | Unset):  Default: 600.
    """

    event_id: UUID
    event_timeslot_id: UUID
    tickets: list[HeldTicket]
    ttl_seconds: int | Unset = 600

    def to_dict(self) -> dict[str, Any]:
        event_id = str(self.event_id)

        event_timeslot_id = str(self.event_timeslot_id)

        tickets = []
        for tickets_item_data in self.tickets:
            tickets_item = tickets_item_data.to_dict()
            tickets.append(tickets_item)

        ttl_seconds = self.ttl_seconds

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "event_id": event_id,
                "event_timeslot_id": event_timeslot_id,
                "tickets": tickets,
            }
        )
        if ttl_seconds is not UNSET:
            field_dict["ttl_seconds"] = ttl_seconds

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.held_ticket import HeldTicket

        d = dict(src_dict)
        event_id = UUID(d.pop("event_id"))

        event_timeslot_id = UUID(d.pop("event_timeslot_id"))

        tickets = []
        _tickets = d.pop("tickets")
        for tickets_item_data in _tickets:
            tickets_item = HeldTicket.from_dict(tickets_item_data)

            tickets.append(tickets_item)

        ttl_seconds = d.pop("ttl_seconds", UNSET)

        hold_create = cls(
            event_id=event_id,
            event_timeslot_id=event_timeslot_id,
            tickets=tickets,
            ttl_seconds=ttl_seconds,
        )

        return hold_create
