from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.metadata_field_input import MetadataFieldInput
    from ..models.ticket_input_metadata import TicketInputMetadata


T = TypeVar("T", bound="TicketInput")


@_attrs_define
class TicketInput:
    """
    Attributes:
        ticket_type_id (UUID):
        owner_name (None | str | Unset):
        owner_email (None | str | Unset):
        seat (None | str | Unset):
        metadata (TicketInputMetadata | Unset):
        metadata_fields (list[MetadataFieldInput] | Unset):
    """

    ticket_type_id: UUID
    owner_name: None | str | Unset = UNSET
    owner_email: None | str | Unset = UNSET
    seat: None | str | Unset = UNSET
    metadata: TicketInputMetadata | Unset = UNSET
    metadata_fields: list[MetadataFieldInput] | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        ticket_type_id = str(self.ticket_type_id)

        owner_name: None | str | Unset
        if isinstance(self.owner_name, Unset):
            owner_name = UNSET
        else:
            owner_name = self.owner_name

        owner_email: None | str | Unset
        if isinstance(self.owner_email, Unset):
            owner_email = UNSET
        else:
            owner_email = self.owner_email

        seat: None | str | Unset
        if isinstance(self.seat, Unset):
            seat = UNSET
        else:
            seat = self.seat

        metadata: dict[str, Any] | Unset = UNSET
        if not isinstance(self.metadata, Unset):
            metadata = self.metadata.to_dict()

        metadata_fields: list[dict[str, Any]] | Unset = UNSET
        if not isinstance(self.metadata_fields, Unset):
            metadata_fields = []
            for metadata_fields_item_data in self.metadata_fields:
                metadata_fields_item = metadata_fields_item_data.to_dict()
                metadata_fields.append(metadata_fields_item)

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "ticket_type_id": ticket_type_id,
            }
        )
        if owner_name is not UNSET:
            field_dict["owner_name"] = owner_name
        if owner_email is not UNSET:
            field_dict["owner_email"] = owner_email
        if seat is not UNSET:
            field_dict["seat"] = seat
        if metadata is not UNSET:
            field_dict["metadata"] = metadata
        if metadata_fields is not UNSET:
            field_dict["metadata_fields"] = metadata_fields

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.metadata_field_input import MetadataFieldInput
        from ..models.ticket_input_metadata import TicketInputMetadata

        d = dict(src_dict)
        ticket_type_id = UUID(d.pop("ticket_type_id"))

        def _parse_owner_name(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        owner_name = _parse_owner_name(d.pop("owner_name", UNSET))

        def _parse_owner_email(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        owner_email = _parse_owner_email(d.pop("owner_email", UNSET))

        def _parse_seat(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        seat = _parse_seat(d.pop("seat", UNSET))

        _metadata = d.pop("metadata", UNSET)
        metadata: TicketInputMetadata | Unset
        if isinstance(_metadata, Unset):
            metadata = UNSET
        else:
            metadata = TicketInputMetadata.from_dict(_metadata)

        _metadata_fields = d.pop("metadata_fields", UNSET)
        metadata_fields: list[MetadataFieldInput] | Unset = UNSET
        if _metadata_fields is not UNSET:
            metadata_fields = []
            for metadata_fields_item_data in _metadata_fields:
                metadata_fields_item = MetadataFieldInput.from_dict(
                    metadata_fields_item_data
                )

                metadata_fields.append(metadata_fields_item)

        ticket_input = cls(
            ticket_type_id=ticket_type_id,
            owner_name=owner_name,
            owner_email=owner_email,
            seat=seat,
            metadata=metadata,
            metadata_fields=metadata_fields,
        )

        return ticket_input
