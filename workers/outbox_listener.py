"""``LISTEN`` for the outbox's notifications (PostgreSQL), so that the relay wakes on a commit.

The connection is a dedicated one, outside the pool: pooled connections are shared by every query
and never keep session state such as a ``LISTEN`` (``db.engine`` does not even reset them). It
goes to ``TICKETING_DATABASE_LISTEN_URL`` when set: a pooler in transaction mode (PgBouncer) hands
each transaction a server connection of its choosing and would drop a ``LISTEN``, so behind one
this names the primary itself (several hosts with ``target_session_attrs=read-write`` follow a
promoted standby: notifications are sent on the primary only). It is
made again with a doubling delay whenever it drops, and a keep-alive query finds one that died
silently. Every (re)connection wakes the relay, since what was announced meanwhile went unheard;
until then the relay's poll covers.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from typing import Any

import asyncpg

from app.services.outbox import NOTIFY_CHANNEL
from workers.relay_loop import wait_for_any

logger = logging.getLogger("ticketing.webhooks")

CONNECT_TIMEOUT_SECONDS = 5.0
KEEPALIVE_SECONDS = 30.0
MAX_RECONNECT_DELAY_SECONDS = 30.0


async def listen_for_work(
    listen_url: str, wake: Callable[[], None], stopping: asyncio.Event
) -> None:
    """Call ``wake`` on every notification of :data:`NOTIFY_CHANNEL` until ``stopping`` is set."""
    delay = 0.5
    while not stopping.is_set():
        connection: asyncpg.Connection[Any] | None = None
        try:
            connection = await asyncpg.connect(listen_url, timeout=CONNECT_TIMEOUT_SECONDS)
            lost = asyncio.Event()
            connection.add_termination_listener(lambda _, lost=lost: lost.set())
            await connection.add_listener(NOTIFY_CHANNEL, lambda *_: wake())
            logger.info("listening for outbox notifications")
            wake()
            delay = 0.5
            while not stopping.is_set() and not lost.is_set():
                if not await wait_for_any(stopping, lost, seconds=KEEPALIVE_SECONDS):
                    await connection.fetchval("SELECT 1", timeout=CONNECT_TIMEOUT_SECONDS)
            if lost.is_set() and not stopping.is_set():
                logger.warning("outbox notifications: connection lost; reconnecting")
        except (OSError, TimeoutError, asyncpg.PostgresError, asyncpg.InterfaceError) as error:
            logger.warning(
                "outbox notifications unavailable (%s); the relay polls until they are back",
                error,
            )
        finally:
            if connection is not None:
                with contextlib.suppress(Exception):
                    await asyncio.wait_for(connection.close(), CONNECT_TIMEOUT_SECONDS)
        await wait_for_any(stopping, seconds=delay)
        delay = min(delay * 2, MAX_RECONNECT_DELAY_SECONDS)
