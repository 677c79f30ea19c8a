from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="TicketTypeCreate")


@_attrs_define
class TicketTypeCreate:
    """
    Attributes:
        name (str):
        price (float):
        swappable (bool | Unset):  Default: False.
    """

    name: str
    price: float
    swappable: bool | Unset = False

    def to_dict(self) -> dict[str, Any]:
        name = self.name

        price = self.price

        swappable = self.swappable

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "name": name,
                "price": price,
            }
        )
        if swappable is not UNSET:
            field_dict["swappable"] = swappable

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        name = d.pop("name")

        price = d.pop("price")

        swappable = d.pop("swappable", UNSET)

        ticket_type_create = cls(
            name=name,
            price=price,
            swappable=swappable,
        )

        return ticket_type_create
