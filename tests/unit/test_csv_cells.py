"""The CSV cells of a record (rest/csv_export.py): text a spreadsheet would run as a formula gets a
``'`` in front; numbers, negative ones included, are written as numbers."""

from __future__ import annotations

import csv
import io

import msgspec

from rest.csv_export import CsvFormat


class Line(msgspec.Struct):
    label: str
    note: str | None
    price: float
    count: int


def cells(*records: Line) -> list[list[str]]:
    text = CsvFormat(Line).rows(list(records))
    return list(csv.reader(io.StringIO(text, newline="")))


def test_a_negative_amount_or_count_stays_a_number() -> None:
    assert cells(Line("-5", None, -12.5, -3)) == [["'-5", "", "-12.50", "-3"]]


def test_every_formula_start_is_neutralised_and_nothing_else() -> None:
    starts = ["=1+2", "+1", "-1", "@A1", "\tx", "\rx"]
    rows = cells(*(Line(text, text, 0.0, 0) for text in starts))
    assert [row[:2] for row in rows] == [[f"'{text}", f"'{text}"] for text in starts]
    plain = ["Ada", "a=b", "'quoted", " =spaced", ""]
    rows = cells(*(Line(text, text, 0.0, 0) for text in plain))
    assert [row[:2] for row in rows] == [[text, text] for text in plain]
