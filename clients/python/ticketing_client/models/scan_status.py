from enum import StrEnum


class ScanStatus(StrEnum):
    CANCELLED = "cancelled"
    NOT_ALLOWED = "not_allowed"
    SCANNED = "scanned"
    VALID = "valid"

    def __str__(self) -> str:
        return str(self.value)
