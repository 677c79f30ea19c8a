from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.hold_status import HoldStatus

if TYPE_CHECKING:
    from ..models.held_ticket import HeldTicket


T = TypeVar("T", bound="Hold")


@_attrs_define
class Hold:
    """
    Attributes:
        id (UUID):
        event_id (UUID):
        event_timeslot_id (UUID):
        status (HoldStatus):
        tickets (list[HeldTicket]):
        expires_at (datetime.datetime):
        created_at (datetime.datetime):
    """

    id: UUID
    event_id: UUID
    event_timeslot_id: UUID
    status: HoldStatus
    tickets: list[HeldTicket]
    expires_at: datetime.datetime
    created_at: datetime.datetime
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = str(self.id)

        event_id = str(self.event_id)

        event_timeslot_id = str(self.event_timeslot_id)

        status = self.status.value

        tickets = []
        for tickets_item_data in self.tickets:
            tickets_item = tickets_item_data.to_dict()
            tickets.append(tickets_item)

        expires_at = self.expires_at.isoformat()

        created_at = self.created_at.isoformat()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "event_id": event_id,
                "event_timeslot_id": event_timeslot_id,
                "status": status,
                "tickets": tickets,
                "expires_at": expires_at,
                "created_at": created_at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.held_ticket import HeldTicket

        d = dict(src_dict)
        id = UUID(d.pop("id"))

        event_id = UUID(d.pop("event_id"))

        event_timeslot_id = UUID(d.pop("event_timeslot_id"))

        status = HoldStatus(d.pop("status"))

        tickets = []
        _tickets = d.pop("tickets")
        for tickets_item_data in _tickets:
            tickets_item = HeldTicket.from_dict(tickets_item_data)

            tickets.append(tickets_item)

        expires_at = datetime.datetime.fromisoformat(d.pop("expires_at"))

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        hold = cls(
            id=id,
            event_id=event_id,
            event_timeslot_id=event_timeslot_id,
            status=status,
            tickets=tickets,
            expires_at=expires_at,
            created_at=created_at,
        )

        hold.additional_properties = d
        return hold

    @property
    def additional_keys(self) -> list[str]:
        return list(self.additional_properties.keys())

    def __getitem__(self, key: str) -> Any:
        return self.additional_properties[key]

    def __setitem__(self, key: str, value: Any) -> None:
        self.additional_properties[key] = value

    def __delitem__(self, key: str) -> None:
        del self.additional_properties[key]

    def __contains__(self, key: str) -> bool:
        return key in self.additional_properties
