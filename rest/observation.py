"""Every HTTP request counted in the metrics and written to the access log.

Litestar's middleware runs only for requests that matched a route, so the observation wraps the
application's ASGI entry point instead: a 404 for an unknown path, a 401 from authentication and
a 503 from the migration gate are observed like any other answer. The access log line carries the
method, the path (never the query string: OAuth codes and tokens travel there), the status, the
duration, the request id, the route template and the organization of the credential. A request
made with a bearer credential is also noted in that credential's request log
(``app/services/request_log.py``), which writes it off the request path.
"""

from __future__ import annotations

import logging
import time
from typing import Any

from litestar import Litestar
from litestar.enums import ScopeType
from litestar.types import Message, Scope

from app.principal import Principal
from app.runtime.observability import UNMATCHED_ROUTE, count_request
from app.services import request_log
from rest.http import request_id
from rest.idempotency import HEADER as IDEMPOTENCY_HEADER
from rest.scope_headers import header

access_logger = logging.getLogger("ticketing.access")


class ObservedLitestar(Litestar):
    """A Litestar application that observes each HTTP request (see the module docstring)."""

    def __init__(self, *args: Any, access_log: bool, metrics: bool, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.access_log = access_log
        self.count_requests = metrics

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await super().__call__(scope, receive, send)
            return
        started = time.perf_counter()
        status = 500

        async def send_observed(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
            await send(message)

        try:
            await super().__call__(scope, receive, send_observed)
        finally:
            self._observe(scope, status, time.perf_counter() - started)

    def _observe(self, scope: Scope, status: int, seconds: float) -> None:
        route = scope.get("path_template") or UNMATCHED_ROUTE
        method = scope["method"] if scope["type"] == ScopeType.HTTP else ""
        if self.count_requests:
            count_request(route, method, status, seconds)
        user = scope.get("user")
        duration_ms = round(seconds * 1000, 1)
        if isinstance(user, Principal):
            request_log.note(
                user,
                method,
                scope["path"],
                status,
                duration_ms,
                request_id(scope),
                header(scope, IDEMPOTENCY_HEADER),
            )
        if self.access_log and access_logger.isEnabledFor(logging.INFO):
            # The record made here and handed to the logger's handlers (what ``Logger.info``
            # does, without looking up the calling file and line, which no format writes).
            record = access_logger.makeRecord(
                access_logger.name,
                logging.INFO,
                __file__,
                0,
                "%s %s %s %.1f ms",
                (method, scope["path"], status, duration_ms),
                None,
                extra={
                    "request_id": request_id(scope),
                    "method": method,
                    "route": route,
                    "path": scope["path"],
                    "status": status,
                    "duration_ms": duration_ms,
                    "organization": (
                        str(user.organization_id) if isinstance(user, Principal) else None
                    ),
                },
            )
            access_logger.handle(record)
