"""Running the HTTP server (``ticketing serve`` and the demo): the one module that knows the
server is granian (its public embedding API, ``granian.Granian``).

What ``serve`` promises, each proved by ``tests/operations``: the line saying where it listens
names the real port (also for ``--port 0``) and is printed only once the port answers; SIGTERM
or SIGINT closes the port at once in every process, lets the requests in flight finish within
``TICKETING_SHUTDOWN_TIMEOUT_SECONDS`` (the application ends its never-ending streams itself,
``app.runtime.stopping``), and exits 0; a process that dies is replaced, and none outlives a
``kill -9`` of ``serve``; the processes of ``--workers N`` share one metrics directory; every log
line has the service's own format.
"""

from __future__ import annotations

import contextlib
import ctypes
import logging
import multiprocessing
import os
import shutil
import signal
import socket
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

from granian import Granian
from granian.constants import Interfaces, Loops
from granian.log import LogLevels
from litestar import Litestar

from app.runtime.addresses import url_host
from app.runtime.logging import configure_logging
from app.runtime.observability import MULTIPROCESS_DIRECTORY_VARIABLE
from app.settings import Settings

logger = logging.getLogger("ticketing.server")

APPLICATION = "ticketing.server:server_process_application"
"""The application factory each server process calls (settings from the environment)."""
SUPERVISOR_VARIABLE = "TICKETING_SERVER_SUPERVISOR_PID"
PR_SET_PDEATHSIG = 1
"""Linux's ``prctl`` option: a signal for this process when its parent ends."""
STARTUP_POLL_SECONDS = 0.05
STARTUP_LIMIT_SECONDS = 120.0
SERVER_LOGGING: dict[str, Any] = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {},
    "handlers": {},
    "loggers": {
        "_granian": {"handlers": [], "propagate": True},
        "granian.access": {"handlers": [], "propagate": False},
    },
}
"""Granian's own warnings and errors (a worker killed after the shutdown timeout, one that
exited) go through the service's handlers, in its format; its informational lines (among them
its own "Listening at", printed before the port answers) and its access log are off: the
application writes its own."""


def loop_name() -> str:
    """The event loop to serve with: uvloop wherever it installs (not on Windows)."""
    try:
        import uvloop  # noqa: F401
    except ImportError:
        return Loops.asyncio.value
    return Loops.uvloop.value


def server_process_application() -> Litestar:
    """The application of one server process, which ends with the process that started it: a
    ``kill -9`` of ``ticketing serve`` leaves no process serving on its port (Linux; elsewhere the
    process stays until its next stop signal)."""
    _end_with_supervisor()
    from ticketing.application import create_app

    return create_app()


def _end_with_supervisor() -> None:
    if sys.platform != "linux":
        return
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL) != 0:
        logger.warning("this server process will outlive its supervisor (prctl failed)")
        return
    if str(os.getppid()) != os.environ.get(SUPERVISOR_VARIABLE, str(os.getppid())):
        sys.exit("ticketing: the server stopped before this process started")


class PortInUse(Exception):
    """Something listens on the port already: one line naming it."""


def _family(host: str) -> socket.AddressFamily:
    return socket.AF_INET6 if ":" in host else socket.AF_INET


def check_port(host: str, port: int) -> None:
    """Raise :class:`PortInUse` when ``port`` on ``host`` cannot be bound. The probe does not
    share ports (no ``SO_REUSEPORT``), so it also finds another server of this user that would
    otherwise split the connections with this one."""
    if port == 0:
        return
    with socket.socket(_family(host), socket.SOCK_STREAM) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind((host, port))
        except OSError as error:
            raise PortInUse(
                f"port {port} on {host} is not free ({error.strerror}): stop what listens there "
                "or pass another --port"
            ) from None


@contextlib.contextmanager
def reserved_port(host: str, port: int) -> Iterator[int]:
    """The port to serve on: ``port`` once :func:`check_port` found it free, or for 0 one the
    system picks, held (bound, not listening, so it answers nothing) until the block ends, so
    that nothing else takes it before the server's processes bind it beside this socket
    (``SO_REUSEPORT``, as granian does)."""
    check_port(host, port)
    with socket.socket(_family(host), socket.SOCK_STREAM) as held:
        held.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sharing = hasattr(socket, "SO_REUSEPORT")  # not on Windows: there it is only picked
        if sharing:
            held.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
        held.bind((host, port))
        chosen = int(held.getsockname()[1])
        if not sharing:
            held.close()
        yield chosen


def _dial_address(host: str) -> str:
    """Where a connection to a server bound to ``host`` can be made from this machine."""
    if host in ("0.0.0.0", ""):
        return "127.0.0.1"
    if host == "::":
        return "::1"
    return host


def _announce_when_answering(
    host: str, port: int, description: str, then: Callable[[], None] | None
) -> None:
    """Log where the server listens once a connection to it succeeds (bounded poll), then call
    ``then``."""
    deadline = time.monotonic() + STARTUP_LIMIT_SECONDS
    while time.monotonic() < deadline:
        try:
            with socket.create_connection((_dial_address(host), port), timeout=1.0):
                break
        except OSError:
            time.sleep(STARTUP_POLL_SECONDS)
    else:
        logger.warning("nothing answers on port %d after %g s", port, STARTUP_LIMIT_SECONDS)
        return
    logger.info("listening on http://%s:%d (%s)", url_host(host), port, description)
    if then is not None:
        then()


def serve(
    *,
    host: str,
    port: int,
    workers: int,
    settings: Settings,
    when_answering: Callable[[], None] | None = None,
) -> None:
    """Serve the application of :data:`APPLICATION` in ``workers`` processes until SIGTERM or
    SIGINT; in-flight requests then get ``settings.shutdown_timeout_seconds`` to finish while new
    connections are refused. ``when_answering`` is called once the port answers (the demo prints
    its banner then, so that its commands work as soon as they are shown)."""
    configure_logging(settings.log_level, settings.log_format)
    metrics_directory = None
    if workers > 1 and settings.metrics:
        metrics_directory = tempfile.mkdtemp(prefix="ticketing-metrics-")
        os.environ[MULTIPROCESS_DIRECTORY_VARIABLE] = metrics_directory
    # Each process starts afresh rather than as a fork of this one: prometheus-client picks its
    # multiprocess mode when first imported, and this process has threads (the announcement).
    multiprocessing.set_start_method("spawn", force=True)
    os.environ[SUPERVISOR_VARIABLE] = str(os.getpid())
    loop = loop_name()
    processes = f"{workers} processes" if workers > 1 else "1 process"
    try:
        with reserved_port(host, port) as real_port:
            server = Granian(
                APPLICATION,
                address=host,
                port=real_port,
                interface=Interfaces.ASGI,
                workers=workers,
                loop=Loops(loop),
                factory=True,
                websockets=True,
                log_level=LogLevels.warning,
                log_dictconfig=SERVER_LOGGING,
                log_access=False,
                workers_kill_timeout=max(1, round(settings.shutdown_timeout_seconds)),
                respawn_failed_workers=True,
            )
            configure_logging(settings.log_level, settings.log_format)
            threading.Thread(
                target=_announce_when_answering,
                args=(host, real_port, f"{processes}; granian, {loop}", when_answering),
                daemon=True,
            ).start()
            server.serve()
    finally:
        if metrics_directory is not None:
            shutil.rmtree(metrics_directory, ignore_errors=True)
