from enum import StrEnum


class ListEventTicketsSort(StrEnum):
    CREATED_ATASC = "created_at:asc"
    CREATED_ATDESC = "created_at:desc"
    OWNER_EMAILASC = "owner_email:asc"
    OWNER_EMAILDESC = "owner_email:desc"
    OWNER_NAMEASC = "owner_name:asc"
    OWNER_NAMEDESC = "owner_name:desc"
    SCANNED_ATASC = "scanned_at:asc"
    SCANNED_ATDESC = "scanned_at:desc"
    SEQUENCEASC = "sequence:asc"
    SEQUENCEDESC = "sequence:desc"
    STATUSASC = "status:asc"
    STATUSDESC = "status:desc"
    UPDATED_ATASC = "updated_at:asc"
    UPDATED_ATDESC = "updated_at:desc"

    def __str__(self) -> str:
        return str(self.value)
