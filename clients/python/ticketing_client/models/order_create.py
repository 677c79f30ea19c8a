from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define

from ..models.channel import Channel
from ..models.payment_method import PaymentMethod
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.ticket_input import TicketInput


T = TypeVar("T", bound="OrderCreate")


@_attrs_define
class OrderCreate:
    """
    Attributes:
        buyer_name (str):
        buyer_email (str):
        channel (Channel):
        payment_method (PaymentMethod):
        event_id (None | Unset | UUID):
        event_timeslot_id (None | Unset | UUID):
        tickets (list[TicketInput] | Unset):
        hold_id (None | Unset | UUID):
    """

    buyer_name: str
    buyer_email: str
    channel: Channel
    payment_method: PaymentMethod
    event_id: None | Unset | UUID = UNSET
    event_timeslot_id: None | Unset | UUID = UNSET
    tickets: list[TicketInput] | Unset = UNSET
    hold_id: None | Unset | UUID = UNSET

    def to_dict(self) -> dict[str, Any]:
        buyer_name = self.buyer_name

        buyer_email = self.buyer_email

        channel = self.channel.value

        payment_method = self.payment_method.value

        event_id: None | str | Unset
        if isinstance(self.event_id, Unset):
            event_id = UNSET
        elif isinstance(self.event_id, UUID):
            event_id = str(self.event_id)
        else:
            event_id = self.event_id

        event_timeslot_id: None | str | Unset
        if isinstance(self.event_timeslot_id, Unset):
            event_timeslot_id = UNSET
        elif isinstance(self.event_timeslot_id, UUID):
            event_timeslot_id = str(self.event_timeslot_id)
        else:
            event_timeslot_id = self.event_timeslot_id

        tickets: list[dict[str, Any]] | Unset = UNSET
        if not isinstance(self.tickets, Unset):
            tickets = []
            for tickets_item_data in self.tickets:
                tickets_item = tickets_item_data.to_dict()
                tickets.append(tickets_item)

        hold_id: None | str | Unset
        if isinstance(self.hold_id, Unset):
            hold_id = UNSET
        elif isinstance(self.hold_id, UUID):
            hold_id = str(self.hold_id)
        else:
            hold_id = self.hold_id

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "buyer_name": buyer_name,
                "buyer_email": buyer_email,
                "channel": channel,
                "payment_method": payment_method,
            }
        )
        if event_id is not UNSET:
            field_dict["event_id"] = event_id
        if event_timeslot_id is not UNSET:
            field_dict["event_timeslot_id"] = event_timeslot_id
        if tickets is not UNSET:
            field_dict["tickets"] = tickets
        if hold_id is not UNSET:
            field_dict["hold_id"] = hold_id

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.ticket_input import TicketInput

        d = dict(src_dict)
        buyer_name = d.pop("buyer_name")

        buyer_email = d.pop("buyer_email")

        channel = Channel(d.pop("channel"))

        payment_method = PaymentMethod(d.pop("payment_method"))

        def _parse_event_id(data: object) -> None | Unset | UUID:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                event_id_type_0 = UUID(data)

                return event_id_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | Unset | UUID, data)

        event_id = _parse_event_id(d.pop("event_id", UNSET))

        def _parse_event_timeslot_id(data: object) -> None | Unset | UUID:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                event_timeslot_id_type_0 = UUID(data)

                return event_timeslot_id_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | Unset | UUID, data)

        event_timeslot_id = _parse_event_timeslot_id(d.pop("event_timeslot_id", UNSET))

        _tickets = d.pop("tickets", UNSET)
        tickets: list[TicketInput] | Unset = UNSET
        if _tickets is not UNSET:
            tickets = []
            for tickets_item_data in _tickets:
                tickets_item = TicketInput.from_dict(tickets_item_data)

                tickets.append(tickets_item)

        def _parse_hold_id(data: object) -> None | Unset | UUID:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                hold_id_type_0 = UUID(data)

                return hold_id_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | Unset | UUID, data)

        hold_id = _parse_hold_id(d.pop("hold_id", UNSET))

        order_create = cls(
            buyer_name=buyer_name,
            buyer_email=buyer_email,
            channel=channel,
            payment_method=payment_method,
            event_id=event_id,
            event_timeslot_id=event_timeslot_id,
            tickets=tickets,
            hold_id=hold_id,
        )

        return order_create
