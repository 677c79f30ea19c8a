"""The relay loop of a delivering process (``ticketing worker``, or ``ticketing serve`` without
Redis): relay the outbox and hand out due deliveries as soon as work is announced, and at least
every poll period (the safety net, and the clock of retries).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

from app.services.webhook_delivery import (
    DISPATCH_BATCH,
    RELAY_BATCH,
    Scheduler,
    dispatch_due,
    relay_outbox,
)

logger = logging.getLogger("ticketing.webhooks")

MAX_BATCHES = 10
"""Batches of each kind one step takes, so that a large backlog never starves the loop's other
duties (a step that stops there says so, and the next one follows at once)."""
MAX_ERROR_DELAY_SECONDS = 10.0

Step = Callable[[], Awaitable[bool]]


async def relay_pending() -> bool:
    """Relay the outbox into deliveries; True when a batch limit was reached (more may be left).
    A batch that was not full ends it: the rows committed since are the next wake's (asking
    again at once cost every wake a second statement that found nothing)."""
    for _ in range(MAX_BATCHES):
        if await relay_outbox() < RELAY_BATCH:
            return False
    return True


async def dispatch_pending(schedule: Scheduler, share: int) -> bool:
    """Hand due deliveries to ``schedule``, at most ``share`` of one subscription out at once;
    True when a batch limit was reached."""
    for _ in range(MAX_BATCHES):
        if await dispatch_due(schedule, limit=DISPATCH_BATCH, share=share) < DISPATCH_BATCH:
            return False
    return True


async def run_relay_loop(
    step: Step,
    wake: asyncio.Event,
    stopping: asyncio.Event,
    *,
    poll_seconds: float,
    describe_error: Callable[[Exception], str | None] = lambda _: None,
) -> None:
    """Run ``step`` whenever ``wake`` is set, at least every ``poll_seconds``, and again at once
    while it says work is left, until ``stopping`` is set. A failed step is logged (in one line
    when ``describe_error`` names the error, e.g. Redis being down) and tried again after a delay
    that doubles up to 10 s."""
    delay = 0.5
    while not stopping.is_set():
        wake.clear()
        try:
            if await step():
                await asyncio.sleep(0)
                continue
        except Exception as error:
            known = describe_error(error)
            if known:
                logger.warning("webhook relay paused: %s; trying again in %g s", known, delay)
            else:
                logger.exception("webhook relay failed; trying again in %g s", delay)
            await wait_for_any(stopping, seconds=delay)
            delay = min(delay * 2, MAX_ERROR_DELAY_SECONDS)
            continue
        delay = 0.5
        await wait_for_any(wake, stopping, seconds=poll_seconds)


async def wait_for_any(*events: asyncio.Event, seconds: float) -> bool:
    """Wait until one of ``events`` is set (True) or ``seconds`` pass (False)."""
    waiters = [asyncio.ensure_future(event.wait()) for event in events]
    try:
        done, _ = await asyncio.wait(waiters, timeout=seconds, return_when=asyncio.FIRST_COMPLETED)
    finally:
        for waiter in waiters:
            waiter.cancel()
    return bool(done)
