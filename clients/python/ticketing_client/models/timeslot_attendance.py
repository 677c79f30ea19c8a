from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="TimeslotAttendance")


@_attrs_define
class TimeslotAttendance:
    """
    Attributes:
        timeslot_id (UUID):
        admitted (int):
        inside (int):
    """

    timeslot_id: UUID
    admitted: int
    inside: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        timeslot_id = str(self.timeslot_id)

        admitted = self.admitted

        inside = self.inside

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "timeslot_id": timeslot_id,
                "admitted": admitted,
                "inside": inside,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        timeslot_id = UUID(d.pop("timeslot_id"))

        admitted = d.pop("admitted")

        inside = d.pop("inside")

        timeslot_attendance = cls(
            timeslot_id=timeslot_id,
            admitted=admitted,
            inside=inside,
        )

        timeslot_attendance.additional_properties = d
        return timeslot_attendance

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
