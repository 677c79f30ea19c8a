"""What an operator points a load balancer, an orchestrator and Prometheus at (CONTRACT.md
section 13): ``/healthz``, ``/readyz``, ``/metrics``; and the gate that answers 503 to every other
request while the database is not migrated. None of them needs a credential."""

from __future__ import annotations

import asyncio
import contextlib
import re

from litestar import Response, get
from litestar.datastructures import State
from litestar.middleware import ASGIMiddleware
from litestar.types import ASGIApp, Receive, Scope, Send

from app.runtime.observability import CONTENT_TYPE, OutboxBacklog, exposition
from app.runtime.readiness import CHECK_TIMEOUT_SECONDS, MigrationGate, ReadinessProbe
from app.services.outbox import outbox_backlog
from rest.problems import Problem, problem_response

OPERATIONS_PATHS = ["^/healthz$", "^/readyz$", "^/metrics$"]
"""Paths that need no credential and stay open while the database is not migrated."""


UNGATED = re.compile("|".join([*OPERATIONS_PATHS, "^/schema"]))


def _ungated(scope: Scope) -> bool:
    return UNGATED.match(scope["path"]) is not None


class MigrationGateMiddleware(ASGIMiddleware):
    """503 ``the database is not migrated`` for every route but the operations and the docs."""

    def __init__(self, gate: MigrationGate) -> None:
        self.gate = gate
        self.should_bypass_for_scope = _ungated

    async def handle(self, scope: Scope, receive: Receive, send: Send, next_app: ASGIApp) -> None:
        await self.gate.check()
        await next_app(scope, receive, send)


@get("/healthz", include_in_schema=False, sync_to_thread=False)
def get_healthz() -> dict[str, str]:
    """The process serves: touches nothing else."""
    return {"status": "ok"}


@get("/readyz", include_in_schema=False)
async def get_readyz(state: State) -> Response[dict[str, object]] | Response[Problem]:
    """200 when PostgreSQL answers, its migrations are current and Redis answers (when set)."""
    probe: ReadinessProbe = state.readiness
    readiness = await probe.check()
    if not readiness.ready:
        return problem_response(
            503, "not-ready", "Not ready", f"Not ready: {readiness.failures()}",
            checks=readiness.checks,
        )  # fmt: skip
    body: dict[str, object] = {"status": "ready", "checks": readiness.checks}
    return Response(body)


async def _bounded_backlog() -> OutboxBacklog | None:
    """The outbox figures, or none for this scrape when the database does not answer in time."""
    with contextlib.suppress(Exception):
        async with asyncio.timeout(CHECK_TIMEOUT_SECONDS):
            return await outbox_backlog()
    return None


@get("/metrics", include_in_schema=False)
async def get_metrics() -> Response[bytes]:
    """Prometheus text; the route exists only while ``TICKETING_METRICS`` is on."""
    return Response(exposition(await _bounded_backlog()), media_type=CONTENT_TYPE)
