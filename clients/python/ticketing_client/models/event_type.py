from enum import StrEnum


class EventType(StrEnum):
    ORDER_CONFIRMED = "order.confirmed"
    ORDER_CREATED = "order.created"
    TICKET_CANCELLED = "ticket.cancelled"
    TICKET_SCANNED = "ticket.scanned"

    def __str__(self) -> str:
        return str(self.value)
