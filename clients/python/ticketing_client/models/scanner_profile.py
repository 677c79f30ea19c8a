from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.entry_policy import EntryPolicy

T = TypeVar("T", bound="ScannerProfile")


@_attrs_define
class ScannerProfile:
    """
    Attributes:
        id (UUID):
        name (str):
        event_ids (list[UUID]):
        ticket_type_ids (list[UUID]):
        timeslot_ids (list[UUID]):
        opens_minutes_before_start (int | None):
        closes_minutes_after_end (int | None):
        valid_from (datetime.datetime | None):
        valid_until (datetime.datetime | None):
        entry_policy (EntryPolicy):
    """

    id: UUID
    name: str
    event_ids: list[UUID]
    ticket_type_ids: list[UUID]
    timeslot_ids: list[UUID]
    opens_minutes_before_start: int | None
    closes_minutes_after_end: int | None
    valid_from: datetime.datetime | None
    valid_until: datetime.datetime | None
    entry_policy: EntryPolicy
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = str(self.id)

        name = self.name

        event_ids = []
        for event_ids_item_data in self.event_ids:
            event_ids_item = str(event_ids_item_data)
            event_ids.append(event_ids_item)

        ticket_type_ids = []
        for ticket_type_ids_item_data in self.ticket_type_ids:
            ticket_type_ids_item = str(ticket_type_ids_item_data)
            ticket_type_ids.append(ticket_type_ids_item)

        timeslot_ids = []
        for timeslot_ids_item_data in self.timeslot_ids:
            timeslot_ids_item = str(timeslot_ids_item_data)
            timeslot_ids.append(timeslot_ids_item)

        opens_minutes_before_start: int | None
        opens_minutes_before_start = self.opens_minutes_before_start

        closes_minutes_after_end: int | None
        closes_minutes_after_end = self.closes_minutes_after_end

        valid_from: None | str
        if isinstance(self.valid_from, datetime.datetime):
            valid_from = self.valid_from.isoformat()
        else:
            valid_from = self.valid_from

        valid_until: None | str
        if isinstance(self.valid_until, datetime.datetime):
            valid_until = self.valid_until.isoformat()
        else:
            valid_until = self.valid_until

        entry_policy = self.entry_policy.value

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "name": name,
                "event_ids": event_ids,
                "ticket_type_ids": ticket_type_ids,
                "timeslot_ids": timeslot_ids,
                "opens_minutes_before_start": opens_minutes_before_start,
                "closes_minutes_after_end": closes_minutes_after_end,
                "valid_from": valid_from,
                "valid_until": valid_until,
                "entry_policy": entry_policy,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        id = UUID(d.pop("id"))

        name = d.pop("name")

        event_ids = []
        _event_ids = d.pop("event_ids")
        for event_ids_item_data in _event_ids:
            event_ids_item = UUID(event_ids_item_data)

            event_ids.append(event_ids_item)

        ticket_type_ids = []
        _ticket_type_ids = d.pop("ticket_type_ids")
        for ticket_type_ids_item_data in _ticket_type_ids:
            ticket_type_ids_item = UUID(ticket_type_ids_item_data)

            ticket_type_ids.append(ticket_type_ids_item)

        timeslot_ids = []
        _timeslot_ids = d.pop("timeslot_ids")
        for timeslot_ids_item_data in _timeslot_ids:
            timeslot_ids_item = UUID(timeslot_ids_item_data)

            timeslot_ids.append(timeslot_ids_item)

        def _parse_opens_minutes_before_start(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        opens_minutes_before_start = _parse_opens_minutes_before_start(
            d.pop("opens_minutes_before_start")
        )

        def _parse_closes_minutes_after_end(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        closes_minutes_after_end = _parse_closes_minutes_after_end(
            d.pop("closes_minutes_after_end")
        )

        def _parse_valid_from(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                valid_from_type_0 = datetime.datetime.fromisoformat(data)

                return valid_from_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        valid_from = _parse_valid_from(d.pop("valid_from"))

        def _parse_valid_until(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                valid_until_type_0 = datetime.datetime.fromisoformat(data)

                return valid_until_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        valid_until = _parse_valid_until(d.pop("valid_until"))

        entry_policy = EntryPolicy(d.pop("entry_policy"))

        scanner_profile = cls(
            id=id,
            name=name,
            event_ids=event_ids,
            ticket_type_ids=ticket_type_ids,
            timeslot_ids=timeslot_ids,
            opens_minutes_before_start=opens_minutes_before_start,
            closes_minutes_after_end=closes_minutes_after_end,
            valid_from=valid_from,
            valid_until=valid_until,
            entry_policy=entry_policy,
        )

        scanner_profile.additional_properties = d
        return scanner_profile

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
