"""Logging set-up. Credentials never reach the logs: nothing of ours logs headers or bodies, and
the libraries that would log URLs (webhook subscribers put tokens in them) or tokens are quieted.
"""

from __future__ import annotations

import logging

QUIET_LOGGERS = {
    "httpx": logging.WARNING,  # every request URL at INFO
    "httpcore": logging.WARNING,
    "authlib": logging.INFO,  # every issued access and refresh token at DEBUG
}


def configure_logging(level: str) -> None:
    logging.basicConfig(level=level, format="%(asctime)s %(levelname)s %(name)s %(message)s")
    for name, quiet_level in QUIET_LOGGERS.items():
        logging.getLogger(name).setLevel(quiet_level)
