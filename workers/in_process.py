"""Webhook delivery inside the API process, for ``REDIS_URL`` unset (the demo).

The same services as the arq jobs, driven by a polling loop instead of Redis: relay the outbox,
then attempt every pair that is due. Retries follow the same policy, because the delivery log
(``next_attempt_at``) is what schedules them here.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager

import httpx

from app.readiness import MigrationGate
from app.services.webhook_delivery import (
    DeliveryRef,
    attempt_delivery,
    delivery_client,
    due_deliveries,
    relay_outbox,
)
from app.settings import Settings
from app.timeutil import utcnow

logger = logging.getLogger("ticketing.webhooks")

POLL_SECONDS = 0.5
CONCURRENCY = 20


async def _nothing_to_schedule(_: Sequence[DeliveryRef]) -> None:
    """The poll of due pairs picks new deliveries up; there is no queue to hand them to."""


async def _attempt(ref: DeliveryRef, client: httpx.AsyncClient, settings: Settings) -> None:
    try:
        await attempt_delivery(ref, client=client, settings=settings)
    except Exception:
        logger.exception("webhook delivery attempt failed; it is retried when its lease ends")


async def run_in_process(
    settings: Settings, stop: asyncio.Event, gate: MigrationGate | None = None
) -> None:
    """Relay and deliver until ``stop`` is set; an error is logged and the loop goes on. Nothing
    is tried while the database is not migrated (``gate``)."""
    gate = gate or MigrationGate()
    in_flight: dict[DeliveryRef, asyncio.Task[None]] = {}
    async with delivery_client(settings) as client:
        try:
            while not stop.is_set():
                try:
                    if await gate.is_open():
                        await _relay_and_start(in_flight, client, settings)
                except Exception:
                    logger.exception("in-process webhook delivery failed; retrying")
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(stop.wait(), POLL_SECONDS)
        finally:
            for task in in_flight.values():
                task.cancel()
            await asyncio.gather(*in_flight.values(), return_exceptions=True)


async def _relay_and_start(
    in_flight: dict[DeliveryRef, asyncio.Task[None]],
    client: httpx.AsyncClient,
    settings: Settings,
) -> None:
    """Relay the whole outbox, then start an attempt of every due pair there is room for."""
    while await relay_outbox(_nothing_to_schedule):
        pass
    room = CONCURRENCY - len(in_flight)
    for ref in await due_deliveries(utcnow(), CONCURRENCY) if room > 0 else []:
        if ref not in in_flight and len(in_flight) < CONCURRENCY:
            task = asyncio.create_task(_attempt(ref, client, settings))
            in_flight[ref] = task
            task.add_done_callback(lambda _, ref=ref: in_flight.pop(ref, None))


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
