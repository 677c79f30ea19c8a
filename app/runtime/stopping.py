"""The serving process's notice that it is stopping, given before the server waits for the
responses in flight (CONTRACT.md section 13, graceful shutdown).

On SIGTERM or SIGINT the server refuses new connections and waits, up to
``TICKETING_SHUTDOWN_TIMEOUT_SECONDS``, for the responses in flight to finish; the application's
lifespan shuts down only after that wait. A response that never ends by itself (the door view's
server-sent events) would therefore hold the process for the whole timeout, and a lifespan hook
would come too late to end it. While the application serves, :func:`announcing` puts a handler of
those signals in front of the server's own: it schedules every callback registered with
:func:`on_stop` on the event loop, then hands the signal to the server's handler as before.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import signal
import threading
from collections.abc import Callable, Iterator
from types import FrameType
from typing import Any

SIGNALS = (signal.SIGTERM, signal.SIGINT)

_callbacks: set[Callable[[], None]] = set()
_stopping = False


@contextlib.contextmanager
def on_stop(callback: Callable[[], None]) -> Iterator[None]:
    """While inside, ``callback`` is called (once, on the event loop) when the process starts to
    stop; at once if it already has."""
    if _stopping:
        callback()
    _callbacks.add(callback)
    try:
        yield
    finally:
        _callbacks.discard(callback)


def begin_stopping() -> None:
    """Call every registered callback: the process is stopping."""
    global _stopping
    _stopping = True
    for callback in list(_callbacks):
        callback()


@contextlib.contextmanager
def announcing() -> Iterator[None]:
    """While inside (the serving application's lifespan), SIGTERM and SIGINT call
    :func:`begin_stopping` before the handler installed earlier (the server's) runs. Nothing
    changes outside the main thread (signals reach only it) or for a signal with no Python
    handler (then nothing would wait for the responses in flight)."""
    global _stopping
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    _stopping = False
    loop = asyncio.get_running_loop()
    replaced: dict[signal.Signals, Any] = {}
    for signum in SIGNALS:
        handler = signal.getsignal(signum)
        if callable(handler):
            replaced[signum] = handler
            signal.signal(signum, functools.partial(_announce, loop, handler))
    try:
        yield
    finally:
        for signum, handler in replaced.items():
            signal.signal(signum, handler)


def _announce(
    loop: asyncio.AbstractEventLoop,
    then: Callable[[int, FrameType | None], Any],
    signum: int,
    frame: FrameType | None,
) -> None:
    loop.call_soon_threadsafe(begin_stopping)
    then(signum, frame)
