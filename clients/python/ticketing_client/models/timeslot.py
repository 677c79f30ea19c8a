from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="Timeslot")


@_attrs_define
class Timeslot:
    """
    Attributes:
        id (UUID):
        title (str):
        starts_at (datetime.datetime):
        ends_at (datetime.datetime):
        total_available (int):
        ticket_type_ids (list[UUID]):
    """

    id: UUID
    title: str
    starts_at: datetime.datetime
    ends_at: datetime.datetime
    total_available: int
    ticket_type_ids: list[UUID]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = str(self.id)

        title = self.title

        starts_at = self.starts_at.isoformat()

        ends_at = self.ends_at.isoformat()

        total_available = self.total_available

        ticket_type_ids = []
        for ticket_type_ids_item_data in self.ticket_type_ids:
            ticket_type_ids_item = str(ticket_type_ids_item_data)
            ticket_type_ids.append(ticket_type_ids_item)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "title": title,
                "starts_at": starts_at,
                "ends_at": ends_at,
                "total_available": total_available,
                "ticket_type_ids": ticket_type_ids,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        id = UUID(d.pop("id"))

        title = d.pop("title")

        starts_at = datetime.datetime.fromisoformat(d.pop("starts_at"))

        ends_at = datetime.datetime.fromisoformat(d.pop("ends_at"))

        total_available = d.pop("total_available")

        ticket_type_ids = []
        _ticket_type_ids = d.pop("ticket_type_ids")
        for ticket_type_ids_item_data in _ticket_type_ids:
            ticket_type_ids_item = UUID(ticket_type_ids_item_data)

            ticket_type_ids.append(ticket_type_ids_item)

        timeslot = cls(
            id=id,
            title=title,
            starts_at=starts_at,
            ends_at=ends_at,
            total_available=total_available,
            ticket_type_ids=ticket_type_ids,
        )

        timeslot.additional_properties = d
        return timeslot

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
