"""Strict decoding of input into the input structs, in one place for REST bodies and GraphQL inputs.

msgspec decodes in strict mode: a string is never a number (``"price": "1"``), booleans are JSON
booleans (``0`` is not false), timestamps are RFC 3339 strings (``0`` is not 1970) and an integer
field takes no fraction. A number written with a decimal point or an exponent but a whole value
(``2.0``, ``1e3``) is that integer, as JSON Schema reads it (``type: integer`` admits ``2.0``), so
the OpenAPI document and the server agree.

Litestar converts request data leniently (query strings need it), so the REST body is decoded
here instead (by the REST transport's request class); GraphQL inputs, already typed by GraphQL,
are converted here too, so both transports hold input to the same rules.

The offending field is named from msgspec's message by ``app.validation``.
"""

from __future__ import annotations

from typing import Any, TypeVar, overload

import msgspec

from app.errors import InvalidInput
from app.validation import field_error

T = TypeVar("T")

NESTED_TOO_DEEPLY = "the JSON is nested too deeply"


class MalformedJSON(ValueError):
    """The bytes are not JSON."""


class NestedTooDeeply(MalformedJSON):
    """JSON nested deeper than the decoder's recursion limit."""


def invalid_input(error: msgspec.ValidationError) -> InvalidInput:
    """msgspec's validation error as a 400 naming the field (``tickets[0].owner_name``)."""
    problem = field_error(str(error))
    return InvalidInput(f"{problem.field}: {problem.message}", [problem])


WHOLE_FLOAT_LIMIT = 2**53
"""Past this no float spells a whole number exactly, so larger ones stay floats."""


def _number(literal: str) -> int | float:
    """A JSON number with a fraction or exponent: an int when its value is whole."""
    value = float(literal)
    if value.is_integer() and abs(value) <= WHOLE_FLOAT_LIMIT:
        return int(value)
    return value


_JSON = msgspec.json.Decoder(float_hook=_number)


@overload
def decode_json(body: bytes, target: type[T]) -> T: ...
@overload
def decode_json(body: bytes, target: Any) -> Any: ...
def decode_json(body: bytes, target: Any) -> Any:
    """``body`` decoded strictly as ``target`` (a type, or a form such as ``Any`` or a union);
    :class:`MalformedJSON` or :class:`InvalidInput`."""
    try:
        return convert(_JSON.decode(body), target)
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


def sent(data: msgspec.Struct) -> dict[str, Any]:
    """The fields of a PATCH body that were sent (those left ``msgspec.UNSET`` were not)."""
    return {
        field: getattr(data, field)
        for field in data.__struct_fields__
        if getattr(data, field) is not msgspec.UNSET
    }
