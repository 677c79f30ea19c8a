from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="TicketTypeUpdate")


@_attrs_define
class TicketTypeUpdate:
    """
    Attributes:
        name (str | Unset):
        price (float | Unset):
        swappable (bool | Unset):
    """

    name: str | Unset = UNSET
    price: float | Unset = UNSET
    swappable: bool | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        name: str | Unset
        if isinstance(self.name, Unset):
            name = UNSET
        else:
            name = self.name

        price: float | Unset
        if isinstance(self.price, Unset):
            price = UNSET
        else:
            price = self.price

        swappable: bool | Unset
        if isinstance(self.swappable, Unset):
            swappable = UNSET
        else:
            swappable = self.swappable

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if name is not UNSET:
            field_dict["name"] = name
        if price is not UNSET:
            field_dict["price"] = price
        if swappable is not UNSET:
            field_dict["swappable"] = swappable

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)

        def _parse_name(data: object) -> str | Unset:
            if isinstance(data, Unset):
                return data
            return cast(str | Unset, data)

        name = _parse_name(d.pop("name", UNSET))

        def _parse_price(data: object) -> float | Unset:
            if isinstance(data, Unset):
                return data
            return cast(float | Unset, data)

        price = _parse_price(d.pop("price", UNSET))

        def _parse_swappable(data: object) -> bool | Unset:
            if isinstance(data, Unset):
                return data
            return cast(bool | Unset, data)

        swappable = _parse_swappable(d.pop("swappable", UNSET))

        ticket_type_update = cls(
            name=name,
            price=price,
            swappable=swappable,
        )

        return ticket_type_update
