from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="RelatedTicket")


@_attrs_define
class RelatedTicket:
    """
    Attributes:
        id (UUID):
        seat (None | str):
        owner_name (str):
        owner_email (str):
        scanned_at (datetime.datetime | None):
        cancelled_at (datetime.datetime | None):
        ticket_type_name (str):
    """

    id: UUID
    seat: None | str
    owner_name: str
    owner_email: str
    scanned_at: datetime.datetime | None
    cancelled_at: datetime.datetime | None
    ticket_type_name: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = str(self.id)

        seat: None | str
        seat = self.seat

        owner_name = self.owner_name

        owner_email = self.owner_email

        scanned_at: None | str
        if isinstance(self.scanned_at, datetime.datetime):
            scanned_at = self.scanned_at.isoformat()
        else:
            scanned_at = self.scanned_at

        cancelled_at: None | str
        if isinstance(self.cancelled_at, datetime.datetime):
            cancelled_at = self.cancelled_at.isoformat()
        else:
            cancelled_at = self.cancelled_at

        ticket_type_name = self.ticket_type_name

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "seat": seat,
                "owner_name": owner_name,
                "owner_email": owner_email,
                "scanned_at": scanned_at,
                "cancelled_at": cancelled_at,
                "ticket_type_name": ticket_type_name,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        id = UUID(d.pop("id"))

        def _parse_seat(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        seat = _parse_seat(d.pop("seat"))

        owner_name = d.pop("owner_name")

        owner_email = d.pop("owner_email")

        def _parse_scanned_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                scanned_at_type_0 = datetime.datetime.fromisoformat(data)

                return scanned_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        scanned_at = _parse_scanned_at(d.pop("scanned_at"))

        def _parse_cancelled_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                cancelled_at_type_0 = datetime.datetime.fromisoformat(data)

                return cancelled_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        cancelled_at = _parse_cancelled_at(d.pop("cancelled_at"))

        ticket_type_name = d.pop("ticket_type_name")

        related_ticket = cls(
            id=id,
            seat=seat,
            owner_name=owner_name,
            owner_email=owner_email,
            scanned_at=scanned_at,
            cancelled_at=cancelled_at,
            ticket_type_name=ticket_type_name,
        )

        related_ticket.additional_properties = d
        return related_ticket

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
