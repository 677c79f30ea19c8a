"""The serving process's notice that it is stopping, given before the server drains (CONTRACT.md
section 13, graceful shutdown).

On SIGTERM or SIGINT the server (granian) refuses new connections, lets the HTTP responses in
flight finish within ``TICKETING_SHUTDOWN_TIMEOUT_SECONDS``, and drops every WebSocket at once,
without a close frame (https://github.com/emmett-framework/granian/issues/796); the application's
lifespan shuts down only after the drain. So the streams that never end by themselves (the door
view's server-sent events, GraphQL subscriptions) must be ended before the server sees the
signal, and a lifespan hook would come too late.

While the application serves, :func:`announcing` takes SIGTERM (what Docker, Kubernetes and
``ticketing serve``'s own supervisor send) on the event loop: every callback registered with
:func:`on_stop` runs (``/readyz`` turns 503, door streams end, subscriptions close with 1012),
and once they have left (or after :data:`STREAMS_CLOSE_SECONDS`) the process sends itself SIGINT,
which the server handles as its stop signal. A SIGINT from outside (Ctrl+C) still runs the
callbacks first, through a handler put in front of the server's; the server then drops the
WebSockets without their 1012.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import os
import signal
import threading
from collections.abc import Callable, Iterator
from types import FrameType
from typing import Any

STREAMS_CLOSE_SECONDS = 2.0
"""How long the streams get to close before the server is told to stop anyway."""

_callbacks: set[Callable[[], None]] = set()
_stopping = False
_all_left = asyncio.Event()
"""Set whenever the last registered stream leaves."""
_stop_tasks: set[asyncio.Task[None]] = set()


@contextlib.contextmanager
def on_stop(callback: Callable[[], None]) -> Iterator[None]:
    """While inside, ``callback`` is called (once, on the event loop) when the process starts to
    stop; at once if it already has. Leave the block once the stream has ended: the server is
    told to stop when every block has been left."""
    if _stopping:
        callback()
    _callbacks.add(callback)
    try:
        yield
    finally:
        _callbacks.discard(callback)
        if not _callbacks:
            _all_left.set()


def is_stopping() -> bool:
    """Whether the process has been told to stop (``/readyz`` then answers 503)."""
    return _stopping


def begin_stopping() -> None:
    """Call every registered callback: the process is stopping."""
    global _stopping
    _stopping = True
    for callback in list(_callbacks):
        callback()


@contextlib.contextmanager
def announcing() -> Iterator[None]:
    """While inside (the serving application's lifespan), SIGTERM ends the streams first and then
    stops the server (as SIGINT); SIGINT calls :func:`begin_stopping` before the handler installed
    earlier (the server's) runs. Nothing changes outside the main thread (signals reach only it)
    or on an event loop without signal handlers."""
    global _stopping
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    _stopping = False
    loop = asyncio.get_running_loop()
    with contextlib.suppress(NotImplementedError):
        loop.add_signal_handler(signal.SIGTERM, _end_streams_then_stop, loop)
    server_handler = signal.getsignal(signal.SIGINT)
    if callable(server_handler):
        signal.signal(signal.SIGINT, functools.partial(_announce, loop, server_handler))
    try:
        yield
    finally:
        if callable(server_handler):
            signal.signal(signal.SIGINT, server_handler)


def _end_streams_then_stop(loop: asyncio.AbstractEventLoop) -> None:
    if _stopping:  # told again: stop now
        os.kill(os.getpid(), signal.SIGINT)
        return
    begin_stopping()
    task = loop.create_task(_stop_once_streams_ended())
    _stop_tasks.add(task)
    task.add_done_callback(_stop_tasks.discard)


async def _stop_once_streams_ended() -> None:
    if _callbacks:
        _all_left.clear()
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(_all_left.wait(), STREAMS_CLOSE_SECONDS)
    os.kill(os.getpid(), signal.SIGINT)


def _announce(
    loop: asyncio.AbstractEventLoop,
    then: Callable[[int, FrameType | None], Any],
    signum: int,
    frame: FrameType | None,
) -> None:
    loop.call_soon_threadsafe(begin_stopping)
    then(signum, frame)
