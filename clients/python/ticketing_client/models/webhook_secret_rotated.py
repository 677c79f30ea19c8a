from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="WebhookSecretRotated")


@_attrs_define
class WebhookSecretRotated:
    """
    Attributes:
        id (UUID):
        url (str):
        event_types (list[str]):
        description (str):
        active (bool):
        created_at (datetime.datetime):
        secret (str):
        previous_secret_expires_at (datetime.datetime):
    """

    id: UUID
    url: str
    event_types: list[str]
    description: str
    active: bool
    created_at: datetime.datetime
    secret: str
    previous_secret_expires_at: datetime.datetime
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = str(self.id)

        url = self.url

        event_types = self.event_types

        description = self.description

        active = self.active

        created_at = self.created_at.isoformat()

        secret = self.secret

        previous_secret_expires_at = self.previous_secret_expires_at.isoformat()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "url": url,
                "event_types": event_types,
                "description": description,
                "active": active,
                "created_at": created_at,
                "secret": secret,
                "previous_secret_expires_at": previous_secret_expires_at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        id = UUID(d.pop("id"))

        url = d.pop("url")

        event_types = cast(list[str], d.pop("event_types"))

        description = d.pop("description")

        active = d.pop("active")

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        secret = d.pop("secret")

        previous_secret_expires_at = datetime.datetime.fromisoformat(
            d.pop("previous_secret_expires_at")
        )

        webhook_secret_rotated = cls(
            id=id,
            url=url,
            event_types=event_types,
            description=description,
            active=active,
            created_at=created_at,
            secret=secret,
            previous_secret_expires_at=previous_secret_expires_at,
        )

        webhook_secret_rotated.additional_properties = d
        return webhook_secret_rotated

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
