"""Live notifications (CONTRACT.md section 12): published after a commit, delivered to the
subscribers of every replica, each through a bounded buffer.

A service publishes a record with :func:`publish_after_commit` inside its transaction; it leaves
the process only once the transaction has committed (``db.transactions.after_commit``), so a
rolled-back change is never announced. The bound :class:`Hub` then delivers it:

- :class:`LocalHub` (no ``REDIS_URL``: one process, the demo) hands it to this process's
  subscribers;
- :class:`RedisHub` publishes it on one Redis pub/sub channel that every replica listens to (the
  channel is named after ``TICKETING_QUEUE_NAME``, so test runs and deployments sharing a Redis
  do not hear each other), and each replica hands what it hears to its own subscribers. Listening
  from start-up on one channel means a subscription is live as soon as it is registered.

A subscriber (a :class:`Feed`, opened by a service operation with :func:`watch`, which checks
the event and relies on the service's scope declaration) sees only its organization's
notifications, of its topic (and event, when it named one). Each has a buffer of ``BUFFER``
notifications; a subscriber whose buffer is full when the next one arrives cannot keep up: it
is dropped at once (removed from the hub, its buffer released, ``on_overflow`` called so that
the transport closes the connection) and never grows memory. With no hub bound (a command, a
test calling services directly) publishing does nothing.

The dashboard's door view subscribes through the same hub; its feeds are ended (:meth:`Feed.end`)
when the server starts to stop, so that its never-ending streams do not hold the shutdown.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal
from uuid import UUID

import msgspec
import redis.asyncio as redis_asyncio
import redis.exceptions

from app.runtime.observability import count_dropped_subscriber, track_live_subscribers
from app.runtime.outages import REDIS
from app.schemas.holds import AvailabilityChanged
from app.schemas.orders import OrderChange
from app.schemas.scanning import ScanNotice
from db.transactions import after_commit

logger = logging.getLogger("ticketing.live")

Topic = Literal["scans", "orders", "availability"]
RECORDS: dict[str, type[msgspec.Struct]] = {
    "scans": ScanNotice,
    "orders": OrderChange,
    "availability": AvailabilityChanged,
}
"""The record each topic carries."""
BUFFER = 100
"""Notifications one subscriber may have waiting before it counts as unable to keep up."""
RECONNECT_SECONDS = 1.0
START_TIMEOUT_SECONDS = 5.0
PUBLISH_TIMEOUT_SECONDS = 1.0
"""Bounds a publication (it runs right after the commit, inside the request)."""
REDIS_ERRORS = (OSError, redis.exceptions.RedisError)


class SubscriberTooSlow(Exception):
    """The subscriber's buffer overflowed: it was dropped."""


class Envelope(msgspec.Struct, frozen=True):
    """A notification as it travels between replicas; ``record`` is encoded by its topic."""

    organization_id: UUID
    topic: Topic
    event_id: UUID | None
    record: msgspec.Raw


class _End:
    """The last item of a feed that was ended (:meth:`Feed.end`)."""


@dataclass(eq=False)
class Feed:
    """One subscriber's notifications (an async iterator), ended by :class:`SubscriberTooSlow`
    once it overflowed, or as a finished iteration once :meth:`end` was called. Use it as an async
    context manager, so that it leaves the hub."""

    hub: Hub
    organization_id: UUID
    topic: Topic
    event_id: UUID | None
    on_overflow: Callable[[], None] | None = None
    closed: bool = False
    """Dropped or ended: nothing more is delivered."""
    _queue: asyncio.Queue[Any] = field(default_factory=lambda: asyncio.Queue(maxsize=BUFFER))

    def wants(self, topic: Topic, event_id: UUID | None) -> bool:
        return topic == self.topic and (self.event_id is None or self.event_id == event_id)

    def offer(self, record: Any) -> None:
        if self.closed:
            return
        try:
            self._queue.put_nowait(record)
        except asyncio.QueueFull:
            self._drop()

    def skip_waiting(self) -> None:
        """Discard the notifications waiting (not an end): a subscriber that reads the state
        again after a notification needs one read for all of them."""
        while not self._queue.empty():
            record = self._queue.get_nowait()
            if isinstance(record, SubscriberTooSlow | _End):
                self._queue.put_nowait(record)
                return

    def end(self) -> None:
        """Finish the feed now (the server is stopping): its iteration stops, what was waiting in
        it is not delivered, and it leaves the hub."""
        if not self.closed:
            self._close(_End())

    def _drop(self) -> None:
        self._close(SubscriberTooSlow())
        count_dropped_subscriber(self.topic)
        if self.on_overflow is not None:
            self.on_overflow()

    def _close(self, last: SubscriberTooSlow | _End) -> None:
        """Leave the hub; ``last`` is all the subscriber gets from now on."""
        self.closed = True
        self.hub.leave(self)
        while not self._queue.empty():
            self._queue.get_nowait()
        self._queue.put_nowait(last)

    def __aiter__(self) -> Feed:
        return self

    async def __anext__(self) -> Any:
        record = await self._queue.get()
        if isinstance(record, SubscriberTooSlow):
            raise record
        if isinstance(record, _End):
            self._queue.put_nowait(record)  # ended for every later call too
            raise StopAsyncIteration
        return record

    async def __aenter__(self) -> Feed:
        return self

    async def __aexit__(self, *_: object) -> None:
        self.hub.leave(self)


class Hub:
    """This process's subscribers; subclasses say how a notification reaches every replica."""

    def __init__(self) -> None:
        self._feeds: dict[UUID, set[Feed]] = {}

    async def start(self) -> None:
        """Ready to deliver once this returns."""

    async def stop(self) -> None:
        """Stop listening."""

    async def publish(
        self, organization_id: UUID, topic: Topic, event_id: UUID | None, record: msgspec.Struct
    ) -> None:
        raise NotImplementedError

    async def publish_all(
        self,
        organization_id: UUID,
        topic: Topic,
        records: Sequence[tuple[UUID | None, msgspec.Struct]],
    ) -> None:
        """Several notifications of one topic, in order (``(event_id, record)`` each)."""
        for event_id, record in records:
            await self.publish(organization_id, topic, event_id, record)

    def feed(
        self,
        organization_id: UUID,
        topic: Topic,
        event_id: UUID | None = None,
        on_overflow: Callable[[], None] | None = None,
    ) -> Feed:
        """A new subscriber's feed, live from now on."""
        feed = Feed(self, organization_id, topic, event_id, on_overflow)
        self._feeds.setdefault(organization_id, set()).add(feed)
        track_live_subscribers(topic, +1)
        return feed

    def leave(self, feed: Feed) -> None:
        feeds = self._feeds.get(feed.organization_id)
        if feeds is None or feed not in feeds:
            return
        feeds.discard(feed)
        if not feeds:
            del self._feeds[feed.organization_id]
        track_live_subscribers(feed.topic, -1)

    def deliver(
        self, organization_id: UUID, topic: Topic, event_id: UUID | None, record: Any
    ) -> None:
        """Hand ``record`` to this process's subscribers that want it."""
        for feed in list(self._feeds.get(organization_id, ())):
            if feed.wants(topic, event_id):
                feed.offer(record)


class LocalHub(Hub):
    """One process: a notification goes straight to its subscribers."""

    async def publish(
        self, organization_id: UUID, topic: Topic, event_id: UUID | None, record: msgspec.Struct
    ) -> None:
        self.deliver(organization_id, topic, event_id, record)


class RedisHub(Hub):
    """Replicas: a notification goes through one Redis pub/sub channel that each replica hears.

    While Redis is away, notifications are dropped (subscribers miss what happened meanwhile;
    the change itself is committed) and the listener tries again every second; the outage is
    one line in the log when it starts and one when it ends (``app.runtime.outages``)."""

    def __init__(self, redis_url: str, namespace: str) -> None:
        super().__init__()
        self.channel = f"{namespace}:live"
        self._redis = redis_asyncio.Redis.from_url(
            redis_url,
            socket_timeout=PUBLISH_TIMEOUT_SECONDS,
            socket_connect_timeout=PUBLISH_TIMEOUT_SECONDS,
        )
        self._listening = redis_asyncio.Redis.from_url(
            redis_url, socket_connect_timeout=PUBLISH_TIMEOUT_SECONDS
        )
        """The pub/sub connection waits for messages as long as there are none: no read
        timeout."""
        self._listener: asyncio.Task[None] | None = None
        self._ready = asyncio.Event()

    async def start(self) -> None:
        """Listening once this returns (or after ``START_TIMEOUT_SECONDS`` of a Redis that does
        not answer: the server starts anyway, readiness reports Redis, and listening goes on
        trying)."""
        self._listener = asyncio.create_task(self._listen(), name="live-notifications")
        with contextlib.suppress(TimeoutError):  # the listener logged the outage
            await asyncio.wait_for(asyncio.shield(self._ready.wait()), START_TIMEOUT_SECONDS)

    async def stop(self) -> None:
        if self._listener is not None:
            self._listener.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._listener
        await self._redis.aclose()
        await self._listening.aclose()

    async def publish(
        self, organization_id: UUID, topic: Topic, event_id: UUID | None, record: msgspec.Struct
    ) -> None:
        encoded = msgspec.Raw(msgspec.json.encode(record))
        envelope = Envelope(organization_id, topic, event_id, encoded)
        try:
            await self._redis.publish(self.channel, msgspec.json.encode(envelope))
        except REDIS_ERRORS as error:
            REDIS.failed(error)
            return
        REDIS.answered()

    async def publish_all(
        self,
        organization_id: UUID,
        topic: Topic,
        records: Sequence[tuple[UUID | None, msgspec.Struct]],
    ) -> None:
        """One round trip for all of them (a pipeline), whatever their number (a scan batch)."""
        try:
            async with self._redis.pipeline(transaction=False) as pipeline:
                for event_id, record in records:
                    encoded = msgspec.Raw(msgspec.json.encode(record))
                    envelope = Envelope(organization_id, topic, event_id, encoded)
                    pipeline.publish(self.channel, msgspec.json.encode(envelope))
                await pipeline.execute()
        except REDIS_ERRORS as error:
            REDIS.failed(error)
            return
        REDIS.answered()

    async def _listen(self) -> None:
        """Hear the channel for as long as the process runs, listening again after a failure."""
        while True:
            try:
                async with self._listening.pubsub(ignore_subscribe_messages=True) as pubsub:
                    await pubsub.subscribe(self.channel)
                    self._ready.set()
                    REDIS.answered()
                    async for message in pubsub.listen():
                        self._hear(message["data"])
            except REDIS_ERRORS as error:
                REDIS.failed(error)
                await asyncio.sleep(RECONNECT_SECONDS)

    def _hear(self, data: bytes) -> None:
        try:
            envelope = msgspec.json.decode(data, type=Envelope)
            record = msgspec.json.decode(envelope.record, type=RECORDS[envelope.topic])
        except (msgspec.DecodeError, KeyError):
            logger.warning("live notifications: ignored a message that is not one")
            return
        self.deliver(envelope.organization_id, envelope.topic, envelope.event_id, record)


_bound: Hub | None = None


def bind_hub(hub: Hub | None) -> None:
    """Make ``hub`` the one services publish to and watch (the composition root does this)."""
    global _bound
    _bound = hub


def bound_hub() -> Hub | None:
    return _bound


def hub_for(redis_url: str | None, namespace: str) -> Hub:
    """Through Redis when there is one (replicas), else in-process."""
    return RedisHub(redis_url, namespace) if redis_url else LocalHub()


@contextlib.asynccontextmanager
async def serving_hub(redis_url: str | None, namespace: str) -> AsyncIterator[Hub]:
    """The hub of a serving process: started and bound, then unbound and stopped."""
    hub = hub_for(redis_url, namespace)
    await hub.start()
    bind_hub(hub)
    try:
        yield hub
    finally:
        if bound_hub() is hub:
            bind_hub(None)
        await hub.stop()


async def publish(
    organization_id: UUID, topic: Topic, event_id: UUID | None, record: msgspec.Struct
) -> None:
    """Announce ``record`` now: for a caller that runs after its commit already."""
    hub = _bound
    if hub is not None:
        await hub.publish(organization_id, topic, event_id, record)


async def publish_after_commit(
    organization_id: UUID, topic: Topic, event_id: UUID | None, record: msgspec.Struct
) -> None:
    """Announce ``record`` once the current transaction commits (at once outside of one)."""
    hub = _bound
    if hub is None:
        return

    async def publish() -> None:
        await hub.publish(organization_id, topic, event_id, record)

    await after_commit(publish)


async def publish_all_after_commit(
    organization_id: UUID, topic: Topic, records: Sequence[tuple[UUID | None, msgspec.Struct]]
) -> None:
    """Announce several records (``(event_id, record)`` each, in order) once the current
    transaction commits."""
    hub = _bound
    if hub is None or not records:
        return

    async def publish() -> None:
        await hub.publish_all(organization_id, topic, records)

    await after_commit(publish)


def watch(
    organization_id: UUID,
    topic: Topic,
    event_id: UUID | None,
    on_overflow: Callable[[], None] | None,
) -> Feed:
    """A feed of ``topic`` from the bound hub for an organization (and one of its events, when
    named). The calling service checks the caller's scope and that the event is theirs."""
    hub = _bound
    if hub is None:
        raise RuntimeError("no live notification hub is bound (app.runtime.live.bind_hub)")
    return hub.feed(organization_id, topic, event_id, on_overflow)
