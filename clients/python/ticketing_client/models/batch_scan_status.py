from enum import StrEnum


class BatchScanStatus(StrEnum):
    CANCELLED = "cancelled"
    NOT_ALLOWED = "not_allowed"
    NOT_FOUND = "not_found"
    SCANNED = "scanned"
    VALID = "valid"

    def __str__(self) -> str:
        return str(self.value)
