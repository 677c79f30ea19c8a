"""Transactions of the bound engine, and work that must wait until one has committed.

Every service change runs in :func:`transaction`. A transaction opened inside another joins it
(Piccolo's nesting), so a caller (a batch) can make several service calls one unit. Work
registered with :func:`after_commit` (waking the outbox relay, publishing a live notification)
runs once the outermost transaction has committed: never before, and never for a change that
rolled back. Outside any transaction the work runs at once (a single statement commits by itself).

A whole request can run in one transaction (:func:`request_transaction`, for idempotent requests:
their stored answer commits with their change). Inside it each service transaction is a
savepoint, so that a service that fails is undone as it would have been on its own, and its
``after_commit`` work is dropped with it.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from contextvars import ContextVar
from typing import Any

from piccolo.engine.postgres import PostgresEngine

from db.engine import bound_engine

logger = logging.getLogger("ticketing.transactions")

AfterCommit = Callable[[], Awaitable[None]]

_pending: ContextVar[list[AfterCommit] | None] = ContextVar("after_commit", default=None)
_isolated: ContextVar[bool] = ContextVar("isolated", default=False)
"""Whether the next transaction opened is a service's inside a :func:`request_transaction`."""


def _current() -> Any:
    """The transaction open in this task (the engine's own class: PostgreSQL's or SQLite's)."""
    engine = bound_engine()
    assert engine is not None, "no engine is bound (db.engine.bind_engine)"
    current = engine.current_transaction.get()
    assert current is not None, "no transaction is open"
    return current


def in_transaction() -> bool:
    """Whether this task runs inside a :func:`transaction` (a statement then joins it)."""
    return _pending.get() is not None


def savepoint_next() -> bool:
    """Whether a :func:`transaction` opened now would be a savepoint of a
    :func:`request_transaction` (undone alone when it raises, the request going on)."""
    return _isolated.get()


@asynccontextmanager
async def transaction() -> AsyncIterator[None]:
    """A transaction of the bound engine (or a part of the one already open)."""
    engine = bound_engine()
    assert engine is not None, "no engine is bound (db.engine.bind_engine)"
    if _pending.get() is not None:
        if _isolated.get():
            async with _savepoint():
                yield
            return
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


@asynccontextmanager
async def request_transaction() -> AsyncIterator[None]:
    """One transaction around a whole request, each service transaction inside it a savepoint.

    The request's code may run concurrently (GraphQL resolves sibling fields at once), and on
    PostgreSQL one connection carries the whole transaction: its statements are sent one at a
    time (:class:`_OneAtATime`).
    """
    async with transaction():
        current = _current()
        serial = isinstance(bound_engine(), PostgresEngine)
        if serial:
            current.connection = _OneAtATime(current.connection)
        token = _isolated.set(True)
        try:
            yield
        finally:
            _isolated.reset(token)
            if serial:
                current.connection = current.connection.connection


@asynccontextmanager
async def _savepoint() -> AsyncIterator[None]:
    """A service transaction inside :func:`request_transaction`: rolled back to its start when
    it raises, its ``after_commit`` work kept only when it does not.

    The savepoint is not released (its work is kept until the request's commit either way);
    releasing would also release any savepoint a concurrent resolver set after it.
    """
    current = _current()
    savepoint = await current.savepoint()
    outer = _pending.get()
    assert outer is not None
    inner: list[AfterCommit] = []
    tokens = (_pending.set(inner), _isolated.set(False))
    try:
        yield
    except BaseException:
        await savepoint.rollback_to()
        raise
    else:
        outer.extend(inner)
    finally:
        _pending.reset(tokens[0])
        _isolated.reset(tokens[1])


class _OneAtATime:
    """An asyncpg connection whose statements wait for each other (asyncpg refuses a statement
    while another runs on the same connection)."""

    def __init__(self, connection: Any) -> None:
        self.connection = connection
        self._lock = asyncio.Lock()

    async def fetch(self, *args: Any, **kwargs: Any) -> Any:
        async with self._lock:
            return await self.connection.fetch(*args, **kwargs)

    async def execute(self, *args: Any, **kwargs: Any) -> Any:
        async with self._lock:
            return await self.connection.execute(*args, **kwargs)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.connection, name)


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
