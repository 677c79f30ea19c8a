"""Strict decoding of input into the input structs, in one place for REST bodies and GraphQL inputs.

msgspec decodes in strict mode: a string is never a number (``"price": "1"``), booleans are JSON
booleans (``0`` is not false), timestamps are RFC 3339 strings (``0`` is not 1970) and an integer
field takes no float. Litestar converts request data leniently (query strings need it), so the
REST body is decoded here instead (by the REST transport's request class); GraphQL inputs,
already typed by GraphQL, are converted here too, so both transports hold input to the same rules.

This module is also the one place that reads msgspec's error text (``"<what> - at `$.<path>`"``)
to name the offending field; ``tests/test_validation.py`` fails if an upgrade changes that text.
"""

from __future__ import annotations

import re
from typing import Any, TypeVar

import msgspec

from app.errors import FieldError, InvalidInput

T = TypeVar("T")

NESTED_TOO_DEEPLY = "the JSON is nested too deeply"
_PATH_MARKER = " - at `$"
_NAMED_FIELD = re.compile(r"^Object (?:contains unknown|missing required) field `([^`]+)`$")


class MalformedJSON(ValueError):
    """The bytes are not JSON."""


class NestedTooDeeply(MalformedJSON):
    """JSON nested deeper than the decoder's recursion limit."""


def invalid_input(error: msgspec.ValidationError) -> InvalidInput:
    """msgspec's validation error as a 400 naming the field (``tickets[0].owner_name``); a
    missing or unknown field is named itself, a value of the wrong shape at the top ``body``."""
    message, _, path = str(error).partition(_PATH_MARKER)
    path = path.rstrip("`").removeprefix(".")
    named = _NAMED_FIELD.match(message)
    if named:
        path = f"{path}.{named.group(1)}" if path else named.group(1)
    field = path or "body"
    return InvalidInput(f"{field}: {message}", [FieldError(field, message)])


def decode_json(body: bytes, target: type[T] | Any) -> T:
    """``body`` decoded strictly as ``target``; :class:`MalformedJSON` or :class:`InvalidInput`."""
    try:
        return msgspec.json.decode(body, type=target, strict=True)
    except msgspec.ValidationError as error:
        raise invalid_input(error) from None
    except msgspec.DecodeError as error:
        raise MalformedJSON(f"the body is not valid JSON ({error})") from None
    except RecursionError:
        raise NestedTooDeeply(NESTED_TOO_DEEPLY) from None


def convert(data: Any, target: type[T]) -> T:
    """Already-decoded data (a GraphQL input) converted strictly into ``target``."""
    try:
        return msgspec.convert(data, target, strict=True)
    except msgspec.ValidationError as error:
        raise invalid_input(error) from None
    except RecursionError:
        raise InvalidInput(NESTED_TOO_DEEPLY) from None
