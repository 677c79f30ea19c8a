"""``ticketing worker``: the process of webhook delivery. Three parts on one event loop:

- the relay loop (``workers/relay_loop.py``): outbox rows into deliveries, due deliveries into
  arq jobs, woken by the outbox's ``NOTIFY`` (``workers/outbox_listener.py``) and polling every
  second as the safety net and the clock of retries;
- arq's own worker running the ``deliver`` jobs, at most :data:`MAX_JOBS` at once, each
  attempting up to ``PAIRS_PER_JOB`` pairs at once (:data:`MAX_ATTEMPTS` in all); the relay hands
  out at most :data:`PER_SUBSCRIPTION` deliveries of one subscription at once (queued or in
  flight), and each finished attempt wakes it to hand out the next;
- optionally the metrics endpoint.

The arq worker is supervised: when Redis goes away arq's loop stops, and this module starts a new
worker once Redis answers again, so an outage needs no operator. Nothing is lost meanwhile: the
database keeps every event and delivery, and hands them to Redis once it is back.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
import time
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

import redis.exceptions
import uvloop
from arq import ArqRedis, Worker, create_pool, func
from arq.connections import RedisSettings

from app.runtime.addresses import url_host
from app.runtime.logging import configure_logging
from app.runtime.observability import sample_pool_usage
from app.runtime.readiness import MigrationGate, ReadinessProbe
from app.services.webhook_delivery import (
    DELIVERY_TIMEOUT_SECONDS,
    DISPATCH_SHARE,
    AttemptBatches,
    DeliveryRef,
    InFlight,
    delivery_client,
)
from app.settings import Settings
from workers.jobs import PAIRS_PER_JOB, deliver, enqueue_deliveries
from workers.metrics_endpoint import start_metrics_endpoint
from workers.outbox_listener import listen_for_work
from workers.relay_loop import dispatch_pending, relay_pending, run_relay_loop

logger = logging.getLogger("ticketing.worker")

JOB_TIMEOUT_SECONDS = DELIVERY_TIMEOUT_SECONDS + 5
"""Bounds every job; arq takes a job of a killed worker up again this long plus 10 s later."""
MAX_DELIVER_TRIES = 1
"""arq runs a job once: a job cut short (its worker stopped in the middle) is not run again by
arq, because the database already schedules each of its pairs again: an attempt cut short once
its claim's lease ends, a pair never claimed once its hand-out lease ends. Run again, the job
would also repeat, early, the attempts that had ended with a retry. The delivery log, not arq,
decides when and how often a delivery is tried."""
MAX_JOBS = 20
"""Jobs at once per worker."""
MAX_ATTEMPTS = MAX_JOBS * PAIRS_PER_JOB
"""Attempts in flight at once per worker, at most: waiting on an endpoint costs only a
coroutine, and the connections to all endpoints together are bounded by as many."""
PER_SUBSCRIPTION = DISPATCH_SHARE
"""Deliveries of one subscription handed out at once (the dispatcher's share, across workers) and
in flight at once in one worker: a slow or dead endpoint holds at most a quarter of a worker, the
rest goes on delivering to everybody else, and its further deliveries wait in the database."""
POLL_DELAY_SECONDS = 0.02
"""How often arq looks for new jobs: part of the outbox-to-receipt lag (half of it on average).
20 ms rather than arq's 50: about 1.2 % of a core more for an idle worker, and a lag p50 at 100
events/s of 48 to 59 ms instead of 63 to 130 ms under load (docs/decisions.md)."""
RELAY_POLL_SECONDS = 1.0
REDIS_ERRORS = (redis.exceptions.RedisError, OSError)
"""What a Redis going away raises. Not only ``ConnectionError``: redis-py turns a connection lost
during a ``WATCH`` (arq's job start) into a ``WatchError``, and a restarting Redis answers
``LOADING``; arq's loop stops on any of them, and the supervisor starts it again."""


def redis_settings(settings: Settings) -> RedisSettings:
    # One connection try: the callers' own backoff handles an outage, without arq's 5 tries.
    return replace(RedisSettings.from_dsn(settings.redis_url or ""), conn_retries=0)


def worker_options(settings: Settings, ctx: dict[str, Any]) -> dict[str, Any]:
    """Keyword arguments of arq's worker for ``settings``."""
    return {
        "functions": [func(deliver, name="deliver", max_tries=MAX_DELIVER_TRIES)],
        "queue_name": settings.queue_name,
        "redis_settings": redis_settings(settings),
        "ctx": ctx,
        "handle_signals": False,
        "job_timeout": JOB_TIMEOUT_SECONDS,
        "keep_result": 0,
        "max_jobs": MAX_JOBS,
        "poll_delay": POLL_DELAY_SECONDS,
    }


def _redis_down(error: Exception) -> str | None:
    return f"Redis is unavailable ({error})" if isinstance(error, REDIS_ERRORS) else None


async def _relay(settings: Settings, wake: asyncio.Event, stopping: asyncio.Event) -> None:
    """The relay loop, handing due deliveries to arq through a Redis connection of its own, woken
    by the outbox's notifications on PostgreSQL and by this worker's finished jobs (``wake``)."""
    pool: ArqRedis | None = None

    async def schedule(refs: Sequence[DeliveryRef]) -> None:
        nonlocal pool
        if pool is None:
            pool = await create_pool(redis_settings(settings))
        await enqueue_deliveries(pool, refs, settings)

    async def step() -> bool:
        relayed_more = await relay_pending()
        return await dispatch_pending(schedule, PER_SUBSCRIPTION) or relayed_more

    listener = None
    if not settings.is_sqlite:
        listener = asyncio.create_task(listen_for_work(settings.listen_url, wake.set, stopping))
    try:
        await run_relay_loop(
            step, wake, stopping, poll_seconds=RELAY_POLL_SECONDS, describe_error=_redis_down
        )
    finally:
        if listener is not None:
            listener.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await listener
        if pool is not None:
            with contextlib.suppress(*REDIS_ERRORS):
                await pool.aclose()


async def _run_until_stopped(worker: Worker, stopping: asyncio.Event, grace: float) -> None:
    """Run arq until it stops (Redis went away: its error propagates) or ``stopping`` is set.

    Either way the worker takes no new job and lets the attempts in flight end first: on stopping
    for up to ``grace`` seconds, after which arq cancels the rest and puts them back in the queue
    (a cancelled delivery is retried once its lease runs out); when Redis went away for up to
    :data:`JOB_TIMEOUT_SECONDS`, since an attempt needs only the database and its endpoint, and
    one cut short would be sent twice. Either way no delivery is lost.
    """
    main = asyncio.create_task(worker.main())
    stop = asyncio.create_task(stopping.wait())
    try:
        await asyncio.wait({main, stop}, return_when=asyncio.FIRST_COMPLETED)
        worker.allow_pick_jobs = False
        in_flight = [task for task in worker.tasks.values() if not task.done()]
        if main.done():
            if in_flight:
                await asyncio.wait(in_flight, timeout=JOB_TIMEOUT_SECONDS)
            main.result()
            return
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
    probe = None
    pool_gauges = None
    if metrics_address is not None:
        probe = ReadinessProbe(settings, MigrationGate())
        metrics = await start_metrics_endpoint(*metrics_address, probe)
        pool_gauges = asyncio.create_task(sample_pool_usage(lambda: pool_usage(engine), every=1.0))
        host, port = metrics.sockets[0].getsockname()[:2]
        logger.info("metrics on http://%s:%d/metrics", url_host(host), port)
    client = delivery_client(settings, concurrency=MAX_ATTEMPTS)
    wake = asyncio.Event()
    ctx = {
        "settings": settings,
        "http": client,
        "in_flight": InFlight(PER_SUBSCRIPTION),
        "batches": AttemptBatches(),
        "wake": wake.set,
    }
    relaying = asyncio.create_task(_relay(settings, wake, stopping))
    delay = 1.0
    try:
        while not stopping.is_set():
            started = time.monotonic()
            worker = Worker(**worker_options(settings, ctx))
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
        relaying.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await relaying
        if pool_gauges is not None:
            pool_gauges.cancel()
        if metrics is not None:
            metrics.close()
        if probe is not None:
            await probe.aclose()
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
    # uvloop, as ``ticketing serve`` runs on: the worker spends a fifth of its time in the event
    # loop and in socket writes (HTTP, Redis, PostgreSQL), which uvloop does in C.
    with asyncio.Runner(loop_factory=uvloop.new_event_loop) as runner:
        runner.run(supervised())
