"""Scalars whose wire format follows the REST API: timestamps are RFC 3339, UTC, with ``Z``."""

from __future__ import annotations

from datetime import datetime
from typing import Any

import strawberry

from app.timeutil import as_utc


def _serialize(value: datetime) -> str:
    return as_utc(value).isoformat().replace("+00:00", "Z")


def _parse(value: Any) -> datetime:
    """Any RFC 3339 timestamp; one without an offset is refused by the service (as in REST)."""
    if not isinstance(value, str):
        raise ValueError(f"DateTime must be an RFC 3339 string, got {value!r}")
    return datetime.fromisoformat(value)


DateTime = strawberry.scalar(
    name="DateTime",
    description="An RFC 3339 timestamp. Output is UTC with a Z suffix; input must carry an offset.",
    serialize=_serialize,
    parse_value=_parse,
)

SCALAR_OVERRIDES: dict[object, Any] = {datetime: DateTime}
