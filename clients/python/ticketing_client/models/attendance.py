from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.timeslot_attendance import TimeslotAttendance


T = TypeVar("T", bound="Attendance")


@_attrs_define
class Attendance:
    """
    Attributes:
        event_id (UUID):
        admitted (int):
        inside (int):
        entries (int):
        exits (int):
        timeslots (list[TimeslotAttendance]):
    """

    event_id: UUID
    admitted: int
    inside: int
    entries: int
    exits: int
    timeslots: list[TimeslotAttendance]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        event_id = str(self.event_id)

        admitted = self.admitted

        inside = self.inside

        entries = self.entries

        exits = self.exits

        timeslots = []
        for timeslots_item_data in self.timeslots:
            timeslots_item = timeslots_item_data.to_dict()
            timeslots.append(timeslots_item)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "event_id": event_id,
                "admitted": admitted,
                "inside": inside,
                "entries": entries,
                "exits": exits,
                "timeslots": timeslots,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.timeslot_attendance import TimeslotAttendance

        d = dict(src_dict)
        event_id = UUID(d.pop("event_id"))

        admitted = d.pop("admitted")

        inside = d.pop("inside")

        entries = d.pop("entries")

        exits = d.pop("exits")

        timeslots = []
        _timeslots = d.pop("timeslots")
        for timeslots_item_data in _timeslots:
            timeslots_item = TimeslotAttendance.from_dict(timeslots_item_data)

            timeslots.append(timeslots_item)

        attendance = cls(
            event_id=event_id,
            admitted=admitted,
            inside=inside,
            entries=entries,
            exits=exits,
            timeslots=timeslots,
        )

        attendance.additional_properties = d
        return attendance

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
