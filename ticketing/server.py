"""Running the HTTP server (``ticketing serve`` and the demo): the one module that knows the
server is uvicorn.

It binds the socket itself so that it can say where it listens (the real port, also for
``--port 0``), hands logging to the service's own set-up (one format for every line), bounds the
graceful shutdown, and gives the processes of ``--workers N`` one metrics directory for the run.
"""

from __future__ import annotations

import importlib.util
import logging
import os
import shutil
import signal
import sys
import tempfile
from typing import Any

import uvicorn
from uvicorn.supervisors import Multiprocess

from app.runtime.addresses import url_host
from app.runtime.logging import configure_logging
from app.runtime.observability import MULTIPROCESS_DIRECTORY_VARIABLE
from app.settings import Settings

logger = logging.getLogger("ticketing.server")


def fast_stack() -> tuple[str, str]:
    """The event loop and HTTP parser to serve with: uvloop and httptools (uvicorn's ``standard``
    extra, a dependency) wherever they install; asyncio and h11 where they cannot (uvloop has no
    Windows build)."""
    loop = "uvloop" if importlib.util.find_spec("uvloop") else "asyncio"
    http = "httptools" if importlib.util.find_spec("httptools") else "h11"
    return loop, http


def _exit_quietly(signum: int, _: Any) -> None:
    """After uvicorn's graceful shutdown it raises the signal again: end with status 0 then."""
    sys.exit(0)


def serve(app: Any, *, host: str, port: int, workers: int, settings: Settings) -> None:
    """Serve ``app`` (an ASGI application, or ``"module:factory"`` to build one per process)
    until SIGTERM or SIGINT; in-flight requests then get ``settings.shutdown_timeout_seconds`` to
    finish while new connections are refused."""
    configure_logging(settings.log_level, settings.log_format)
    metrics_directory = None
    if workers > 1 and settings.metrics:
        metrics_directory = tempfile.mkdtemp(prefix="ticketing-metrics-")
        os.environ[MULTIPROCESS_DIRECTORY_VARIABLE] = metrics_directory
    loop, http = fast_stack()
    config = uvicorn.Config(
        app,
        factory=isinstance(app, str),
        loop=loop,
        http=http,
        host=host,
        port=port,
        workers=workers,
        log_config=None,
        log_level="warning",
        access_log=False,
        timeout_graceful_shutdown=int(settings.shutdown_timeout_seconds),
    )
    sock = config.bind_socket()
    processes = f"{workers} processes" if workers > 1 else "1 process"
    logger.info(
        "listening on http://%s:%d (%s; %s, %s)",
        url_host(host), sock.getsockname()[1], processes, loop, http,
    )  # fmt: skip
    for signum in (signal.SIGTERM, signal.SIGINT):
        signal.signal(signum, _exit_quietly)
    try:
        if workers > 1:
            Multiprocess(config, sockets=[sock]).run()
        else:
            uvicorn.Server(config).run(sockets=[sock])
    finally:
        sock.close()
        if metrics_directory is not None:
            shutil.rmtree(metrics_directory, ignore_errors=True)
