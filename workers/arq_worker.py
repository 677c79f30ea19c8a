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
from app.observability import sample_pool_usage
from app.server import url_host
from app.services.webhook_delivery import DELIVERY_TIMEOUT_SECONDS, delivery_client
from app.settings import Settings
from workers.jobs import deliver, recover, relay
from workers.metrics_endpoint import start_metrics_endpoint

logger = logging.getLogger("ticketing.worker")

JOB_TIMEOUT_SECONDS = DELIVERY_TIMEOUT_SECONDS + 5
"""Bounds every job; arq takes a job of a killed worker up again this long plus 10 s later."""
MAX_DELIVER_TRIES = 100
"""arq's own retry bound, far above the attempts the delivery log allows (it decides)."""
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


async def _run_until_stopped(worker: Worker, stopping: asyncio.Event, grace: float) -> None:
    """Run arq until it stops (Redis went away: its error propagates) or ``stopping`` is set.

    On stopping, the worker takes no new job and waits up to ``grace`` seconds for those in
    flight; arq then cancels the rest and puts them back in the queue, and a cancelled delivery
    is retried once its lease runs out. Either way no delivery is lost.
    """
    main = asyncio.create_task(worker.main())
    stop = asyncio.create_task(stopping.wait())
    try:
        await asyncio.wait({main, stop}, return_when=asyncio.FIRST_COMPLETED)
        if main.done():
            main.result()
            return
        worker.allow_pick_jobs = False
        in_flight = [task for task in worker.tasks.values() if not task.done()]
        logger.info("stopping: waiting up to %g s for %d jobs in flight", grace, len(in_flight))
        if in_flight:
            await asyncio.wait(in_flight, timeout=grace)
    finally:
        stop.cancel()
        main.cancel()
        with contextlib.suppress(asyncio.CancelledError, *REDIS_ERRORS):
            await main


async def run_worker(
    settings: Settings, stopping: asyncio.Event, metrics_address: tuple[str, int] | None = None
) -> None:
    """Run arq until ``stopping`` is set, starting it again whenever Redis drops out."""
    from db.engine import bind_engine, create_engine, pool_usage, start_engine, stop_engine

    engine = create_engine(settings)
    bind_engine(engine)
    await start_engine(engine)
    metrics = None
    pool_gauges = None
    if metrics_address is not None:
        metrics = await start_metrics_endpoint(*metrics_address)
        pool_gauges = asyncio.create_task(sample_pool_usage(lambda: pool_usage(engine), every=1.0))
        host, port = metrics.sockets[0].getsockname()[:2]
        logger.info("metrics on http://%s:%d/metrics", url_host(host), port)
    client = delivery_client(settings)
    delay = 1.0
    try:
        while not stopping.is_set():
            started = time.monotonic()
            worker = Worker(**worker_options(settings, {"settings": settings, "http": client}))
            try:
                await _run_until_stopped(worker, stopping, settings.shutdown_timeout_seconds)
            except REDIS_ERRORS as error:
                logger.warning("Redis is unavailable (%s); trying again shortly", error)
            finally:
                with contextlib.suppress(*REDIS_ERRORS):
                    await worker.close()
            delay = 1.0 if time.monotonic() - started > 60 else min(delay * 2, 10.0)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(stopping.wait(), delay)
    finally:
        if pool_gauges is not None:
            pool_gauges.cancel()
        if metrics is not None:
            metrics.close()
        await client.aclose()
        await stop_engine(engine)  # bounded: a cancelled job may hold a connection


def main(
    settings: Settings, metrics_host: str = "127.0.0.1", metrics_port: int | None = None
) -> None:
    """Entry point of ``ticketing worker``. SIGTERM or SIGINT stops it gracefully (see
    :func:`_run_until_stopped`); a second one stops it at once."""

    async def supervised() -> None:
        task = asyncio.current_task()
        assert task is not None
        stopping = asyncio.Event()

        def stop() -> None:
            if stopping.is_set():
                task.cancel()
            stopping.set()

        loop = asyncio.get_running_loop()
        for signum in (signal.SIGINT, signal.SIGTERM):
            loop.add_signal_handler(signum, stop)
        address = None if metrics_port is None else (metrics_host, metrics_port)
        with contextlib.suppress(asyncio.CancelledError):
            await run_worker(settings, stopping, address)

    configure_logging(settings.log_level, settings.log_format)
    asyncio.run(supervised())
