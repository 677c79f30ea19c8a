"""Test data is dated relative to today (``tests/dates.py``): a future year written by hand
would turn into the past one day and fail a test that has nothing wrong with it."""

from __future__ import annotations

import re
from datetime import UTC, datetime
from pathlib import Path

TESTS = Path(__file__).resolve().parents[1]
WRITTEN_YEAR = re.compile(r"\b(20\d\d)-[01]\d-[0-3]\d(?!T\d\d:\d\d:\d\d:\d{6})|datetime\((20\d\d),")
"""A written date or ``datetime(year, ...)``; not a migration's id (``2099-01-01T00:00:00:000000``
names one that sorts last)."""


def test_no_test_writes_a_future_year_by_hand() -> None:
    this_year = datetime.now(UTC).year
    found = [
        f"{path.relative_to(TESTS)}:{number}: {line.strip()}"
        for path in sorted(TESTS.rglob("*.py"))
        if path.name != "dates.py"
        for number, line in enumerate(path.read_text().splitlines(), 1)
        for match in WRITTEN_YEAR.finditer(line)
        if int(match.group(1) or match.group(2)) > this_year
    ]
    assert not found, "write these with tests.dates.YEAR:\n" + "\n".join(found)
