"""Money is NUMERIC(12,2) in the database, Decimal in the services and a JSON number on the wire."""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal
from typing import Annotated

import msgspec

from app.errors import InvalidInput

CENT = Decimal("0.01")
MAX_AMOUNT = Decimal("9999999999.99")

Amount = Annotated[
    Decimal,
    msgspec.Meta(extra_json_schema={"extra": {"type": "number", "format": None, "minimum": 0}}),
]
"""A money input: a JSON number decoded exactly (no float rounding); bounds checked by amount()."""


def to_cents(value: Decimal | float | int | str) -> Decimal:
    return Decimal(str(value)).quantize(CENT, rounding=ROUND_HALF_UP)


def as_number(value: Decimal | float | int | str) -> float:
    """A two-decimal amount as the float the records carry."""
    return float(to_cents(value))


def amount(value: Decimal, field: str) -> Decimal:
    """A non-negative amount that fits NUMERIC(12,2), rounded to cents."""
    if not value.is_finite() or value < 0 or value > MAX_AMOUNT:
        raise InvalidInput.field(field, f"must be between 0 and {MAX_AMOUNT}")
    return to_cents(value)
