"""A credential's logged request, as the dashboard shows it."""

from __future__ import annotations

from datetime import datetime

import msgspec


class RequestLogRecord(msgspec.Struct):
    created_at: datetime
    method: str
    path: str
    status: int
    duration_ms: float
    request_id: str
    idempotency_key: str | None
