"""Money is NUMERIC(12,2) in the database, Decimal in the services and a JSON number on the wire."""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal
from typing import Annotated

import msgspec

from app.errors import InvalidInput

CENT = Decimal("0.01")
MAX_AMOUNT = Decimal("9999999999.99")

_CENTS_SCHEMA = {"extra": {"multiple_of": 0.01}}
"""Documented only: msgspec would test ``multiple_of`` on the binary float (0.07 would fail);
:func:`amount` tests the decimal the client wrote, which is what JSON Schema means."""

Amount = Annotated[float, msgspec.Meta(ge=0, le=float(MAX_AMOUNT), extra_json_schema=_CENTS_SCHEMA)]
"""A money input: a JSON number (never a string) from 0 to ``MAX_AMOUNT``; :func:`amount` takes
it exactly as written, with at most two decimals."""

PositiveAmount = Annotated[
    float, msgspec.Meta(gt=0, le=float(MAX_AMOUNT), extra_json_schema=_CENTS_SCHEMA)
]
"""A money input that must be more than zero (a refund)."""


def to_cents(value: Decimal | float | int | str) -> Decimal:
    return Decimal(str(value)).quantize(CENT, rounding=ROUND_HALF_UP)


def as_number(value: Decimal | float | int | str) -> float:
    """A two-decimal amount as the float the records carry."""
    return float(to_cents(value))


def amount(value: Decimal | float, field: str) -> Decimal:
    """A money input as the Decimal it was written as, from 0 to ``MAX_AMOUNT``; a third
    decimal is refused, not rounded.

    ``repr`` of a decoded float gives back the number's JSON text (the shortest string that reads
    as that float), exact for every amount of up to 15 significant digits, which covers
    NUMERIC(12,2).
    """
    exact = value if isinstance(value, Decimal) else Decimal(repr(float(value)))
    if not exact.is_finite() or exact < 0 or exact > MAX_AMOUNT:
        raise InvalidInput.field(field, f"must be between 0 and {MAX_AMOUNT}")
    if exact != exact.quantize(CENT):
        raise InvalidInput.field(field, "must have at most two decimals")
    return exact.quantize(CENT)
