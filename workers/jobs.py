"""The arq side of webhook delivery: enqueueing one job per due (event, subscription) pair, and the
job that makes one attempt. They hold no rule: each calls the delivery service.

The arq worker runs them (``workers/arq_worker.py``); the in-process runner of the demo calls the
same services directly (``workers/in_process.py``).
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import timedelta
from typing import Any
from uuid import UUID

from arq import ArqRedis

from app.services.webhook_delivery import DeliveryRef, attempt_delivery
from app.settings import Settings
from workers.arq_batches import enqueue_jobs

JOB_EXPIRES = timedelta(days=1)
"""A job not started within this is dropped by arq; its delivery is handed out again anyway once
its lease ends (``DISPATCH_LEASE``)."""


async def enqueue_deliveries(
    redis: ArqRedis, refs: Sequence[DeliveryRef], settings: Settings
) -> None:
    """One ``deliver`` job per pair, with the pair's deterministic job id, all in one round trip:
    a job id that is already queued or running is left alone, so a pair is never enqueued
    twice (``workers/arq_batches.py``)."""
    await enqueue_jobs(
        redis,
        "deliver",
        [
            (ref.job_id(settings.queue_name), (str(ref.event_id), str(ref.webhook_id)))
            for ref in refs
        ],
        queue_name=settings.queue_name,
        expires_ms=int(JOB_EXPIRES.total_seconds() * 1000),
    )


async def deliver(ctx: dict[str, Any], event_id: str, webhook_id: str) -> str:
    """One attempt of one (event, subscription) pair. Once it is over, the relay loop of this
    process is woken (``ctx["wake"]``): the subscription has room for one more of its deliveries
    waiting in the database."""
    try:
        result = await attempt_delivery(
            DeliveryRef(UUID(event_id), UUID(webhook_id)),
            client=ctx["http"],
            settings=ctx["settings"],
            in_flight=ctx["in_flight"],
            batches=ctx["batches"],
        )
    finally:
        ctx["wake"]()
    return result.outcome
