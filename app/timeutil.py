"""Time: one clock for the whole service, and RFC 3339 parsing that insists on an offset."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import UTC, datetime
from typing import Any

from app.errors import InvalidInput


def utcnow() -> datetime:
    return datetime.now(UTC)


def as_utc(value: datetime) -> datetime:
    """A datetime in UTC; a naive one is taken to be UTC already."""
    if value.tzinfo is None:
        return value.replace(tzinfo=UTC)
    return value.astimezone(UTC)


def require_offset(value: datetime, field: str) -> datetime:
    """Accept a decoded timestamp only if it carried an offset; return it in UTC."""
    if value.tzinfo is None:
        raise InvalidInput.field(
            field, "timestamp must carry a UTC offset, e.g. 2026-05-01T18:00:00Z"
        )
    try:
        return value.astimezone(UTC)
    except OverflowError:
        raise InvalidInput.field(field, "timestamp is out of range") from None


def with_offsets(values: Mapping[str, Any], *fields: str) -> dict[str, Any]:
    """``values`` with each timestamp of ``fields`` required to carry an offset and given in UTC
    (a field left out or null stays as it is)."""
    return {
        name: require_offset(value, name) if name in fields and value is not None else value
        for name, value in values.items()
    }


def parse_timestamp(raw: str, field: str) -> datetime:
    """Parse an RFC 3339 timestamp from a query string or form."""
    try:
        value = datetime.fromisoformat(raw.replace("z", "Z"))
    except ValueError:
        raise InvalidInput.field(field, f"not an RFC 3339 timestamp: {raw!r}") from None
    return require_offset(value, field)
