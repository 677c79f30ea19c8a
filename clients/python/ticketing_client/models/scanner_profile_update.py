from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define

from ..models.entry_policy import EntryPolicy
from ..types import UNSET, Unset

T = TypeVar("T", bound="ScannerProfileUpdate")


@_attrs_define
class ScannerProfileUpdate:
    """
    Attributes:
        name (str | Unset):
        event_ids (list[UUID] | Unset):
        ticket_type_ids (list[UUID] | Unset):
        timeslot_ids (list[UUID] | Unset):
        opens_minutes_before_start (int | None | Unset):
        closes_minutes_after_end (int | None | Unset):
        valid_from (datetime.datetime | None | Unset):
        valid_until (datetime.datetime | None | Unset):
        entry_policy (EntryPolicy | Unset):
    """

    name: str | Unset = UNSET
    event_ids: list[UUID] | Unset = UNSET
    ticket_type_ids: list[UUID] | Unset = UNSET
    timeslot_ids: list[UUID] | Unset = UNSET
    opens_minutes_before_start: int | None | Unset = UNSET
    closes_minutes_after_end: int | None | Unset = UNSET
    valid_from: datetime.datetime | None | Unset = UNSET
    valid_until: datetime.datetime | None | Unset = UNSET
    entry_policy: EntryPolicy | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        name: str | Unset
        if isinstance(self.name, Unset):
            name = UNSET
        else:
            name = self.name

        event_ids: list[str] | Unset
        if isinstance(self.event_ids, Unset):
            event_ids = UNSET
        else:
            event_ids = []
            for event_ids_type_0_item_data in self.event_ids:
                event_ids_type_0_item = str(event_ids_type_0_item_data)
                event_ids.append(event_ids_type_0_item)

        ticket_type_ids: list[str] | Unset
        if isinstance(self.ticket_type_ids, Unset):
            ticket_type_ids = UNSET
        else:
            ticket_type_ids = []
            for ticket_type_ids_type_0_item_data in self.ticket_type_ids:
                ticket_type_ids_type_0_item = str(ticket_type_ids_type_0_item_data)
                ticket_type_ids.append(ticket_type_ids_type_0_item)

        timeslot_ids: list[str] | Unset
        if isinstance(self.timeslot_ids, Unset):
            timeslot_ids = UNSET
        else:
            timeslot_ids = []
            for timeslot_ids_type_0_item_data in self.timeslot_ids:
                timeslot_ids_type_0_item = str(timeslot_ids_type_0_item_data)
                timeslot_ids.append(timeslot_ids_type_0_item)

        opens_minutes_before_start: int | None | Unset
        if isinstance(self.opens_minutes_before_start, Unset):
            opens_minutes_before_start = UNSET
        else:
            opens_minutes_before_start = self.opens_minutes_before_start

        closes_minutes_after_end: int | None | Unset
        if isinstance(self.closes_minutes_after_end, Unset):
            closes_minutes_after_end = UNSET
        else:
            closes_minutes_after_end = self.closes_minutes_after_end

        valid_from: None | str | Unset
        if isinstance(self.valid_from, Unset):
            valid_from = UNSET
        elif isinstance(self.valid_from, datetime.datetime):
            valid_from = self.valid_from.isoformat()
        else:
            valid_from = self.valid_from

        valid_until: None | str | Unset
        if isinstance(self.valid_until, Unset):
            valid_until = UNSET
        elif isinstance(self.valid_until, datetime.datetime):
            valid_until = self.valid_until.isoformat()
        else:
            valid_until = self.valid_until

        entry_policy: str | Unset = UNSET
        if not isinstance(self.entry_policy, Unset):
            entry_policy = self.entry_policy.value

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if name is not UNSET:
            field_dict["name"] = name
        if event_ids is not UNSET:
            field_dict["event_ids"] = event_ids
        if ticket_type_ids is not UNSET:
            field_dict["ticket_type_ids"] = ticket_type_ids
        if timeslot_ids is not UNSET:
            field_dict["timeslot_ids"] = timeslot_ids
        if opens_minutes_before_start is not UNSET:
            field_dict["opens_minutes_before_start"] = opens_minutes_before_start
        if closes_minutes_after_end is not UNSET:
            field_dict["closes_minutes_after_end"] = closes_minutes_after_end
        if valid_from is not UNSET:
            field_dict["valid_from"] = valid_from
        if valid_until is not UNSET:
            field_dict["valid_until"] = valid_until
        if entry_policy is not UNSET:
            field_dict["entry_policy"] = entry_policy

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)

        def _parse_name(data: object) -> str | Unset:
            if isinstance(data, Unset):
                return data
            return cast(str | Unset, data)

        name = _parse_name(d.pop("name", UNSET))

        def _parse_event_ids(data: object) -> list[UUID] | Unset:
            if isinstance(data, Unset):
                return data
            if not isinstance(data, list):
                raise TypeError()
            event_ids_type_0 = []
            _event_ids_type_0 = data
            for event_ids_type_0_item_data in _event_ids_type_0:
                event_ids_type_0_item = UUID(event_ids_type_0_item_data)

                event_ids_type_0.append(event_ids_type_0_item)

            return event_ids_type_0

        event_ids = _parse_event_ids(d.pop("event_ids", UNSET))

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

        def _parse_timeslot_ids(data: object) -> list[UUID] | Unset:
            if isinstance(data, Unset):
                return data
            if not isinstance(data, list):
                raise TypeError()
            timeslot_ids_type_0 = []
            _timeslot_ids_type_0 = data
            for timeslot_ids_type_0_item_data in _timeslot_ids_type_0:
                timeslot_ids_type_0_item = UUID(timeslot_ids_type_0_item_data)

                timeslot_ids_type_0.append(timeslot_ids_type_0_item)

            return timeslot_ids_type_0

        timeslot_ids = _parse_timeslot_ids(d.pop("timeslot_ids", UNSET))

        def _parse_opens_minutes_before_start(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        opens_minutes_before_start = _parse_opens_minutes_before_start(
            d.pop("opens_minutes_before_start", UNSET)
        )

        def _parse_closes_minutes_after_end(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        closes_minutes_after_end = _parse_closes_minutes_after_end(
            d.pop("closes_minutes_after_end", UNSET)
        )

        def _parse_valid_from(data: object) -> datetime.datetime | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                valid_from_type_0 = datetime.datetime.fromisoformat(data)

                return valid_from_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None | Unset, data)

        valid_from = _parse_valid_from(d.pop("valid_from", UNSET))

        def _parse_valid_until(data: object) -> datetime.datetime | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                valid_until_type_0 = datetime.datetime.fromisoformat(data)

                return valid_until_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None | Unset, data)

        valid_until = _parse_valid_until(d.pop("valid_until", UNSET))

        _entry_policy = d.pop("entry_policy", UNSET)
        entry_policy: EntryPolicy | Unset
        if isinstance(_entry_policy, Unset):
            entry_policy = UNSET
        else:
            entry_policy = EntryPolicy(_entry_policy)

        scanner_profile_update = cls(
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

        return scanner_profile_update
