"""Coalescing concurrent calls into batches: one statement for many callers.

A :class:`Batcher` runs its function at once for the first item; items that arrive while that
batch is under way wait and go together in the next one. An idle process therefore pays no delay
(one turn of the event loop), and a busy one pays one round trip per batch instead of one per
item: the batch grows with the load.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Sequence
from typing import Generic, TypeVar

Item = TypeVar("Item")
Result = TypeVar("Result")


class Batcher(Generic[Item, Result]):
    """``await batcher.submit(item)`` is ``run([item, ...])``'s result for ``item``: ``run``
    takes a batch of at most ``max_size`` items and returns one result per item, in order.

    When ``run`` fails, every caller of that batch gets its exception. A caller that is cancelled
    while waiting does not cancel the batch (other callers wait on it): its item is handled
    either way, as a statement already sent would be; only its result is dropped."""

    def __init__(
        self, run: Callable[[Sequence[Item]], Awaitable[Sequence[Result]]], *, max_size: int
    ) -> None:
        self._run = run
        self._max_size = max_size
        self._waiting: list[tuple[Item, asyncio.Future[Result]]] = []
        self._draining: asyncio.Task[None] | None = None

    async def submit(self, item: Item) -> Result:
        future: asyncio.Future[Result] = asyncio.get_running_loop().create_future()
        self._waiting.append((item, future))
        if self._draining is None:
            self._draining = asyncio.create_task(self._drain())
        return await future

    async def _drain(self) -> None:
        batch: list[tuple[Item, asyncio.Future[Result]]] = []
        try:
            while self._waiting:
                batch = self._waiting[: self._max_size]
                del self._waiting[: self._max_size]
                try:
                    results = await self._run([item for item, _ in batch])
                except Exception as error:
                    for _, future in batch:
                        if not future.done():
                            future.set_exception(error)
                    continue
                for (_, future), result in zip(batch, results, strict=True):
                    if not future.done():
                        future.set_result(result)
        finally:
            self._draining = None
            for _, future in [*batch, *self._waiting]:  # left only when this task is cancelled
                future.cancel()
            self._waiting.clear()
