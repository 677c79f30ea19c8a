from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.revocation_reason import RevocationReason

T = TypeVar("T", bound="Revocation")


@_attrs_define
class Revocation:
    """
    Attributes:
        ticket_id (UUID):
        reason (RevocationReason):
        kid (None | str):
        revoked_at (datetime.datetime):
    """

    ticket_id: UUID
    reason: RevocationReason
    kid: None | str
    revoked_at: datetime.datetime
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        ticket_id = str(self.ticket_id)

        reason = self.reason.value

        kid: None | str
        kid = self.kid

        revoked_at = self.revoked_at.isoformat()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "ticket_id": ticket_id,
                "reason": reason,
                "kid": kid,
                "revoked_at": revoked_at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        ticket_id = UUID(d.pop("ticket_id"))

        reason = RevocationReason(d.pop("reason"))

        def _parse_kid(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        kid = _parse_kid(d.pop("kid"))

        revoked_at = datetime.datetime.fromisoformat(d.pop("revoked_at"))

        revocation = cls(
            ticket_id=ticket_id,
            reason=reason,
            kid=kid,
            revoked_at=revoked_at,
        )

        revocation.additional_properties = d
        return revocation

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
