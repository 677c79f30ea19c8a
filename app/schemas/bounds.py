"""Number bounds of 0 that the OpenAPI document keeps.

Litestar (2.x) copies a field's ``ge`` / ``gt`` onto the document of a field that may be left out
(``X | UnsetType`` in PATCH bodies, ``X | None``) only when the bound is truthy, so a bound of 0
vanished there (schemathesis sent ``"price": -46.36`` to ``PATCH .../ticket_types/{id}``, which
the document allowed and the server refused). Written into the extra JSON schema as well, it
stays; ``tests/test_openapi.py`` checks the PATCH bodies.
"""

from __future__ import annotations

from typing import Any


def zero_floor(*, exclusive: bool = False, **extra: Any) -> dict[str, Any]:
    """``extra_json_schema`` for a number that is at least 0 (``exclusive``: more than 0),
    with any other extra schema properties (Litestar's attribute names, e.g. ``multiple_of``)."""
    return {"extra": {"exclusive_minimum" if exclusive else "minimum": 0, **extra}}
