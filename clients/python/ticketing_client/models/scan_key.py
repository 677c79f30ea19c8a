from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import (
    Any,
    Literal,
    Self,
    TypeVar,
    cast,
)

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="ScanKey")


@_attrs_define
class ScanKey:
    """
    Attributes:
        kid (str):
        algorithm (Literal['Ed25519']):
        public_key (str):
        created_at (datetime.datetime):
        retired_at (datetime.datetime | None):
    """

    kid: str
    algorithm: Literal["Ed25519"]
    public_key: str
    created_at: datetime.datetime
    retired_at: datetime.datetime | None
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        kid = self.kid

        algorithm = self.algorithm

        public_key = self.public_key

        created_at = self.created_at.isoformat()

        retired_at: None | str
        if isinstance(self.retired_at, datetime.datetime):
            retired_at = self.retired_at.isoformat()
        else:
            retired_at = self.retired_at

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "kid": kid,
                "algorithm": algorithm,
                "public_key": public_key,
                "created_at": created_at,
                "retired_at": retired_at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        kid = d.pop("kid")

        algorithm = cast(Literal["Ed25519"], d.pop("algorithm"))
        if algorithm != "Ed25519":
            raise ValueError(f"algorithm must match const 'Ed25519', got '{algorithm}'")

        public_key = d.pop("public_key")

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        def _parse_retired_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                retired_at_type_0 = datetime.datetime.fromisoformat(data)

                return retired_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        retired_at = _parse_retired_at(d.pop("retired_at"))

        scan_key = cls(
            kid=kid,
            algorithm=algorithm,
            public_key=public_key,
            created_at=created_at,
            retired_at=retired_at,
        )

        scan_key.additional_properties = d
        return scan_key

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
