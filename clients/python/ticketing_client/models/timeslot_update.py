from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="TimeslotUpdate")


@_attrs_define
class TimeslotUpdate:
    """
    Attributes:
        title (str | Unset):
        starts_at (datetime.datetime | Unset):
        ends_at (datetime.datetime | Unset):
        total_available (int | Unset):
        ticket_type_ids (list[UUID] | Unset):
    """

    title: str | Unset = UNSET
    starts_at: datetime.datetime | Unset = UNSET
    ends_at: datetime.datetime | Unset = UNSET
    total_available: int | Unset = UNSET
    ticket_type_ids: list[UUID] | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        title: str | Unset
        if isinstance(self.title, Unset):
            title = UNSET
        else:
            title = self.title

        starts_at: str | Unset
        if isinstance(self.starts_at, Unset):
            starts_at = UNSET
        else:
            starts_at = self.starts_at.isoformat()

        ends_at: str | Unset
        if isinstance(self.ends_at, Unset):
            ends_at = UNSET
        else:
            ends_at = self.ends_at.isoformat()

        total_available: int | Unset
        if isinstance(self.total_available, Unset):
            total_available = UNSET
        else:
            total_available = self.total_available

        ticket_type_ids: list[str] | Unset
        if isinstance(self.ticket_type_ids, Unset):
            ticket_type_ids = UNSET
        else:
            ticket_type_ids = []
            for ticket_type_ids_type_0_item_data in self.ticket_type_ids:
                ticket_type_ids_type_0_item = str(ticket_type_ids_type_0_item_data)
                ticket_type_ids.append(ticket_type_ids_type_0_item)

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if title is not UNSET:
            field_dict["title"] = title
        if starts_at is not UNSET:
            field_dict["starts_at"] = starts_at
        if ends_at is not UNSET:
            field_dict["ends_at"] = ends_at
        if total_available is not UNSET:
            field_dict["total_available"] = total_available
        if ticket_type_ids is not UNSET:
            field_dict["ticket_type_ids"] = ticket_type_ids

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)

        def _parse_title(data: object) -> str | Unset:
            if isinstance(data, Unset):
                return data
            return cast(str | Unset, data)

        title = _parse_title(d.pop("title", UNSET))

        def _parse_starts_at(data: object) -> datetime.datetime | Unset:
            if isinstance(data, Unset):
                return data
            if not isinstance(data, str):
                raise TypeError()
            starts_at_type_0 = datetime.datetime.fromisoformat(data)

            return starts_at_type_0

        starts_at = _parse_starts_at(d.pop("starts_at", UNSET))

        def _parse_ends_at(data: object) -> datetime.datetime | Unset:
            if isinstance(data, Unset):
                return data
            if not isinstance(data, str):
                raise TypeError()
            ends_at_type_0 = datetime.datetime.fromisoformat(data)

            return ends_at_type_0

        ends_at = _parse_ends_at(d.pop("ends_at", UNSET))

        def _parse_total_available(data: object) -> int | Unset:
            if isinstance(data, Unset):
                return data
            return cast(int | Unset, data)

        total_available = _parse_total_available(d.pop("total_available", UNSET))

        def _parse_ticket_type_ids(data: object) -> list[UUID] | Unset:
            if isinstance(data, Unset):
                return data
            if not isinstance(data, list):
                raise TypeError()
            ticket_type_ids_type_0 = []
            _ticket_type_ids_type_0 = data
            for ticket_type_ids_type_0_item_data in _ticket_type_ids_type_0:
                ticket_type_ids_type_0_item = UUID(ticket_type_ids_type_0_item_data)

                ticket_type_ids_type_0.append(ticket_type_ids_type_0_item)

            return ticket_type_ids_type_0

        ticket_type_ids = _parse_ticket_type_ids(d.pop("ticket_type_ids", UNSET))

        timeslot_update = cls(
            title=title,
            starts_at=starts_at,
            ends_at=ends_at,
            total_available=total_available,
            ticket_type_ids=ticket_type_ids,
        )

        return timeslot_update
