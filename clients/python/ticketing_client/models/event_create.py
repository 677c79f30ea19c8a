from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="EventCreate")


@_attrs_define
class EventCreate:
    """
    Attributes:
        title (str):
        starts_at (datetime.datetime):
        description (str | Unset):  Default: ''.
        location (None | str | Unset):
        ends_at (datetime.datetime | None | Unset):
        order_scanning_enabled (bool | Unset):  Default: False.
    """

    title: str
    starts_at: datetime.datetime
    description: str | Unset = ""
    location: None | str | Unset = UNSET
    ends_at: datetime.datetime | None | Unset = UNSET
    order_scanning_enabled: bool | Unset = False

    def to_dict(self) -> dict[str, Any]:
        title = self.title

        starts_at = self.starts_at.isoformat()

        description = self.description

        location: None | str | Unset
        if isinstance(self.location, Unset):
            location = UNSET
        else:
            location = self.location

        ends_at: None | str | Unset
        if isinstance(self.ends_at, Unset):
            ends_at = UNSET
        elif isinstance(self.ends_at, datetime.datetime):
            ends_at = self.ends_at.isoformat()
        else:
            ends_at = self.ends_at

        order_scanning_enabled = self.order_scanning_enabled

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "title": title,
                "starts_at": starts_at,
            }
        )
        if description is not UNSET:
            field_dict["description"] = description
        if location is not UNSET:
            field_dict["location"] = location
        if ends_at is not UNSET:
            field_dict["ends_at"] = ends_at
        if order_scanning_enabled is not UNSET:
            field_dict["order_scanning_enabled"] = order_scanning_enabled

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        title = d.pop("title")

        starts_at = datetime.datetime.fromisoformat(d.pop("starts_at"))

        description = d.pop("description", UNSET)

        def _parse_location(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        location = _parse_location(d.pop("location", UNSET))

        def _parse_ends_at(data: object) -> datetime.datetime | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                ends_at_type_0 = datetime.datetime.fromisoformat(data)

                return ends_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None | Unset, data)

        ends_at = _parse_ends_at(d.pop("ends_at", UNSET))

        order_scanning_enabled = d.pop("order_scanning_enabled", UNSET)

        event_create = cls(
            title=title,
            starts_at=starts_at,
            description=description,
            location=location,
            ends_at=ends_at,
            order_scanning_enabled=order_scanning_enabled,
        )

        return event_create
