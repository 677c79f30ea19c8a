from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.direction import Direction
from ..models.scan_reason import ScanReason
from ..models.scan_status import ScanStatus

if TYPE_CHECKING:
    from ..models.related_ticket import RelatedTicket
    from ..models.scan_event import ScanEvent
    from ..models.scan_ticket_type import ScanTicketType
    from ..models.scan_timeslot import ScanTimeslot


T = TypeVar("T", bound="ScanResult")


@_attrs_define
class ScanResult:
    """
    Attributes:
        ticket_id (UUID):
        status (ScanStatus):
        scanned_before (bool):
        event (ScanEvent):
        timeslot (ScanTimeslot):
        ticket_type (ScanTicketType):
        owner_name (str):
        owner_email (str):
        seat (None | str):
        scanned_at (datetime.datetime | None):
        cancelled_at (datetime.datetime | None):
        related_tickets (list[RelatedTicket] | None):
        reason (None | ScanReason):
        direction (Direction):
        inside (bool):
    """

    ticket_id: UUID
    status: ScanStatus
    scanned_before: bool
    event: ScanEvent
    timeslot: ScanTimeslot
    ticket_type: ScanTicketType
    owner_name: str
    owner_email: str
    seat: None | str
    scanned_at: datetime.datetime | None
    cancelled_at: datetime.datetime | None
    related_tickets: list[RelatedTicket] | None
    reason: None | ScanReason
    direction: Direction
    inside: bool
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        ticket_id = str(self.ticket_id)

        status = self.status.value

        scanned_before = self.scanned_before

        event = self.event.to_dict()

        timeslot = self.timeslot.to_dict()

        ticket_type = self.ticket_type.to_dict()

        owner_name = self.owner_name

        owner_email = self.owner_email

        seat: None | str
        seat = self.seat

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

        related_tickets: list[dict[str, Any]] | None
        if isinstance(self.related_tickets, list):
            related_tickets = []
            for related_tickets_type_0_item_data in self.related_tickets:
                related_tickets_type_0_item = related_tickets_type_0_item_data.to_dict()
                related_tickets.append(related_tickets_type_0_item)

        else:
            related_tickets = self.related_tickets

        reason: None | str
        if isinstance(self.reason, ScanReason):
            reason = self.reason.value
        else:
            reason = self.reason

        direction = self.direction.value

        inside = self.inside

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "ticket_id": ticket_id,
                "status": status,
                "scanned_before": scanned_before,
                "event": event,
                "timeslot": timeslot,
                "ticket_type": ticket_type,
                "owner_name": owner_name,
                "owner_email": owner_email,
                "seat": seat,
                "scanned_at": scanned_at,
                "cancelled_at": cancelled_at,
                "related_tickets": related_tickets,
                "reason": reason,
                "direction": direction,
                "inside": inside,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.related_ticket import RelatedTicket
        from ..models.scan_event import ScanEvent
        from ..models.scan_ticket_type import ScanTicketType
        from ..models.scan_timeslot import ScanTimeslot

        d = dict(src_dict)
        ticket_id = UUID(d.pop("ticket_id"))

        status = ScanStatus(d.pop("status"))

        scanned_before = d.pop("scanned_before")

        event = ScanEvent.from_dict(d.pop("event"))

        timeslot = ScanTimeslot.from_dict(d.pop("timeslot"))

        ticket_type = ScanTicketType.from_dict(d.pop("ticket_type"))

        owner_name = d.pop("owner_name")

        owner_email = d.pop("owner_email")

        def _parse_seat(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        seat = _parse_seat(d.pop("seat"))

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

        def _parse_related_tickets(data: object) -> list[RelatedTicket] | None:
            if data is None:
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                related_tickets_type_0 = []
                _related_tickets_type_0 = data
                for related_tickets_type_0_item_data in _related_tickets_type_0:
                    related_tickets_type_0_item = RelatedTicket.from_dict(
                        related_tickets_type_0_item_data
                    )

                    related_tickets_type_0.append(related_tickets_type_0_item)

                return related_tickets_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[RelatedTicket] | None, data)

        related_tickets = _parse_related_tickets(d.pop("related_tickets"))

        def _parse_reason(data: object) -> None | ScanReason:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                reason_type_0 = ScanReason(data)

                return reason_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | ScanReason, data)

        reason = _parse_reason(d.pop("reason"))

        direction = Direction(d.pop("direction"))

        inside = d.pop("inside")

        scan_result = cls(
            ticket_id=ticket_id,
            status=status,
            scanned_before=scanned_before,
            event=event,
            timeslot=timeslot,
            ticket_type=ticket_type,
            owner_name=owner_name,
            owner_email=owner_email,
            seat=seat,
            scanned_at=scanned_at,
            cancelled_at=cancelled_at,
            related_tickets=related_tickets,
            reason=reason,
            direction=direction,
            inside=inside,
        )

        scan_result.additional_properties = d
        return scan_result

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
