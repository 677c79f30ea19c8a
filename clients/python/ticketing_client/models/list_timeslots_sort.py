from enum import StrEnum


class ListTimeslotsSort(StrEnum):
    CREATED_ATASC = "created_at:asc"
    CREATED_ATDESC = "created_at:desc"
    ENDS_ATASC = "ends_at:asc"
    ENDS_ATDESC = "ends_at:desc"
    STARTS_ATASC = "starts_at:asc"
    STARTS_ATDESC = "starts_at:desc"
    TITLEASC = "title:asc"
    TITLEDESC = "title:desc"

    def __str__(self) -> str:
        return str(self.value)
