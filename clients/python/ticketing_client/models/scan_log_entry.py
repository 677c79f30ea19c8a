from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.direction import Direction
from ..models.scan_reason import ScanReason
from ..models.scan_status import ScanStatus

T = TypeVar("T", bound="ScanLogEntry")


@_attrs_define
class ScanLogEntry:
    """
    Attributes:
        id (UUID):
        ticket_id (UUID):
        scanner_id (UUID):
        status (ScanStatus):
        reason (None | ScanReason):
        nonce (None | str):
        scanned_at (datetime.datetime):
        received_at (datetime.datetime):
        created_at (datetime.datetime):
        direction (Direction):
    """

    id: UUID
    ticket_id: UUID
    scanner_id: UUID
    status: ScanStatus
    reason: None | ScanReason
    nonce: None | str
    scanned_at: datetime.datetime
    received_at: datetime.datetime
    created_at: datetime.datetime
    direction: Direction
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = str(self.id)

        ticket_id = str(self.ticket_id)

        scanner_id = str(self.scanner_id)

        status = self.status.value

        reason: None | str
        if isinstance(self.reason, ScanReason):
            reason = self.reason.value
        else:
            reason = self.reason

        nonce: None | str
        nonce = self.nonce

        scanned_at = self.scanned_at.isoformat()

        received_at = self.received_at.isoformat()

        created_at = self.created_at.isoformat()

        direction = self.direction.value

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "ticket_id": ticket_id,
                "scanner_id": scanner_id,
                "status": status,
                "reason": reason,
                "nonce": nonce,
                "scanned_at": scanned_at,
                "received_at": received_at,
                "created_at": created_at,
                "direction": direction,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        id = UUID(d.pop("id"))

        ticket_id = UUID(d.pop("ticket_id"))

        scanner_id = UUID(d.pop("scanner_id"))

        status = ScanStatus(d.pop("status"))

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

        def _parse_nonce(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        nonce = _parse_nonce(d.pop("nonce"))

        scanned_at = datetime.datetime.fromisoformat(d.pop("scanned_at"))

        received_at = datetime.datetime.fromisoformat(d.pop("received_at"))

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        direction = Direction(d.pop("direction"))

        scan_log_entry = cls(
            id=id,
            ticket_id=ticket_id,
            scanner_id=scanner_id,
            status=status,
            reason=reason,
            nonce=nonce,
            scanned_at=scanned_at,
            received_at=received_at,
            created_at=created_at,
            direction=direction,
        )

        scan_log_entry.additional_properties = d
        return scan_log_entry

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
