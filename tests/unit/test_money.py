"""Money: two decimals, half-up rounding to cents, and the NUMERIC(12,2) bounds."""

from __future__ import annotations

from decimal import Decimal

import pytest

from app.errors import InvalidInput
from app.money import MAX_AMOUNT, amount, as_number, to_cents


@pytest.mark.parametrize(
    ("value", "cents"),
    [
        ("1.005", "1.01"),
        ("2.675", "2.68"),
        ("0.004", "0.00"),
        ("0.005", "0.01"),
        (1.005, "1.01"),
        (2.675, "2.68"),
        (7, "7.00"),
        (Decimal("19.9"), "19.90"),
    ],
)
def test_to_cents_rounds_half_up_from_the_written_value(value: object, cents: str) -> None:
    """A float is rounded as written (``2.675``), not as its binary value (2.67499...)."""
    rounded = to_cents(value)
    assert rounded == Decimal(cents)
    assert str(rounded) == cents


def test_as_number_is_the_two_decimal_float() -> None:
    assert as_number(Decimal("12.50")) == 12.5
    assert as_number("0.10") + as_number("0.20") == pytest.approx(0.3)
    assert as_number(Decimal("9999999999.99")) == 9999999999.99


def test_amounts_from_zero_to_the_column_maximum_are_accepted() -> None:
    assert amount(Decimal("0"), "price") == Decimal("0.00")
    assert amount(Decimal("12.5"), "price") == Decimal("12.50")
    assert amount(MAX_AMOUNT, "price") == Decimal("9999999999.99")


@pytest.mark.parametrize(
    "value", ["-0.01", "10000000000.00", "1E+20", "NaN", "Infinity", "-Infinity"]
)
def test_amounts_outside_the_column_are_refused_by_field(value: str) -> None:
    with pytest.raises(InvalidInput) as raised:
        amount(Decimal(value), "total_price")
    [error] = raised.value.errors
    assert error.field == "total_price"
    assert error.message == "must be between 0 and 9999999999.99"
