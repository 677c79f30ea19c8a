from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define

from ..models.direction import Direction
from ..types import UNSET, Unset

T = TypeVar("T", bound="BatchScanItem")


@_attrs_define
class BatchScanItem:
    """
    Attributes:
        nonce (str): The device's id of this attempt, unique per organization: a repeated nonce answers the first result
            again and records nothing new.
        ticket_id (None | Unset | UUID):
        scannable_code (None | str | Unset):
        signed_code (None | str | Unset): The ticket's signed code (`T1.` and 183 characters, docs/signed-codes.md): its
            signature is checked first; a bad one is not found.
        scanned_at (datetime.datetime | None | Unset): When the device scanned (RFC 3339 with an offset); default now,
            at most 5 minutes in the future. Windows and validity are decided at this moment.
        direction (Direction | Unset):
    """

    nonce: str
    ticket_id: None | Unset | UUID = UNSET
    scannable_code: None | str | Unset = UNSET
    signed_code: None | str | Unset = UNSET
    scanned_at: datetime.datetime | None | Unset = UNSET
    direction: Direction | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        nonce = self.nonce

        ticket_id: None | str | Unset
        if isinstance(self.ticket_id, Unset):
            ticket_id = UNSET
        elif isinstance(self.ticket_id, UUID):
            ticket_id = str(self.ticket_id)
        else:
            ticket_id = self.ticket_id

        scannable_code: None | str | Unset
        if isinstance(self.scannable_code, Unset):
            scannable_code = UNSET
        else:
            scannable_code = self.scannable_code

        signed_code: None | str | Unset
        if isinstance(self.signed_code, Unset):
            signed_code = UNSET
        else:
            signed_code = self.signed_code

        scanned_at: None | str | Unset
        if isinstance(self.scanned_at, Unset):
            scanned_at = UNSET
        elif isinstance(self.scanned_at, datetime.datetime):
            scanned_at = self.scanned_at.isoformat()
        else:
            scanned_at = self.scanned_at

        direction: str | Unset = UNSET
        if not isinstance(self.direction, Unset):
            direction = self.direction.value

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "nonce": nonce,
            }
        )
        if ticket_id is not UNSET:
            field_dict["ticket_id"] = ticket_id
        if scannable_code is not UNSET:
            field_dict["scannable_code"] = scannable_code
        if signed_code is not UNSET:
            field_dict["signed_code"] = signed_code
        if scanned_at is not UNSET:
            field_dict["scanned_at"] = scanned_at
        if direction is not UNSET:
            field_dict["direction"] = direction

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        nonce = d.pop("nonce")

        def _parse_ticket_id(data: object) -> None | Unset | UUID:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                ticket_id_type_0 = UUID(data)

                return ticket_id_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | Unset | UUID, data)

        ticket_id = _parse_ticket_id(d.pop("ticket_id", UNSET))

        def _parse_scannable_code(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        scannable_code = _parse_scannable_code(d.pop("scannable_code", UNSET))

        def _parse_signed_code(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        signed_code = _parse_signed_code(d.pop("signed_code", UNSET))

        def _parse_scanned_at(data: object) -> datetime.datetime | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                scanned_at_type_0 = datetime.datetime.fromisoformat(data)

                return scanned_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None | Unset, data)

        scanned_at = _parse_scanned_at(d.pop("scanned_at", UNSET))

        _direction = d.pop("direction", UNSET)
        direction: Direction | Unset
        if isinstance(_direction, Unset):
            direction = UNSET
        else:
            direction = Direction(_direction)

        batch_scan_item = cls(
            nonce=nonce,
            ticket_id=ticket_id,
            scannable_code=scannable_code,
            signed_code=signed_code,
            scanned_at=scanned_at,
            direction=direction,
        )

        return batch_scan_item
