"""Money inputs: taken exactly as written, with at most two decimals (never rounded)."""

from __future__ import annotations

from decimal import Decimal

import pytest

from app.errors import InvalidInput
from app.money import amount


@pytest.mark.parametrize("value", [0.001, 19.999, Decimal("1.005"), 1e-9])
def test_a_third_decimal_is_refused_not_rounded(value: float | Decimal) -> None:
    with pytest.raises(InvalidInput) as raised:
        amount(value, "price")
    assert raised.value.errors[0].message == "must have at most two decimals"


@pytest.mark.parametrize(("value", "cents"), [(0.07, "0.07"), (19.99, "19.99"), (1e3, "1000.00")])
def test_two_decimal_floats_are_taken_as_written(value: float, cents: str) -> None:
    assert str(amount(value, "price")) == cents
