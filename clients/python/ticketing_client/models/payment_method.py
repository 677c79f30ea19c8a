from enum import StrEnum


class PaymentMethod(StrEnum):
    BANK_TRANSFER = "bank_transfer"
    CARD = "card"
    CASH = "cash"
    FREE = "free"
    IDEAL = "ideal"
    INVOICE = "invoice"
    PAYPAL = "paypal"

    def __str__(self) -> str:
        return str(self.value)
