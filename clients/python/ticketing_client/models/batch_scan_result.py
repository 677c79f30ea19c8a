from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.batch_scan_status import BatchScanStatus
from ..models.direction import Direction
from ..models.scan_reason import ScanReason

if TYPE_CHECKING:
    from ..models.related_ticket import RelatedTicket
    from ..models.scan_event import ScanEvent
    from ..models.scan_ticket_type import ScanTicketType
    from ..models.scan_timeslot import ScanTimeslot


T = TypeVar("T", bound="BatchScanResult")


@_attrs_define
class BatchScanResult:
    """
    Attributes:
        nonce (str):
        status (BatchScanStatus):
        ticket_id (None | UUID):
        scanned_before (bool):
        event (None | ScanEvent):
        timeslot (None | ScanTimeslot):
        ticket_type (None | ScanTicketType):
        owner_name (None | str):
        owner_email (None | str):
        seat (None | str):
        scanned_at (datetime.datetime | None):
        cancelled_at (datetime.datetime | None):
        related_tickets (list[RelatedTicket] | None):
        reason (None | ScanReason):
        direction (Direction):
        inside (bool | None):
    """

    nonce: str
    status: BatchScanStatus
    ticket_id: None | UUID
    scanned_before: bool
    event: None | ScanEvent
    timeslot: None | ScanTimeslot
    ticket_type: None | ScanTicketType
    owner_name: None | str
    owner_email: None | str
    seat: None | str
    scanned_at: datetime.datetime | None
    cancelled_at: datetime.datetime | None
    related_tickets: list[RelatedTicket] | None
    reason: None | ScanReason
    direction: Direction
    inside: bool | None
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.scan_event import ScanEvent
        from ..models.scan_ticket_type import ScanTicketType
        from ..models.scan_timeslot import ScanTimeslot

        nonce = self.nonce

        status = self.status.value

        ticket_id: None | str
        if isinstance(self.ticket_id, UUID):
            ticket_id = str(self.ticket_id)
        else:
            ticket_id = self.ticket_id

        scanned_before = self.scanned_before

        event: dict[str, Any] | None
        if isinstance(self.event, ScanEvent):
            event = self.event.to_dict()
        else:
            event = self.event

        timeslot: dict[str, Any] | None
        if isinstance(self.timeslot, ScanTimeslot):
            timeslot = self.timeslot.to_dict()
        else:
            timeslot = self.timeslot

        ticket_type: dict[str, Any] | None
        if isinstance(self.ticket_type, ScanTicketType):
            ticket_type = self.ticket_type.to_dict()
        else:
            ticket_type = self.ticket_type

        owner_name: None | str
        owner_name = self.owner_name

        owner_email: None | str
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

        inside: bool | None
        inside = self.inside

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "nonce": nonce,
                "status": status,
                "ticket_id": ticket_id,
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
        nonce = d.pop("nonce")

        status = BatchScanStatus(d.pop("status"))

        def _parse_ticket_id(data: object) -> None | UUID:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                ticket_id_type_0 = UUID(data)

                return ticket_id_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | UUID, data)

        ticket_id = _parse_ticket_id(d.pop("ticket_id"))

        scanned_before = d.pop("scanned_before")

        def _parse_event(data: object) -> None | ScanEvent:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                event_type_0 = ScanEvent.from_dict(data)

                return event_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | ScanEvent, data)

        event = _parse_event(d.pop("event"))

        def _parse_timeslot(data: object) -> None | ScanTimeslot:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                timeslot_type_0 = ScanTimeslot.from_dict(data)

                return timeslot_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | ScanTimeslot, data)

        timeslot = _parse_timeslot(d.pop("timeslot"))

        def _parse_ticket_type(data: object) -> None | ScanTicketType:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                ticket_type_type_0 = ScanTicketType.from_dict(data)

                return ticket_type_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | ScanTicketType, data)

        ticket_type = _parse_ticket_type(d.pop("ticket_type"))

        def _parse_owner_name(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        owner_name = _parse_owner_name(d.pop("owner_name"))

        def _parse_owner_email(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        owner_email = _parse_owner_email(d.pop("owner_email"))

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

        def _parse_inside(data: object) -> bool | None:
            if data is None:
                return data
            return cast(bool | None, data)

        inside = _parse_inside(d.pop("inside"))

        batch_scan_result = cls(
            nonce=nonce,
            status=status,
            ticket_id=ticket_id,
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

        batch_scan_result.additional_properties = d
        return batch_scan_result

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
