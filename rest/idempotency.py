"""``Idempotency-Key`` on every authenticated POST and PATCH, REST and ``POST /graphql``, in one
middleware around the routes (CONTRACT.md section 10).

It runs after bearer authentication (a request that carries a key but no valid credential is a
401 as without the key) and acts only on the routes that authentication covers, for requests it
let through with a :class:`~app.principal.Principal`: the OAuth endpoints and the dashboard's
cookie sessions are not API credentials and pass untouched. The route below runs inside
``app.services.idempotency.idempotent``'s transaction with its response held back: the response
goes to the client once it is committed with the stored answer, never before.
"""

from __future__ import annotations

import logging
import re
import time
from dataclasses import dataclass, field
from typing import cast

from litestar.enums import ScopeType
from litestar.middleware import ASGIMiddleware
from litestar.types import (
    ASGIApp,
    HTTPResponseBodyEvent,
    HTTPResponseStartEvent,
    HTTPScope,
    Message,
    Receive,
    ReceiveMessage,
    Scope,
    Send,
)
from litestar.utils.scope.state import ScopeState

from app.principal import Principal
from app.services import idempotency
from db.idempotency import StoredAnswer
from rest.auth import PUBLIC_PATHS
from rest.http import MAX_BODY_BYTES
from rest.scope_headers import header

METHODS = frozenset({"POST", "PATCH"})
HEADER = idempotency.HEADER.lower().encode()
REPLAYED_HEADER = "Idempotent-Replayed"
logger = logging.getLogger("ticketing.idempotency")

PRUNE_EVERY_SECONDS = 60.0
"""How often a serving process deletes expired keys (after answering a request with a key)."""
KEPT_HEADERS = {b"content-type": "content_type", b"location": "location"}
"""The response headers stored with an answer (besides its status and body)."""


_PUBLIC = re.compile("|".join(PUBLIC_PATHS))


def _passes_through(scope: Scope) -> bool:
    """Methods other than POST and PATCH, and the paths and routes that bearer authentication
    skips (``rest.auth``)."""
    if scope.get("method") not in METHODS:
        return True
    handler = scope.get("route_handler")
    return _PUBLIC.match(scope["path"]) is not None or bool(
        handler is not None and handler.opt.get("exclude_from_auth")
    )


async def _read_body(receive: Receive) -> tuple[list[ReceiveMessage], bytes | None]:
    """The request's body messages, and its bytes; ``None`` for a body over the size limit,
    which the route refuses (413) and which therefore gets no idempotency."""
    messages: list[ReceiveMessage] = []
    chunks: list[bytes] = []
    size = 0
    while True:
        message = await receive()
        messages.append(message)
        if message["type"] != "http.request":
            return messages, None
        chunks.append(message.get("body", b""))
        size += len(chunks[-1])
        if size > MAX_BODY_BYTES:
            return messages, None
        if not message.get("more_body", False):
            return messages, b"".join(chunks)


@dataclass
class _Captured:
    """The route's response, held back until the transaction has committed."""

    start: HTTPResponseStartEvent | None = None
    body: list[bytes] = field(default_factory=list)
    complete: bool = False

    async def send(self, message: Message) -> None:
        if message["type"] == "http.response.start":
            self.start = message
        elif message["type"] == "http.response.body":
            self.body.append(message.get("body", b""))
            self.complete = not message.get("more_body", False)

    def answer(self, request: str) -> StoredAnswer | None:
        if self.start is None or not self.complete:
            return None
        kept: dict[str, str | None] = dict.fromkeys(KEPT_HEADERS.values())
        for name, value in self.start.get("headers", []):
            attribute = KEPT_HEADERS.get(bytes(name).lower())
            if attribute:
                kept[attribute] = bytes(value).decode("latin-1")
        return StoredAnswer(
            fingerprint=request,
            status=self.start["status"],
            content_type=kept["content_type"],
            location=kept["location"],
            body=b"".join(self.body),
        )

    async def forward(self, send: Send) -> None:
        assert self.start is not None
        await send(self.start)
        body: HTTPResponseBodyEvent = {
            "type": "http.response.body",
            "body": b"".join(self.body),
            "more_body": False,
        }
        await send(body)


async def _replay(answer: StoredAnswer, send: Send) -> None:
    headers = [
        (b"content-length", str(len(answer.body)).encode()),
        (REPLAYED_HEADER.lower().encode(), b"true"),
    ]
    if answer.content_type:
        headers.append((b"content-type", answer.content_type.encode("latin-1")))
    if answer.location:
        headers.append((b"location", answer.location.encode("latin-1")))
    start: HTTPResponseStartEvent = {
        "type": "http.response.start",
        "status": answer.status,
        "headers": headers,
    }
    await send(start)
    body: HTTPResponseBodyEvent = {
        "type": "http.response.body",
        "body": answer.body,
        "more_body": False,
    }
    await send(body)


class IdempotencyMiddleware(ASGIMiddleware):
    """Skips exactly what bearer authentication skips (its paths and its opt-out), methods other
    than POST and PATCH, and any request without a :class:`Principal`."""

    scopes = (ScopeType.HTTP,)

    def __init__(self, prune_every: float = PRUNE_EVERY_SECONDS) -> None:
        self.prune_every = prune_every
        self._next_prune = 0.0
        self.should_bypass_for_scope = _passes_through

    async def handle(self, scope: Scope, receive: Receive, send: Send, next_app: ASGIApp) -> None:
        scope = cast(HTTPScope, scope)  # ``scopes`` above: HTTP only
        principal = scope.get("user")
        raw_key = header(scope, HEADER)
        if raw_key is None or not isinstance(principal, Principal):
            await next_app(scope, receive, send)
            return
        key = idempotency.parse_key(raw_key)
        messages, body = await _read_body(receive)

        async def replay_receive() -> ReceiveMessage:
            return messages.pop(0) if messages else await receive()

        if body is None:
            await next_app(scope, replay_receive, send)
            return
        query = scope.get("query_string", b"").decode("latin-1")
        target = f"{scope['path']}?{query}" if query else scope["path"]
        request = idempotency.fingerprint(scope["method"], target, body)
        captured = _Captured()
        async with idempotency.idempotent(principal, key, request) as claim:
            if claim.replay is None:
                try:
                    await next_app(scope, replay_receive, captured.send)
                finally:
                    # Nothing has reached the client: should the rest fail, the error is answered.
                    ScopeState.from_scope(scope).response_started = False
                claim.answer = captured.answer(request)
        if claim.replay is not None:
            await _replay(claim.replay, send)
        elif captured.start is not None:
            await captured.forward(send)
        await self._prune_when_due()

    async def _prune_when_due(self) -> None:
        """Expired keys go lazily: at most once per ``prune_every`` per process, after an answer
        has been sent. Reads ignore expired keys whether or not they are gone yet."""
        now = time.monotonic()
        if now < self._next_prune:
            return
        self._next_prune = now + self.prune_every
        try:
            deleted = await idempotency.prune()
        except Exception:
            logger.exception("pruning expired idempotency keys failed")
            return
        if deleted:
            logger.info("pruned %d expired idempotency keys", deleted)


idempotent_requests = IdempotencyMiddleware()
