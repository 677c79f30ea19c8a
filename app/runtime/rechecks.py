"""Ending a long-lived response when what allowed it lapses: a GraphQL subscription whose
credential was revoked or expired, a door view whose dashboard session was signed out.

Both check once, when they start; a connection can then stay open for hours. :func:`until_lapsed`
asks again every :data:`RECHECK_SECONDS`, with the same code that checks every request, so the
bound is the same whatever revoked it (the dashboard, the API, the command line, another replica):
this interval plus however long that code takes to learn of the revocation (API keys: up to
``REVISION_STALE_SECONDS`` on a process other than the one that revoked it).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

RECHECK_SECONDS = 2.0

logger = logging.getLogger("ticketing.rechecks")


async def until_lapsed(
    still_allowed: Callable[[], Awaitable[bool]], every: float = RECHECK_SECONDS
) -> None:
    """Return once ``still_allowed()`` answers False, asking every ``every`` seconds. A check
    that fails (the database is away) is logged and asked again next time: an outage does not
    end every open connection at once."""
    while True:
        await asyncio.sleep(every)
        try:
            if not await still_allowed():
                return
        except Exception as error:
            logger.warning("could not check a connection's credential again: %r", error)
