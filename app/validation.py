"""Field errors out of msgspec's validation messages: the one place that reads their text.

msgspec names the place where a value failed only inside its message (``Expected `int`, got
`str` - at `$.tickets[0].seat```), and a missing or unknown field only there too; its public API
has no structured path. REST (through Litestar, which passes msgspec's message on) and GraphQL
(``graphql_api.inputs.to_struct``) both turn such a message into a :class:`FieldError` here.
``tests/unit/test_validation_messages.py`` pins the message shapes this relies on, so a msgspec
upgrade that changes them fails there first.
"""

from __future__ import annotations

import re

from app.errors import FieldError

_LOCATION = " - at `$"
_NAMED_FIELD = re.compile(r"^Object (?:missing required|contains unknown) field `([^`]+)`$")


def field_error(message: str, default_field: str = "body") -> FieldError:
    """The field a msgspec validation message is about (a path such as ``tickets[0].seat``),
    and the message without its location."""
    text, _, location = message.partition(_LOCATION)
    path = location.removesuffix("`").removeprefix(".")
    named = _NAMED_FIELD.match(text)
    if named is not None:
        path = f"{path}.{named.group(1)}" if path else named.group(1)
    return FieldError(path or default_field, text)
