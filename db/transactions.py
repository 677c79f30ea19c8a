"""Transactions of the bound engine, and work that must wait until one has committed.

Every service change runs in :func:`transaction`. A transaction opened inside another joins it
(Piccolo's nesting), so a caller (an idempotent request, a batch) can make several service calls
one unit. Work registered with :func:`after_commit` (waking the outbox relay, publishing a live
notification) runs once the outermost transaction has committed: never before, and never for a
change that rolled back. Outside any transaction the work runs at once (a single statement
commits by itself).
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from contextvars import ContextVar

from db.engine import bound_engine

logger = logging.getLogger("ticketing.transactions")

AfterCommit = Callable[[], Awaitable[None]]

_pending: ContextVar[list[AfterCommit] | None] = ContextVar("after_commit", default=None)


@asynccontextmanager
async def transaction() -> AsyncIterator[None]:
    """A transaction of the bound engine (or a part of the one already open)."""
    engine = bound_engine()
    assert engine is not None, "no engine is bound (db.engine.bind_engine)"
    if _pending.get() is not None:
        async with engine.transaction():
            yield
        return
    token = _pending.set([])
    try:
        async with engine.transaction():
            yield
        committed = _pending.get() or []
    finally:
        _pending.reset(token)
    for work in committed:
        await _run(work)


async def after_commit(work: AfterCommit) -> None:
    """Run ``work`` once the current transaction commits (at once when there is none)."""
    pending = _pending.get()
    if pending is None:
        await _run(work)
    else:
        pending.append(work)


async def _run(work: AfterCommit) -> None:
    """The change is committed: a failure here is logged, never turned into the request's."""
    try:
        await work()
    except Exception:
        logger.exception("work after a commit failed")
