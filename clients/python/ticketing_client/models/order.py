from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.order_status import OrderStatus

T = TypeVar("T", bound="Order")


@_attrs_define
class Order:
    """
    Attributes:
        id (UUID):
        event_id (UUID):
        event_timeslot_id (UUID):
        buyer_name (str):
        buyer_email (str):
        channel (str):
        payment_method (str):
        total_price (float):
        refunded (float):
        payed_at (datetime.datetime | None):
        created_at (datetime.datetime):
        updated_at (datetime.datetime):
        status (OrderStatus):
    """

    id: UUID
    event_id: UUID
    event_timeslot_id: UUID
    buyer_name: str
    buyer_email: str
    channel: str
    payment_method: str
    total_price: float
    refunded: float
    payed_at: datetime.datetime | None
    created_at: datetime.datetime
    updated_at: datetime.datetime
    status: OrderStatus
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = str(self.id)

        event_id = str(self.event_id)

        event_timeslot_id = str(self.event_timeslot_id)

        buyer_name = self.buyer_name

        buyer_email = self.buyer_email

        channel = self.channel

        payment_method = self.payment_method

        total_price = self.total_price

        refunded = self.refunded

        payed_at: None | str
        if isinstance(self.payed_at, datetime.datetime):
            payed_at = self.payed_at.isoformat()
        else:
            payed_at = self.payed_at

        created_at = self.created_at.isoformat()

        updated_at = self.updated_at.isoformat()

        status = self.status.value

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "event_id": event_id,
                "event_timeslot_id": event_timeslot_id,
                "buyer_name": buyer_name,
                "buyer_email": buyer_email,
                "channel": channel,
                "payment_method": payment_method,
                "total_price": total_price,
                "refunded": refunded,
                "payed_at": payed_at,
                "created_at": created_at,
                "updated_at": updated_at,
                "status": status,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        id = UUID(d.pop("id"))

        event_id = UUID(d.pop("event_id"))

        event_timeslot_id = UUID(d.pop("event_timeslot_id"))

        buyer_name = d.pop("buyer_name")

        buyer_email = d.pop("buyer_email")

        channel = d.pop("channel")

        payment_method = d.pop("payment_method")

        total_price = d.pop("total_price")

        refunded = d.pop("refunded")

        def _parse_payed_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                payed_at_type_0 = datetime.datetime.fromisoformat(data)

                return payed_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        payed_at = _parse_payed_at(d.pop("payed_at"))

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        updated_at = datetime.datetime.fromisoformat(d.pop("updated_at"))

        status = OrderStatus(d.pop("status"))

        order = cls(
            id=id,
            event_id=event_id,
            event_timeslot_id=event_timeslot_id,
            buyer_name=buyer_name,
            buyer_email=buyer_email,
            channel=channel,
            payment_method=payment_method,
            total_price=total_price,
            refunded=refunded,
            payed_at=payed_at,
            created_at=created_at,
            updated_at=updated_at,
            status=status,
        )

        order.additional_properties = d
        return order

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
