"""msgspec's validation messages, as ``app.validation`` reads them.

msgspec states where a value failed only in its message text. These tests pin the shapes that
``app.validation.field_error`` relies on, so that a msgspec upgrade changing them fails here, with
the message in the failure, rather than as wrong field names in 400 answers.
"""

from __future__ import annotations

from typing import Any

import msgspec
import pytest

from app.validation import field_error


class Field(msgspec.Struct, forbid_unknown_fields=True):
    key: str


class Body(msgspec.Struct, forbid_unknown_fields=True):
    count: int
    fields: list[Field] = []


def _message(data: Any) -> str:
    with pytest.raises(msgspec.ValidationError) as raised:
        msgspec.convert(data, Body)
    return str(raised.value)


@pytest.mark.parametrize(
    ("data", "field", "text"),
    [
        ({"count": "1"}, "count", "Expected `int`, got `str`"),
        ({}, "count", "Object missing required field `count`"),
        ({"count": 1, "colour": "red"}, "colour", "Object contains unknown field `colour`"),
        ({"count": 1, "fields": [{"key": 1}]}, "fields[0].key", "Expected `str`, got `int`"),
        ({"count": 1, "fields": [{}]}, "fields[0].key", "Object missing required field `key`"),
        (
            {"count": 1, "fields": [{"key": "k", "x": 1}]},
            "fields[0].x",
            "Object contains unknown field `x`",
        ),
    ],
)
def test_each_message_names_its_field(data: Any, field: str, text: str) -> None:
    error = field_error(_message(data))
    assert (error.field, error.message) == (field, text)


def test_a_message_without_a_location_is_about_the_whole_body() -> None:
    assert field_error("Expected `object`, got `array`").field == "body"
