"""The job functions of webhook delivery. They hold no rule: each calls the delivery service.

The arq worker runs them as jobs (``workers/arq_worker.py``); the in-process runner of the demo
calls the same services directly (``workers/in_process.py``).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence
from datetime import timedelta
from typing import Any
from uuid import UUID

from arq import ArqRedis, Retry

from app.services.webhook_delivery import (
    DeliveryRef,
    attempt_delivery,
    due_deliveries,
    relay_outbox,
    retry_horizon,
)
from app.settings import Settings
from app.timeutil import utcnow

logger = logging.getLogger("ticketing.webhooks")

RELAY_MAX_BATCHES = 10
"""Batches one relay run may take, so that one run stays well inside its job timeout."""
ENQUEUE_CONCURRENCY = 50
LOST_JOB_GRACE = timedelta(minutes=5)
"""A pending pair overdue by this much has lost its job (Redis lost its data) and is enqueued
again; a live job is never this late, and enqueueing it again would be a no-op anyway."""
RECOVER_BATCH = 1000


async def enqueue_deliveries(
    redis: ArqRedis, refs: Sequence[DeliveryRef], settings: Settings
) -> None:
    """One ``deliver`` job per pair, with the pair's deterministic job id: arq refuses a job id
    that is already queued or running, so a pair is never enqueued twice."""
    expires = retry_horizon(settings) + timedelta(days=1)
    for start in range(0, len(refs), ENQUEUE_CONCURRENCY):
        await asyncio.gather(
            *[
                redis.enqueue_job(
                    "deliver",
                    str(ref.event_id),
                    str(ref.webhook_id),
                    _job_id=ref.job_id(settings.queue_name),
                    _queue_name=settings.queue_name,
                    _expires=expires,
                )
                for ref in refs[start : start + ENQUEUE_CONCURRENCY]
            ]
        )


async def relay(ctx: dict[str, Any]) -> int:
    """Periodic: turn the outbox into delivery jobs; returns the number of events relayed."""
    settings: Settings = ctx["settings"]
    redis: ArqRedis = ctx["redis"]

    async def schedule(refs: Sequence[DeliveryRef]) -> None:
        await enqueue_deliveries(redis, refs, settings)

    relayed = 0
    for _ in range(RELAY_MAX_BATCHES):
        count = await relay_outbox(schedule)
        relayed += count
        if count == 0:
            break
    return relayed


async def recover(ctx: dict[str, Any]) -> int:
    """Periodic: enqueue again the pending pairs whose job was lost."""
    refs = await due_deliveries(utcnow() - LOST_JOB_GRACE, RECOVER_BATCH)
    if refs:
        logger.warning("re-enqueueing %d webhook deliveries whose job was lost", len(refs))
        await enqueue_deliveries(ctx["redis"], refs, ctx["settings"])
    return len(refs)


async def deliver(ctx: dict[str, Any], event_id: str, webhook_id: str) -> str:
    """One attempt of one (event, subscription) pair; a retry stays the same arq job."""
    result = await attempt_delivery(
        DeliveryRef(UUID(event_id), UUID(webhook_id)),
        client=ctx["http"],
        settings=ctx["settings"],
    )
    if result.retry_in is not None:
        raise Retry(defer=timedelta(seconds=result.retry_in))
    return result.outcome
