from enum import StrEnum


class ScanReason(StrEnum):
    ALREADY_INSIDE = "already_inside"
    ALREADY_SCANNED = "already_scanned"
    CANCELLED = "cancelled"
    EVENT_NOT_ALLOWED = "event_not_allowed"
    NOT_INSIDE = "not_inside"
    ORDER_NOT_CONFIRMED = "order_not_confirmed"
    SCANNER_INACTIVE = "scanner_inactive"
    TICKET_TYPE_NOT_ALLOWED = "ticket_type_not_allowed"
    TIMESLOT_NOT_ALLOWED = "timeslot_not_allowed"
    TOO_EARLY = "too_early"
    TOO_LATE = "too_late"

    def __str__(self) -> str:
        return str(self.value)
