from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar
from uuid import UUID

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="TimeslotCreate")


@_attrs_define
class TimeslotCreate:
    """
    Attributes:
        title (str):
        starts_at (datetime.datetime):
        ends_at (datetime.datetime):
        total_available (int):
        ticket_type_ids (list[UUID] | Unset):
    """

    title: str
    starts_at: datetime.datetime
    ends_at: datetime.datetime
    total_available: int
    ticket_type_ids: list[UUID] | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        title = self.title

        starts_at = self.starts_at.isoformat()

        ends_at = self.ends_at.isoformat()

        total_available = self.total_available

        ticket_type_ids: list[str] | Unset = UNSET
        if not isinstance(self.ticket_type_ids, Unset):
            ticket_type_ids = []
            for ticket_type_ids_item_data in self.ticket_type_ids:
                ticket_type_ids_item = str(ticket_type_ids_item_data)
                ticket_type_ids.append(ticket_type_ids_item)

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "title": title,
                "starts_at": starts_at,
                "ends_at": ends_at,
                "total_available": total_available,
            }
        )
        if ticket_type_ids is not UNSET:
            field_dict["ticket_type_ids"] = ticket_type_ids

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        title = d.pop("title")

        starts_at = datetime.datetime.fromisoformat(d.pop("starts_at"))

        ends_at = datetime.datetime.fromisoformat(d.pop("ends_at"))

        total_available = d.pop("total_available")

        _ticket_type_ids = d.pop("ticket_type_ids", UNSET)
        ticket_type_ids: list[UUID] | Unset = UNSET
        if _ticket_type_ids is not UNSET:
            ticket_type_ids = []
            for ticket_type_ids_item_data in _ticket_type_ids:
                ticket_type_ids_item = UUID(ticket_type_ids_item_data)

                ticket_type_ids.append(ticket_type_ids_item)

        timeslot_create = cls(
            title=title,
            starts_at=starts_at,
            ends_at=ends_at,
            total_available=total_available,
            ticket_type_ids=ticket_type_ids,
        )

        return timeslot_create
