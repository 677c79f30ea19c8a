from enum import StrEnum


class HoldStatus(StrEnum):
    ACTIVE = "active"
    CONVERTED = "converted"
    EXPIRED = "expired"
    RELEASED = "released"

    def __str__(self) -> str:
        return str(self.value)
