from enum import StrEnum


class ListScannersSort(StrEnum):
    CREATED_ATASC = "created_at:asc"
    CREATED_ATDESC = "created_at:desc"

    def __str__(self) -> str:
        return str(self.value)
