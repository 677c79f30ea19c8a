"""Logging set-up: plain text or one JSON object per line (``TICKETING_LOG_FORMAT``).

Credentials never reach the logs: nothing of ours logs headers, bodies, query strings or webhook
URLs, and the libraries that would log URLs (webhook subscribers put tokens in them) or tokens
are quieted. Structured fields travel as ``extra={...}`` on the log call; the JSON format writes
the known ones (:data:`FIELDS`) as members, the text format appends them as ``name=value``.
"""

from __future__ import annotations

import functools
import json
import logging
import sys
import time
from typing import Any, TextIO

QUIET_LOGGERS = {
    "httpx": logging.WARNING,  # every request URL at INFO
    "httpcore": logging.WARNING,
    "authlib": logging.INFO,  # every issued access and refresh token at DEBUG
    "arq": logging.WARNING,  # a line per job
    "asyncio": logging.WARNING,
}

FIELDS = (
    "request_id",
    "method",
    "route",
    "path",
    "status",
    "duration_ms",
    "organization",
    "job",
    "event_id",
    "subscription",
    "attempt",
    "outcome",
    "status_code",
)
"""The structured fields a log call may pass in ``extra`` (requests, then webhook jobs)."""
IN_TEXT_MESSAGE = frozenset({"method", "path", "status", "duration_ms", "attempt", "outcome"})
"""Fields that the messages of the access log and of delivery attempts already spell out."""


def _fields(record: logging.LogRecord) -> dict[str, Any]:
    return {name: record.__dict__[name] for name in FIELDS if record.__dict__.get(name) is not None}


@functools.lru_cache(maxsize=1)
def _utc_second(second: int) -> str:
    """A second in UTC as the JSON format writes it, formatted once for all its records."""
    return time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(second))


@functools.lru_cache(maxsize=1)
def _local_second(second: int) -> str:
    """A second in local time as ``logging.Formatter.formatTime`` writes it by default."""
    return time.strftime(logging.Formatter.default_time_format, time.localtime(second))


def _timestamp(record: logging.LogRecord) -> str:
    return f"{_utc_second(int(record.created))}.{int(record.msecs):03d}Z"


class JsonFormatter(logging.Formatter):
    """One JSON object per line: time, level, logger, message, the structured fields, and the
    exception (its traceback as one string) when there is one."""

    def format(self, record: logging.LogRecord) -> str:
        entry: dict[str, Any] = {
            "time": _timestamp(record),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
            "process": record.process,
            **_fields(record),
        }
        if record.exc_info:
            entry["exception"] = self.formatException(record.exc_info)
        elif record.stack_info:
            entry["stack"] = record.stack_info
        return json.dumps(entry, default=str, ensure_ascii=False)


class TextFormatter(logging.Formatter):
    """``time level logger message name=value ...``: the structured fields after the message."""

    def __init__(self) -> None:
        super().__init__("%(asctime)s %(levelname)s %(name)s %(message)s")

    def formatTime(self, record: logging.LogRecord, datefmt: str | None = None) -> str:
        """As ``logging.Formatter``'s (local time and milliseconds; this format sets no
        ``datefmt``), each second formatted once: ``time.strftime`` for every line was a tenth
        of an access log line's CPU."""
        return f"{_local_second(int(record.created))},{int(record.msecs):03d}"

    def formatMessage(self, record: logging.LogRecord) -> str:
        line = super().formatMessage(record)
        fields = " ".join(
            f"{name}={value}"
            for name, value in _fields(record).items()
            if name not in IN_TEXT_MESSAGE
        )
        return f"{line} {fields}" if fields else line


class ServiceHandler(logging.StreamHandler[TextIO]):
    """The handler this module installs (so that configuring again replaces only it)."""


def configure_logging(level: str, log_format: str = "text") -> None:
    """Route every logger (ours, the server's, the libraries', Python's warnings) to one handler on
    stderr in ``log_format``. Safe to call again: it replaces its own handler. When the host
    process has configured logging already (pytest running the app in-process), its handlers are
    kept and none is added."""
    root = logging.getLogger()
    foreign = [h for h in root.handlers if not isinstance(h, ServiceHandler)]
    for ours in [h for h in root.handlers if isinstance(h, ServiceHandler)]:
        root.removeHandler(ours)
    if not foreign:
        handler = ServiceHandler(sys.stderr)
        handler.setFormatter(JsonFormatter() if log_format == "json" else TextFormatter())
        root.addHandler(handler)
        # Neither format names a thread or a multiprocessing process: each record then skips
        # gathering them (Python's logging documentation, "Optimization"), 2 of the 18 us of
        # CPU an access log line costs.
        logging.logThreads = False
        logging.logMultiprocessing = False
    root.setLevel(level)
    logging.captureWarnings(True)
    for name, quiet_level in QUIET_LOGGERS.items():
        logging.getLogger(name).setLevel(max(quiet_level, logging.getLevelName(level)))
