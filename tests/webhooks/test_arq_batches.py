"""``workers/arq_batches.py`` against arq itself and a real Redis: jobs it enqueues are arq's own
jobs, an id is never enqueued twice whichever of the two enqueued it first, and its worker starts
each due job once, leaving alone a job that another worker runs. An arq upgrade that changes the
keys, the job encoding or the worker's start hook fails here."""

from __future__ import annotations

import asyncio
import inspect
import uuid
from collections.abc import AsyncIterator, Callable
from typing import Any

import pytest
from arq import create_pool, func
from arq.connections import ArqRedis, RedisSettings
from arq.constants import in_progress_key_prefix, job_key_prefix, result_key_prefix
from arq.jobs import Job, JobStatus
from arq.worker import Worker

from tests.harness import REDIS_URL
from workers.arq_batches import BatchStartWorker, enqueue_jobs

EXPIRES_MS = 60_000


@pytest.fixture
async def queue() -> AsyncIterator[tuple[ArqRedis, str]]:
    name = f"test-arq-batches:{uuid.uuid4().hex}"
    pool = await create_pool(RedisSettings.from_dsn(REDIS_URL), default_queue_name=name)
    try:
        yield pool, name
    finally:
        keys = [key async for key in pool.scan_iter(match=f"arq:*{name}*")]
        await pool.delete(name, *keys)
        await pool.aclose()


async def test_enqueued_jobs_are_arqs_and_an_id_is_never_enqueued_twice(
    queue: tuple[ArqRedis, str],
) -> None:
    pool, name = queue
    first, second, by_arq, finished = (f"{name}:{n}" for n in range(4))
    assert await enqueue_jobs(
        pool, "deliver", [(first, ("a", "b")), (second, ("c", "d"))], queue_name=name,
        expires_ms=EXPIRES_MS,
    ) == [first, second]  # fmt: skip
    info = await Job(first, pool, _queue_name=name).info()
    assert info is not None
    assert (info.function, info.args, info.kwargs) == ("deliver", ("a", "b"), {})
    assert await Job(second, pool, _queue_name=name).status() == JobStatus.queued
    assert 0 < await pool.pttl(job_key_prefix + first) <= EXPIRES_MS

    assert await pool.enqueue_job("deliver", _job_id=first, _queue_name=name) is None
    assert await pool.enqueue_job("deliver", _job_id=by_arq, _queue_name=name) is not None
    await pool.set(result_key_prefix + finished, b"done")
    assert await enqueue_jobs(
        pool, "deliver", [(first, ()), (by_arq, ()), (finished, ()), (second, ())],
        queue_name=name, expires_ms=EXPIRES_MS,
    ) == []  # fmt: skip
    queued = [job.decode() for job in await pool.zrange(name, 0, -1)]
    assert sorted(queued) == sorted([first, second, by_arq])


async def test_the_worker_starts_each_due_job_once_and_leaves_others_running_alone(
    queue: tuple[ArqRedis, str],
) -> None:
    pool, name = queue
    ran: list[str] = []

    async def deliver(ctx: dict[str, Any], label: str) -> None:
        ran.append(label)

    # The job another worker runs is the oldest, first in the queue: it must take no room.
    await pool.enqueue_job("deliver", "elsewhere", _job_id=f"{name}:elsewhere", _queue_name=name)
    await pool.set(in_progress_key_prefix + f"{name}:elsewhere", b"1", px=EXPIRES_MS)
    ours = [(f"{name}:ours:{n}", (f"ours-{n}",)) for n in range(30)]
    await enqueue_jobs(pool, "deliver", ours, queue_name=name, expires_ms=EXPIRES_MS)
    await pool.enqueue_job("deliver", "arqs", _job_id=f"{name}:arqs", _queue_name=name)
    await pool.enqueue_job(
        "deliver", "later", _job_id=f"{name}:later", _queue_name=name, _defer_by=3600
    )
    worker = Polls(
        functions=[func(deliver, name="deliver")], queue_name=name, redis_pool=pool, max_jobs=1,
        poll_delay=0.01, keep_result=0, handle_signals=False,
    )  # fmt: skip
    running = asyncio.create_task(worker.main())  # the pool is the fixture's to close
    try:
        await until(lambda: len(ran) >= 31)
        seen = worker.polls
        await until(lambda: worker.polls >= seen + 2)  # the remaining ids were offered again
    finally:
        running.cancel()
        await asyncio.gather(running, return_exceptions=True)
    assert sorted(ran) == sorted([*(f"ours-{n}" for n in range(30)), "arqs"])
    assert worker.jobs_complete == 31
    left = sorted(job.decode() for job in await pool.zrange(name, 0, -1))
    assert left == [f"{name}:elsewhere", f"{name}:later"]
    kept = sorted([key.decode() async for key in pool.scan_iter(match=f"arq:*{name}*")])
    assert kept == sorted(
        [f"{job_key_prefix}{name}:{job}" for job in ("elsewhere", "later")]
        + [f"{in_progress_key_prefix}{name}:elsewhere"]
    ), "a finished job left keys behind"


class Polls(BatchStartWorker):
    """Counts the polls that found due jobs."""

    polls = 0

    async def start_jobs(self, job_ids: list[bytes]) -> None:
        self.polls += 1
        await super().start_jobs(job_ids)


async def until(condition: Callable[[], bool], within: float = 30.0) -> None:
    deadline = asyncio.get_running_loop().time() + within
    while not condition():
        assert asyncio.get_running_loop().time() < deadline, "not within the bound"
        await asyncio.sleep(0.01)


def test_the_start_hook_is_arqs() -> None:
    """The worker overrides ``Worker.start_jobs`` (called by arq's poll loop with the due job
    ids) and ``Worker.finish_job`` (called by ``run_job``), and keeps arq's bookkeeping, which it
    reads and writes."""
    ours, arqs = (
        inspect.signature(cls.start_jobs).parameters for cls in (BatchStartWorker, Worker)
    )
    assert list(ours) == list(arqs)
    source = inspect.getsource(Worker)
    assert "await self.start_jobs(job_ids)" in source

    async def noop(ctx: dict[str, Any]) -> None:
        pass

    worker = Worker(functions=[func(noop, name="noop")], handle_signals=False)
    assert isinstance(worker.job_counter, int)
    assert isinstance(worker.sem, asyncio.BoundedSemaphore)
    assert isinstance(worker.tasks, dict)
    assert worker.in_progress_timeout_s > 0
    assert callable(worker._release_sem_dec_counter_on_complete)
