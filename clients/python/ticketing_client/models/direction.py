from enum import StrEnum


class Direction(StrEnum):
    ENTRY = "entry"
    EXIT = "exit"

    def __str__(self) -> str:
        return str(self.value)
