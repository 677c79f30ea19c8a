from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="EventUpdate")


@_attrs_define
class EventUpdate:
    """
    Attributes:
        title (str | Unset):
        description (str | Unset):
        location (None | str | Unset):
        starts_at (datetime.datetime | Unset):
        ends_at (datetime.datetime | None | Unset):
        order_scanning_enabled (bool | Unset):
    """

    title: str | Unset = UNSET
    description: str | Unset = UNSET
    location: None | str | Unset = UNSET
    starts_at: datetime.datetime | Unset = UNSET
    ends_at: datetime.datetime | None | Unset = UNSET
    order_scanning_enabled: bool | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        title: str | Unset
        if isinstance(self.title, Unset):
            title = UNSET
        else:
            title = self.title

        description: str | Unset
        if isinstance(self.description, Unset):
            description = UNSET
        else:
            description = self.description

        location: None | str | Unset
        if isinstance(self.location, Unset):
            location = UNSET
        else:
            location = self.location

        starts_at: str | Unset
        if isinstance(self.starts_at, Unset):
            starts_at = UNSET
        else:
            starts_at = self.starts_at.isoformat()

        ends_at: None | str | Unset
        if isinstance(self.ends_at, Unset):
            ends_at = UNSET
        elif isinstance(self.ends_at, datetime.datetime):
            ends_at = self.ends_at.isoformat()
        else:
            ends_at = self.ends_at

        order_scanning_enabled: bool | Unset
        if isinstance(self.order_scanning_enabled, Unset):
            order_scanning_enabled = UNSET
        else:
            order_scanning_enabled = self.order_scanning_enabled

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if title is not UNSET:
            field_dict["title"] = title
        if description is not UNSET:
            field_dict["description"] = description
        if location is not UNSET:
            field_dict["location"] = location
        if starts_at is not UNSET:
            field_dict["starts_at"] = starts_at
        if ends_at is not UNSET:
            field_dict["ends_at"] = ends_at
        if order_scanning_enabled is not UNSET:
            field_dict["order_scanning_enabled"] = order_scanning_enabled

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)

        def _parse_title(data: object) -> str | Unset:
            if isinstance(data, Unset):
                return data
            return cast(str | Unset, data)

        title = _parse_title(d.pop("title", UNSET))

        def _parse_description(data: object) -> str | Unset:
            if isinstance(data, Unset):
                return data
            return cast(str | Unset, data)

        description = _parse_description(d.pop("description", UNSET))

        def _parse_location(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        location = _parse_location(d.pop("location", UNSET))

        def _parse_starts_at(data: object) -> datetime.datetime | Unset:
            if isinstance(data, Unset):
                return data
            if not isinstance(data, str):
                raise TypeError()
            starts_at_type_0 = datetime.datetime.fromisoformat(data)

            return starts_at_type_0

        starts_at = _parse_starts_at(d.pop("starts_at", UNSET))

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

        def _parse_order_scanning_enabled(data: object) -> bool | Unset:
            if isinstance(data, Unset):
                return data
            return cast(bool | Unset, data)

        order_scanning_enabled = _parse_order_scanning_enabled(
            d.pop("order_scanning_enabled", UNSET)
        )

        event_update = cls(
            title=title,
            description=description,
            location=location,
            starts_at=starts_at,
            ends_at=ends_at,
            order_scanning_enabled=order_scanning_enabled,
        )

        return event_update
