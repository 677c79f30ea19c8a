from enum import StrEnum


class ListOrdersSort(StrEnum):
    BUYER_NAMEASC = "buyer_name:asc"
    BUYER_NAMEDESC = "buyer_name:desc"
    CREATED_ATASC = "created_at:asc"
    CREATED_ATDESC = "created_at:desc"
    PAYED_ATASC = "payed_at:asc"
    PAYED_ATDESC = "payed_at:desc"
    TOTAL_PRICEASC = "total_price:asc"
    TOTAL_PRICEDESC = "total_price:desc"
    UPDATED_ATASC = "updated_at:asc"
    UPDATED_ATDESC = "updated_at:desc"

    def __str__(self) -> str:
        return str(self.value)
