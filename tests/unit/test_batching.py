"""``app.runtime.batching.Batcher``: calls that arrive while a batch runs go together in the next
one, each caller gets its own result (or the batch's error), and a caller that gives up leaves
the others' batch alone."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence

import pytest

from app.runtime.batching import Batcher


class Doubler:
    """Doubles numbers, one batch at a time, each batch waiting until ``go`` is set."""

    def __init__(self) -> None:
        self.batches: list[list[int]] = []
        self.go = asyncio.Event()

    async def run(self, items: Sequence[int]) -> list[int]:
        self.batches.append(list(items))
        await self.go.wait()
        if any(item < 0 for item in items):
            raise ValueError("negative")
        return [item * 2 for item in items]


async def test_calls_during_a_batch_go_together_in_the_next_one() -> None:
    doubler = Doubler()
    batcher = Batcher(doubler.run, max_size=3)
    first = asyncio.create_task(batcher.submit(1))
    await asyncio.sleep(0)
    rest = [asyncio.create_task(batcher.submit(n)) for n in range(2, 7)]
    await asyncio.sleep(0)
    doubler.go.set()
    assert await asyncio.gather(first, *rest) == [2, 4, 6, 8, 10, 12]
    assert doubler.batches == [[1], [2, 3, 4], [5, 6]]


async def test_a_failed_batch_fails_its_callers_only() -> None:
    doubler = Doubler()
    batcher = Batcher(doubler.run, max_size=2)
    doubler.go.set()
    failing = [asyncio.create_task(batcher.submit(n)) for n in (1, -1)]
    fine = asyncio.create_task(batcher.submit(3))
    results = await asyncio.gather(*failing, fine, return_exceptions=True)
    assert [type(result) for result in results[:2]] == [ValueError, ValueError]
    assert results[2] == 6


async def test_a_caller_that_gives_up_leaves_the_batch_to_the_others() -> None:
    doubler = Doubler()
    batcher = Batcher(doubler.run, max_size=10)
    leaving = asyncio.create_task(batcher.submit(1))
    staying = asyncio.create_task(batcher.submit(2))
    await asyncio.sleep(0)
    leaving.cancel()
    doubler.go.set()
    assert await staying == 4
    with pytest.raises(asyncio.CancelledError):
        await leaving
    assert doubler.batches == [[1, 2]]
