"""The arq side of webhook delivery: enqueueing due (event, subscription) pairs as jobs of up to
:data:`PAIRS_PER_JOB` pairs, and the job that makes one attempt of each. They hold no rule: each
calls the delivery service, and arq is used through its public API only (``enqueue_job``, the
stock ``Worker``).

arq does not deduplicate here and need not: each pair is a delivery row claimed under a lease
before its attempt (``db.deliveries.claim``), so a pair that reaches two jobs (its hand-out lease
ran out while its job waited) is still attempted once at a time.

The arq worker runs them (``workers/arq_worker.py``); the in-process runner of the demo calls the
same services directly (``workers/in_process.py``).
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from datetime import timedelta
from typing import Any
from uuid import UUID

from arq import ArqRedis

from app.services.webhook_delivery import DeliveryRef, attempt_delivery
from app.settings import Settings

JOB_EXPIRES = timedelta(days=1)
"""A job not started within this is dropped by arq; its pairs are handed out again anyway once
their lease ends (``DISPATCH_LEASE``)."""
PAIRS_PER_JOB = 10
"""Pairs one job carries at most. Enough that arq's own cost per job (a few Redis round trips to
enqueue, start and finish it) is shared by many attempts under load; few enough that a slow
endpoint's pairs hold a job, and its slot, alongside few others'."""


def job_batches(refs: Sequence[DeliveryRef]) -> list[list[DeliveryRef]]:
    """``refs`` in jobs of at most :data:`PAIRS_PER_JOB`, each subscription's pairs next to each
    other, so that a slow subscription's pairs share few jobs."""
    ordered = sorted(refs, key=lambda ref: ref.webhook_id.bytes)
    return [
        ordered[start : start + PAIRS_PER_JOB] for start in range(0, len(ordered), PAIRS_PER_JOB)
    ]


async def enqueue_deliveries(
    redis: ArqRedis, refs: Sequence[DeliveryRef], settings: Settings
) -> None:
    """Enqueue ``refs`` as ``deliver`` jobs (:func:`job_batches`), all at once."""
    await asyncio.gather(
        *(
            redis.enqueue_job(
                "deliver",
                [(str(ref.event_id), str(ref.webhook_id)) for ref in batch],
                _queue_name=settings.queue_name,
                _expires=JOB_EXPIRES,
            )
            for batch in job_batches(refs)
        )
    )


async def deliver(ctx: dict[str, Any], pairs: list[tuple[str, str]]) -> dict[str, int]:
    """One attempt of each (event, subscription) pair, all at once: their claims and their
    records go in as few statements as the attempts allow (``AttemptBatches``). As each attempt
    ends, the relay loop of this process is woken (``ctx["wake"]``): the subscription has room
    for one more of its deliveries waiting in the database. Returns how many attempts had each
    outcome."""

    async def attempt(event_id: str, webhook_id: str) -> str:
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

    # Every attempt ends before the job does, even when one of them fails.
    outcomes = await asyncio.gather(*(attempt(*pair) for pair in pairs), return_exceptions=True)
    counts: dict[str, int] = {}
    for outcome in outcomes:
        if isinstance(outcome, BaseException):
            raise outcome
        counts[outcome] = counts.get(outcome, 0) + 1
    return counts
