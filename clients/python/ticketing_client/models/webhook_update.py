from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..models.event_type import EventType
from ..types import UNSET, Unset

T = TypeVar("T", bound="WebhookUpdate")


@_attrs_define
class WebhookUpdate:
    """
    Attributes:
        url (str | Unset): https (http only where private targets are allowed); the host must resolve only to public
            addresses
        event_types (list[EventType] | Unset):
        description (str | Unset):
        active (bool | Unset):
    """

    url: str | Unset = UNSET
    event_types: list[EventType] | Unset = UNSET
    description: str | Unset = UNSET
    active: bool | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        url: str | Unset
        if isinstance(self.url, Unset):
            url = UNSET
        else:
            url = self.url

        event_types: list[str] | Unset
        if isinstance(self.event_types, Unset):
            event_types = UNSET
        else:
            event_types = []
            for event_types_type_0_item_data in self.event_types:
                event_types_type_0_item = event_types_type_0_item_data.value
                event_types.append(event_types_type_0_item)

        description: str | Unset
        if isinstance(self.description, Unset):
            description = UNSET
        else:
            description = self.description

        active: bool | Unset
        if isinstance(self.active, Unset):
            active = UNSET
        else:
            active = self.active

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if url is not UNSET:
            field_dict["url"] = url
        if event_types is not UNSET:
            field_dict["event_types"] = event_types
        if description is not UNSET:
            field_dict["description"] = description
        if active is not UNSET:
            field_dict["active"] = active

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)

        def _parse_url(data: object) -> str | Unset:
            if isinstance(data, Unset):
                return data
            return cast(str | Unset, data)

        url = _parse_url(d.pop("url", UNSET))

        def _parse_event_types(data: object) -> list[EventType] | Unset:
            if isinstance(data, Unset):
                return data
            if not isinstance(data, list):
                raise TypeError()
            event_types_type_0 = []
            _event_types_type_0 = data
            for event_types_type_0_item_data in _event_types_type_0:
                event_types_type_0_item = EventType(event_types_type_0_item_data)

                event_types_type_0.append(event_types_type_0_item)

            return event_types_type_0

        event_types = _parse_event_types(d.pop("event_types", UNSET))

        def _parse_description(data: object) -> str | Unset:
            if isinstance(data, Unset):
                return data
            return cast(str | Unset, data)

        description = _parse_description(d.pop("description", UNSET))

        def _parse_active(data: object) -> bool | Unset:
            if isinstance(data, Unset):
                return data
            return cast(bool | Unset, data)

        active = _parse_active(d.pop("active", UNSET))

        webhook_update = cls(
            url=url,
            event_types=event_types,
            description=description,
            active=active,
        )

        return webhook_update
