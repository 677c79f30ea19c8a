"""Webhook delivery inside the API process, for ``REDIS_URL`` unset (the demo).

The same services as the arq worker, with tasks of this process instead of arq jobs: the relay
loop relays the outbox and hands due deliveries to attempts started here. It wakes after every
commit of this process that gives it work (``app.services.outbox.wake_in_process``) and polls as
the safety net and the clock of retries, which follow the same policy, because the delivery log
(``next_attempt_at``) is what schedules them here too.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager

import httpx

from app.runtime.readiness import MigrationGate
from app.services.outbox import wake_in_process
from app.services.webhook_delivery import (
    AttemptBatches,
    DeliveryRef,
    InFlight,
    attempt_delivery,
    delivery_client,
    dispatch_due,
)
from app.settings import Settings
from workers.relay_loop import relay_pending, run_relay_loop

logger = logging.getLogger("ticketing.webhooks")

POLL_SECONDS = 0.5
CONCURRENCY = 20
PER_SUBSCRIPTION = 5
"""At most this many deliveries of one subscription handed out at once, so a slow endpoint leaves
room."""


async def _attempt(
    ref: DeliveryRef,
    client: httpx.AsyncBaseTransport,
    settings: Settings,
    slots: InFlight,
    batches: AttemptBatches,
) -> None:
    try:
        await attempt_delivery(
            ref, client=client, settings=settings, in_flight=slots, batches=batches
        )
    except Exception:
        logger.exception("webhook delivery attempt failed; it is retried when its lease ends")


async def run_in_process(
    settings: Settings, stop: asyncio.Event, gate: MigrationGate | None = None
) -> None:
    """Relay and deliver until ``stop`` is set; an error is logged and the loop goes on. Nothing
    is tried while the database is not migrated (``gate``)."""
    gate = gate or MigrationGate()
    wake = asyncio.Event()
    running: set[asyncio.Task[None]] = set()
    slots = InFlight(PER_SUBSCRIPTION)
    batches = AttemptBatches()
    forget = wake_in_process(wake.set)

    def finished(task: asyncio.Task[None]) -> None:
        running.discard(task)
        wake.set()

    async with delivery_client(settings, concurrency=CONCURRENCY) as client:

        async def start(refs: Sequence[DeliveryRef]) -> None:
            for ref in refs:
                task = asyncio.create_task(_attempt(ref, client, settings, slots, batches))
                running.add(task)
                task.add_done_callback(finished)

        async def step() -> bool:
            if not await gate.is_open():
                return False
            relayed_more = await relay_pending()
            room = CONCURRENCY - len(running)
            if room <= 0:
                return False
            handed = await dispatch_due(start, limit=room, share=PER_SUBSCRIPTION)
            return relayed_more or handed == room

        try:
            await run_relay_loop(step, wake, stop, poll_seconds=POLL_SECONDS)
        finally:
            forget()
            for task in running:
                task.cancel()
            await asyncio.gather(*running, return_exceptions=True)


@asynccontextmanager
async def in_process_delivery(settings: Settings, gate: MigrationGate) -> AsyncIterator[None]:
    """Run :func:`run_in_process` for the lifetime of the block (a Litestar lifespan)."""
    stop = asyncio.Event()
    task = asyncio.create_task(run_in_process(settings, stop, gate))
    try:
        yield
    finally:
        stop.set()
        await task
