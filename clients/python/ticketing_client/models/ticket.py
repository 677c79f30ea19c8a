from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.ticket_status import TicketStatus

if TYPE_CHECKING:
    from ..models.metadata_field import MetadataField
    from ..models.ticket_metadata import TicketMetadata


T = TypeVar("T", bound="Ticket")


@_attrs_define
class Ticket:
    """
    Attributes:
        id (UUID):
        scannable_code (str):
        signed_code (str):
        event_timeslot_id (UUID):
        ticket_type_id (UUID):
        order_id (UUID):
        owner_name (str):
        owner_email (str):
        seat (None | str):
        sequence (int):
        scanned_at (datetime.datetime | None):
        status (TicketStatus):
        cancelled_at (datetime.datetime | None):
        swappable (bool):
        created_at (datetime.datetime):
        updated_at (datetime.datetime):
        metadata (TicketMetadata):
        metadata_fields (list[MetadataField]):
    """

    id: UUID
    scannable_code: str
    signed_code: str
    event_timeslot_id: UUID
    ticket_type_id: UUID
    order_id: UUID
    owner_name: str
    owner_email: str
    seat: None | str
    sequence: int
    scanned_at: datetime.datetime | None
    status: TicketStatus
    cancelled_at: datetime.datetime | None
    swappable: bool
    created_at: datetime.datetime
    updated_at: datetime.datetime
    metadata: TicketMetadata
    metadata_fields: list[MetadataField]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = str(self.id)

        scannable_code = self.scannable_code

        signed_code = self.signed_code

        event_timeslot_id = str(self.event_timeslot_id)

        ticket_type_id = str(self.ticket_type_id)

        order_id = str(self.order_id)

        owner_name = self.owner_name

        owner_email = self.owner_email

        seat: None | str
        seat = self.seat

        sequence = self.sequence

        scanned_at: None | str
        if isinstance(self.scanned_at, datetime.datetime):
            scanned_at = self.scanned_at.isoformat()
        else:
            scanned_at = self.scanned_at

        status = self.status.value

        cancelled_at: None | str
        if isinstance(self.cancelled_at, datetime.datetime):
            cancelled_at = self.cancelled_at.isoformat()
        else:
            cancelled_at = self.cancelled_at

        swappable = self.swappable

        created_at = self.created_at.isoformat()

        updated_at = self.updated_at.isoformat()

        metadata = self.metadata.to_dict()

        metadata_fields = []
        for metadata_fields_item_data in self.metadata_fields:
            metadata_fields_item = metadata_fields_item_data.to_dict()
            metadata_fields.append(metadata_fields_item)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "scannable_code": scannable_code,
                "signed_code": signed_code,
                "event_timeslot_id": event_timeslot_id,
                "ticket_type_id": ticket_type_id,
                "order_id": order_id,
                "owner_name": owner_name,
                "owner_email": owner_email,
                "seat": seat,
                "sequence": sequence,
                "scanned_at": scanned_at,
                "status": status,
                "cancelled_at": cancelled_at,
                "swappable": swappable,
                "created_at": created_at,
                "updated_at": updated_at,
                "metadata": metadata,
                "metadata_fields": metadata_fields,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.metadata_field import MetadataField
        from ..models.ticket_metadata import TicketMetadata

        d = dict(src_dict)
        id = UUID(d.pop("id"))

        scannable_code = d.pop("scannable_code")

        signed_code = d.pop("signed_code")

        event_timeslot_id = UUID(d.pop("event_timeslot_id"))

        ticket_type_id = UUID(d.pop("ticket_type_id"))

        order_id = UUID(d.pop("order_id"))

        owner_name = d.pop("owner_name")

        owner_email = d.pop("owner_email")

        def _parse_seat(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        seat = _parse_seat(d.pop("seat"))

        sequence = d.pop("sequence")

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

        status = TicketStatus(d.pop("status"))

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

        swappable = d.pop("swappable")

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        updated_at = datetime.datetime.fromisoformat(d.pop("updated_at"))

        metadata = TicketMetadata.from_dict(d.pop("metadata"))

        metadata_fields = []
        _metadata_fields = d.pop("metadata_fields")
        for metadata_fields_item_data in _metadata_fields:
            metadata_fields_item = MetadataField.from_dict(metadata_fields_item_data)

            metadata_fields.append(metadata_fields_item)

        ticket = cls(
            id=id,
            scannable_code=scannable_code,
            signed_code=signed_code,
            event_timeslot_id=event_timeslot_id,
            ticket_type_id=ticket_type_id,
            order_id=order_id,
            owner_name=owner_name,
            owner_email=owner_email,
            seat=seat,
            sequence=sequence,
            scanned_at=scanned_at,
            status=status,
            cancelled_at=cancelled_at,
            swappable=swappable,
            created_at=created_at,
            updated_at=updated_at,
            metadata=metadata,
            metadata_fields=metadata_fields,
        )

        ticket.additional_properties = d
        return ticket

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
