from enum import StrEnum


class ListEventsSort(StrEnum):
    CREATED_ATASC = "created_at:asc"
    CREATED_ATDESC = "created_at:desc"
    STARTS_ATASC = "starts_at:asc"
    STARTS_ATDESC = "starts_at:desc"
    TITLEASC = "title:asc"
    TITLEDESC = "title:desc"

    def __str__(self) -> str:
        return str(self.value)
