from enum import StrEnum


class RevocationReason(StrEnum):
    CANCELLED = "cancelled"
    CODE_REPLACED = "code_replaced"

    def __str__(self) -> str:
        return str(self.value)
