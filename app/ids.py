"""Ids arrive as strings (path segments, GraphQL ``ID``s); a malformed one is a 400, not a 404."""

from __future__ import annotations

from uuid import UUID

from app.errors import InvalidInput


def parse_id(raw: str, field: str) -> UUID:
    try:
        return UUID(raw)
    except (ValueError, TypeError, AttributeError):
        raise InvalidInput.field(field, f"not a UUID: {raw!r}") from None
