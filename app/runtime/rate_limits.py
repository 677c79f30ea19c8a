"""Request rate limits per credential (CONTRACT.md section 1: 429 with ``Retry-After``).

A fixed window of one minute per credential: an API key, or an OAuth client acting for one user
(every token a client obtains for that user shares the count, so minting new tokens does not reset
it). The first ``TICKETING_RATE_LIMIT_PER_MINUTE`` requests of a minute pass; the rest get a 429
until the next minute starts. The count lives in Redis when ``REDIS_URL`` is set, so every replica
shares it (``INCR`` and ``EXPIRE`` in one round trip); otherwise in this process, which is exact for
the single-process demo. 0 disables the limit.

When Redis cannot be reached the request is let through: an outage of the counter must not take
the API down with it. The outage is one line in the log when it starts and one when it ends
(``app.runtime.outages``).
"""

from __future__ import annotations

import math
import time
from typing import Protocol

import redis.asyncio as redis_asyncio
import redis.exceptions

from app.errors import RateLimited
from app.principal import Principal
from app.runtime.outages import REDIS
from app.settings import Settings

WINDOW_SECONDS = 60


class Counter(Protocol):
    async def hit(self, key: str, window: int) -> int:
        """Count one request for ``key`` in ``window``; the count so far, this one included."""
        ...


class MemoryCounter:
    """Counts of the current window, in this process; a new window drops the old counts."""

    def __init__(self) -> None:
        self._counts: dict[tuple[str, int], int] = {}
        self._window = 0

    async def hit(self, key: str, window: int) -> int:
        if window != self._window:
            self._counts = {k: v for k, v in self._counts.items() if k[1] >= window}
            self._window = window
        count = self._counts.get((key, window), 0) + 1
        self._counts[(key, window)] = count
        return count


class RedisCounter:
    """Counts in Redis, shared by every replica; each window's key expires after two windows.

    The keys are named under ``namespace`` (the deployment's ``TICKETING_QUEUE_NAME``, which
    names everything the service keeps in Redis)."""

    def __init__(self, url: str, *, namespace: str) -> None:
        self._client = redis_asyncio.Redis.from_url(url, socket_timeout=1, socket_connect_timeout=1)
        self._prefix = f"{namespace}:rate"

    async def hit(self, key: str, window: int) -> int:
        name = f"{self._prefix}:{key}:{window}"
        try:
            async with self._client.pipeline(transaction=True) as pipeline:
                pipeline.incr(name)
                pipeline.expire(name, 2 * WINDOW_SECONDS)
                count, _ = await pipeline.execute()
        except (redis.exceptions.RedisError, OSError) as error:
            REDIS.failed(error)
            raise
        REDIS.answered()
        return int(count)


_counters: dict[tuple[str | None, str], Counter] = {}


def counter_for(settings: Settings) -> Counter:
    """The process's counter for the configured Redis (or for none)."""
    place = (settings.redis_url, settings.queue_name)
    counter = _counters.get(place)
    if counter is None:
        counter = (
            MemoryCounter()
            if settings.redis_url is None
            else RedisCounter(settings.redis_url, namespace=settings.queue_name)
        )
        _counters[place] = counter
    return counter


def credential_key(principal: Principal) -> str:
    if principal.credential == "oauth":
        return f"oauth:{principal.client_id}:{principal.user_id}"
    return f"key:{principal.credential_id}"


async def check_rate(
    credential: str,
    *,
    limit: int,
    counter: Counter,
    now: float | None = None,
) -> None:
    """Count a request of ``credential``; :class:`RateLimited` when it is over ``limit``."""
    if limit <= 0:
        return
    now = time.time() if now is None else now
    window = int(now // WINDOW_SECONDS)
    try:
        count = await counter.hit(credential, window)
    except (redis.exceptions.RedisError, OSError):
        return  # let through: the counter's outage is logged once (``RedisCounter.hit``)
    if count > limit:
        retry_after = max(1, math.ceil((window + 1) * WINDOW_SECONDS - now))
        raise RateLimited(
            f"This credential may make {limit} requests per minute; retry in {retry_after} s",
            retry_after=retry_after,
        )


async def enforce_rate_limit(principal: Principal, settings: Settings) -> None:
    """Count one request of the principal's credential against the configured limit."""
    await check_rate(
        credential_key(principal),
        limit=settings.rate_limit_per_minute,
        counter=counter_for(settings),
    )
