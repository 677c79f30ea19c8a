from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.batch_scan_item import BatchScanItem


T = TypeVar("T", bound="BatchScan")


@_attrs_define
class BatchScan:
    """
    Attributes:
        scans (list[BatchScanItem]):
        scanner_id (None | Unset | UUID):
    """

    scans: list[BatchScanItem]
    scanner_id: None | Unset | UUID = UNSET

    def to_dict(self) -> dict[str, Any]:
        scans = []
        for scans_item_data in self.scans:
            scans_item = scans_item_data.to_dict()
            scans.append(scans_item)

        scanner_id: None | str | Unset
        if isinstance(self.scanner_id, Unset):
            scanner_id = UNSET
        elif isinstance(self.scanner_id, UUID):
            scanner_id = str(self.scanner_id)
        else:
            scanner_id = self.scanner_id

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "scans": scans,
            }
        )
        if scanner_id is not UNSET:
            field_dict["scanner_id"] = scanner_id

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.batch_scan_item import BatchScanItem

        d = dict(src_dict)
        scans = []
        _scans = d.pop("scans")
        for scans_item_data in _scans:
            scans_item = BatchScanItem.from_dict(scans_item_data)

            scans.append(scans_item)

        def _parse_scanner_id(data: object) -> None | Unset | UUID:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                scanner_id_type_0 = UUID(data)

                return scanner_id_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | Unset | UUID, data)

        scanner_id = _parse_scanner_id(d.pop("scanner_id", UNSET))

        batch_scan = cls(
            scans=scans,
            scanner_id=scanner_id,
        )

        return batch_scan
