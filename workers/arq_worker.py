"""``ticketing worker``: the arq worker of webhook delivery (relay, deliver, recover).

The worker is supervised: when Redis goes away arq's loop stops, and this module starts a new
worker once Redis answers again, so an outage needs no operator. Nothing is lost meanwhile: the
outbox keeps every event until a relay has handed it to Redis.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
import time
from dataclasses import replace
from typing import Any

import redis.exceptions
from arq import cron, func
from arq.connections import RedisSettings
from arq.worker import Worker

from app.logging import configure_logging
from app.services.webhook_delivery import DELIVERY_TIMEOUT_SECONDS, delivery_client
from app.settings import Settings
from workers.jobs import deliver, recover, relay

logger = logging.getLogger("ticketing.worker")

JOB_TIMEOUT_SECONDS = DELIVERY_TIMEOUT_SECONDS + 5
"""Bounds every job; arq takes a job of a killed worker up again this long plus 10 s later."""
MAX_DELIVER_TRIES = 100
"""arq's own retry bound, far above the attempts the delivery log allows (it decides)."""
SHUTDOWN_SECONDS = 5.0
REDIS_ERRORS = (redis.exceptions.ConnectionError, redis.exceptions.TimeoutError, OSError)


def worker_options(settings: Settings, ctx: dict[str, Any]) -> dict[str, Any]:
    """Keyword arguments of :class:`arq.worker.Worker` for ``settings``.

    The cron jobs carry the queue name in their names: arq's job ids are global to a Redis, and
    two deployments (or two test runs) sharing one must not swallow each other's ticks.
    """
    every_second = set(range(60))
    return {
        "functions": [func(deliver, name="deliver", max_tries=MAX_DELIVER_TRIES)],
        "cron_jobs": [
            cron(
                relay, name=f"relay:{settings.queue_name}", second=every_second, run_at_startup=True
            ),
            cron(recover, name=f"recover:{settings.queue_name}", second={0}),
        ],
        "queue_name": settings.queue_name,
        # One connection try: run_worker's own backoff handles an outage, without arq's 5 tries.
        "redis_settings": replace(RedisSettings.from_dsn(settings.redis_url or ""), conn_retries=0),
        "ctx": ctx,
        "handle_signals": False,
        "job_timeout": JOB_TIMEOUT_SECONDS,
        "keep_result": 0,
        "max_jobs": 50,
        "poll_delay": 0.2,
    }


async def run_worker(settings: Settings) -> None:
    """Run arq until cancelled, starting it again whenever Redis drops out."""
    from db.engine import bind_engine, create_engine, start_engine, stop_engine

    engine = create_engine(settings)
    bind_engine(engine)
    await start_engine(engine)
    client = delivery_client(settings)
    delay = 1.0
    try:
        while True:
            started = time.monotonic()
            worker = Worker(**worker_options(settings, {"settings": settings, "http": client}))
            try:
                await worker.main()
            except REDIS_ERRORS as error:
                logger.warning("Redis is unavailable (%s); trying again shortly", error)
            finally:
                with contextlib.suppress(*REDIS_ERRORS):
                    await worker.close()
            delay = 1.0 if time.monotonic() - started > 60 else min(delay * 2, 10.0)
            await asyncio.sleep(delay)
    finally:
        await client.aclose()
        # A job cancelled at shutdown can leave a connection checked out, and closing the pool
        # waits for every connection: bound the wait so that SIGTERM always ends the process.
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(stop_engine(engine), SHUTDOWN_SECONDS)


def main(settings: Settings) -> None:
    """Entry point of ``ticketing worker``; SIGINT and SIGTERM stop it."""

    async def supervised() -> None:
        task = asyncio.current_task()
        assert task is not None
        loop = asyncio.get_running_loop()
        for signum in (signal.SIGINT, signal.SIGTERM):
            loop.add_signal_handler(signum, task.cancel)
        with contextlib.suppress(asyncio.CancelledError):
            await run_worker(settings)

    configure_logging(settings.log_level)
    logging.getLogger("arq").setLevel(logging.WARNING)
    asyncio.run(supervised())
