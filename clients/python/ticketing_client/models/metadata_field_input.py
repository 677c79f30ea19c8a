from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="MetadataFieldInput")


@_attrs_define
class MetadataFieldInput:
    """
    Attributes:
        key (str):
        name (str):
        value (str):
    """

    key: str
    name: str
    value: str

    def to_dict(self) -> dict[str, Any]:
        key = self.key

        name = self.name

        value = self.value

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "key": key,
                "name": name,
                "value": value,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        key = d.pop("key")

        name = d.pop("name")

        value = d.pop("value")

        metadata_field_input = cls(
            key=key,
            name=name,
            value=value,
        )

        return metadata_field_input
