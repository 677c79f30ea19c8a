from enum import StrEnum


class OrderStatus(StrEnum):
    CANCELLED = "cancelled"
    CONFIRMED = "confirmed"
    PENDING = "pending"

    def __str__(self) -> str:
        return str(self.value)
