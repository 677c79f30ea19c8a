from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="ScannerUpdate")


@_attrs_define
class ScannerUpdate:
    """
    Attributes:
        name (str | Unset):
        active (bool | Unset):
        profile_id (None | Unset | UUID):
    """

    name: str | Unset = UNSET
    active: bool | Unset = UNSET
    profile_id: None | Unset | UUID = UNSET

    def to_dict(self) -> dict[str, Any]:
        name: str | Unset
        if isinstance(self.name, Unset):
            name = UNSET
        else:
            name = self.name

        active: bool | Unset
        if isinstance(self.active, Unset):
            active = UNSET
        else:
            active = self.active

        profile_id: None | str | Unset
        if isinstance(self.profile_id, Unset):
            profile_id = UNSET
        elif isinstance(self.profile_id, UUID):
            profile_id = str(self.profile_id)
        else:
            profile_id = self.profile_id

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if name is not UNSET:
            field_dict["name"] = name
        if active is not UNSET:
            field_dict["active"] = active
        if profile_id is not UNSET:
            field_dict["profile_id"] = profile_id

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)

        def _parse_name(data: object) -> str | Unset:
            if isinstance(data, Unset):
                return data
            return cast(str | Unset, data)

        name = _parse_name(d.pop("name", UNSET))

        def _parse_active(data: object) -> bool | Unset:
            if isinstance(data, Unset):
                return data
            return cast(bool | Unset, data)

        active = _parse_active(d.pop("active", UNSET))

        def _parse_profile_id(data: object) -> None | Unset | UUID:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                profile_id_type_0 = UUID(data)

                return profile_id_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | Unset | UUID, data)

        profile_id = _parse_profile_id(d.pop("profile_id", UNSET))

        scanner_update = cls(
            name=name,
            active=active,
            profile_id=profile_id,
        )

        return scanner_update
