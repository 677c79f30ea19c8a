"""arq, many jobs per Redis round trip: the one module that relies on arq's internals.

arq enqueues a job in three round trips (``WATCH``, ``EXISTS``, ``MULTI``/``EXEC``), its worker
starts each job in four, one after the other in its poll loop (``WATCH``, ``EXISTS``, ``ZSCORE``,
``MULTI``/``EXEC``), and finishes it in one: eight of the nine round trips of a delivery, and a
quarter of the worker's time at hundreds of deliveries a second. Here enqueueing and starting are
one Lua script per batch, which Redis runs atomically, and finishing one transaction per batch,
so they keep arq's guarantees exactly:

- :func:`enqueue_jobs` writes a job only when neither its job key nor its result key exists (what
  ``ArqRedis.enqueue_job`` checks under ``WATCH``): a job id is never enqueued twice;
- :class:`BatchStartWorker` starts a job only when no in-progress key exists and its score is due
  (what ``Worker.start_jobs`` checks under ``WATCH``), setting the in-progress key as arq does,
  and finishes the jobs that end together in one transaction (``Worker.finish_job``'s commands
  for each); the run itself (``run_job``) is arq's own.

What they use of arq: the key prefixes (``arq.constants``), the job encoding
(``arq.jobs.serialize_job``), and the worker's ``start_jobs`` and ``finish_job`` hooks with the
attributes it keeps (``job_counter``, ``sem``, ``tasks``, ``in_progress_timeout_s``).
``tests/webhooks/test_arq_batches.py`` checks each against arq itself, so an arq upgrade that
changes one fails there.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from arq import ArqRedis
from arq.constants import (
    abort_jobs_ss,
    in_progress_key_prefix,
    job_key_prefix,
    result_key_prefix,
    retry_key_prefix,
)
from arq.jobs import serialize_job
from arq.utils import timestamp_ms
from arq.worker import Worker
from redis.commands.core import AsyncScript

from app.runtime.batching import Batcher

FINISH_BATCH = 500

ENQUEUE = """
local queue, score, expires, job_prefix, result_prefix = KEYS[1], ARGV[1], ARGV[2], ARGV[3], ARGV[4]
local added = {}
for i = 5, #ARGV, 2 do
  local id = ARGV[i]
  if redis.call('EXISTS', job_prefix .. id, result_prefix .. id) == 0 then
    redis.call('PSETEX', job_prefix .. id, expires, ARGV[i + 1])
    redis.call('ZADD', queue, score, id)
    added[#added + 1] = id
  end
end
return added
"""

START = """
local queue, now, timeout, prefix = KEYS[1], tonumber(ARGV[1]), ARGV[2], ARGV[3]
local room = tonumber(ARGV[4])
local started = {}
for i = 5, #ARGV do
  if #started >= 2 * room then
    break
  end
  local id = ARGV[i]
  if redis.call('EXISTS', prefix .. id) == 0 then
    local score = redis.call('ZSCORE', queue, id)
    if score and tonumber(score) <= now then
      redis.call('PSETEX', prefix .. id, timeout, '1')
      started[#started + 1] = id
      started[#started + 1] = score
    end
  end
end
return started
"""


def _script(redis: ArqRedis, source: str) -> AsyncScript:
    """``source`` to run on ``redis`` by its digest (``EVALSHA``), loaded first whenever Redis
    does not have it (the first call, and after a restart)."""
    return redis.register_script(source)


async def enqueue_jobs(
    redis: ArqRedis,
    function: str,
    jobs: Sequence[tuple[str, tuple[Any, ...]]],
    *,
    queue_name: str,
    expires_ms: int,
) -> list[str]:
    """Enqueue one job of ``function`` per ``(job_id, args)``, due now, in one round trip; the ids
    enqueued (an id whose job is queued, running or has a result is left alone, as
    ``ArqRedis.enqueue_job`` does)."""
    if not jobs:
        return []
    now = timestamp_ms()
    args: list[Any] = [now, expires_ms, job_key_prefix, result_key_prefix]
    for job_id, job_args in jobs:
        data = serialize_job(function, job_args, {}, None, now, serializer=redis.job_serializer)
        args += [job_id, data]
    added = await _script(redis, ENQUEUE)(keys=[queue_name], args=args)
    return [job_id.decode() for job_id in added]


class BatchStartWorker(Worker):
    """arq's worker, starting the jobs of each poll in one round trip instead of four each, and
    finishing jobs together: the jobs that end while the previous finish is under way are
    finished in the next one (``app.runtime.batching``), a round trip for many."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._finishes = Batcher(self._finish_all, max_size=FINISH_BATCH)

    async def finish_job(
        self,
        job_id: str,
        finish: bool,
        result_data: bytes | None,
        result_timeout_s: float | None,
        keep_result_forever: bool,
        incr_score: int | None,
        keep_in_progress: float | None,
    ) -> None:
        """A job that ended with nothing to keep (no result, no in-progress marker: every
        ``deliver`` job) is finished in a batch; anything else as arq does."""
        if finish and not result_data and keep_in_progress is None:
            await self._finishes.submit(job_id)
            return
        await super().finish_job(
            job_id, finish, result_data, result_timeout_s, keep_result_forever, incr_score,
            keep_in_progress,
        )  # fmt: skip

    async def _finish_all(self, job_ids: Sequence[str]) -> list[None]:
        """What ``Worker.finish_job`` does for each finished job, for all of them at once."""
        async with self.pool.pipeline(transaction=True) as transaction:
            transaction.delete(
                *[
                    prefix + job_id
                    for job_id in job_ids
                    for prefix in (in_progress_key_prefix, retry_key_prefix, job_key_prefix)
                ]
            )
            transaction.zrem(abort_jobs_ss, *job_ids)
            transaction.zrem(self.queue_name, *job_ids)
            await transaction.execute()
        return [None] * len(job_ids)

    async def start_jobs(self, job_ids: list[bytes]) -> None:
        room = self.max_jobs - self.job_counter
        if room <= 0 or not job_ids:
            return
        started = await _script(self.pool, START)(
            keys=[self.queue_name],
            args=[
                timestamp_ms(),
                int(self.in_progress_timeout_s * 1000),
                in_progress_key_prefix,
                room,
                *job_ids,  # the running ones among them (the oldest, first) take no room
            ],
        )
        for index in range(0, len(started), 2):
            job_id, score = started[index].decode(), int(float(started[index + 1]))
            await self.sem.acquire()  # never waits: there was room for every job started
            self.job_counter += 1
            task = self.loop.create_task(self.run_job(job_id, score))
            task.add_done_callback(lambda _: self._release_sem_dec_counter_on_complete())
            self.tasks[job_id] = task
