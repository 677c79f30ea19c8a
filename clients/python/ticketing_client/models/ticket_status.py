from enum import StrEnum


class TicketStatus(StrEnum):
    CANCELLED = "cancelled"
    SCANNED = "scanned"
    VALID = "valid"

    def __str__(self) -> str:
        return str(self.value)
