from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar
from uuid import UUID

from attrs import define as _attrs_define

T = TypeVar("T", bound="HeldTicket")


@_attrs_define
class HeldTicket:
    """
    Attributes:
        ticket_type_id (UUID):
    """

    ticket_type_id: UUID

    def to_dict(self) -> dict[str, Any]:
        ticket_type_id = str(self.ticket_type_id)

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "ticket_type_id": ticket_type_id,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        ticket_type_id = UUID(d.pop("ticket_type_id"))

        held_ticket = cls(
            ticket_type_id=ticket_type_id,
        )

        return held_ticket
