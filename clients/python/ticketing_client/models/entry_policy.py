from enum import StrEnum


class EntryPolicy(StrEnum):
    MULTIPLE = "multiple"
    REENTRY = "reentry"
    SINGLE = "single"

    def __str__(self) -> str:
        return str(self.value)
