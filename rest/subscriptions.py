"""GraphQL over WebSocket at ``/graphql``: the ``graphql-transport-ws`` protocol (CONTRACT.md 12).

A client opens the socket with the ``graphql-transport-ws`` subprotocol and sends
``connection_init`` with ``{"authorization": "Bearer <token>"}`` (the same credentials as every
request, checked by the same ``authenticate``); without a valid one the socket closes with 4403.
Then each ``subscribe`` runs one operation: a subscription streams ``next`` messages until the
client sends ``complete`` or the stream ends; a query or mutation answers one ``next``. A
document the schema refuses is an ``error`` message. Protocol violations close the socket with
the protocol's codes (4400 bad message, 4401 subscribe before the acknowledgement, 4408 no
``connection_init`` in time, 4409 an id already running, 4429 a second ``connection_init``).

The credential is checked again every few seconds while the socket is open
(``app.runtime.rechecks``): once its API key or OAuth grant is revoked, or its access token has
expired, the socket closes with 4403 and its operations stop.

A subscriber that cannot keep up with its notifications (``app.runtime.live``) is dropped:
its operation stops and the socket is closed with 1013 (try again later). When the server starts
to stop (``app.runtime.stopping``) every socket is closed with 1012 (service restart), so that
the graceful shutdown does not wait for subscriptions that never end by themselves. A send that the
client does not read blocks only that connection, whose buffers are bounded.

This module knows nothing of the server: any ASGI server with WebSocket support runs it.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Any

import msgspec
from litestar import WebSocket, websocket
from litestar.exceptions import WebSocketDisconnect

from app.errors import DomainError, Unauthenticated
from app.principal import Principal
from app.runtime import stopping
from app.runtime.rechecks import until_lapsed
from app.schemas.decoding import MalformedJSON, NestedTooDeeply, decode_json
from app.services.authentication import authenticate, verify_credential
from app.settings import Settings
from graphql_api.context import Context
from graphql_api.execution import Operation, OperationRefused, subscribe
from graphql_api.schema import schema
from rest.graphql import GRAPHQL_PATH

logger = logging.getLogger("ticketing.subscriptions")

PROTOCOL = "graphql-transport-ws"
INIT_TIMEOUT_SECONDS = 10.0
CLOSE_TIMEOUT_SECONDS = 2.0
MAX_OPERATIONS = 50
"""Operations one connection may run at once."""


class Closing(Exception):
    """The connection must close with ``code`` and ``reason``."""

    def __init__(self, code: int, reason: str) -> None:
        super().__init__(reason)
        self.code = code
        self.reason = reason


def _message(text: str) -> dict[str, Any]:
    try:
        message = decode_json(text.encode(), Any)
    except (MalformedJSON, NestedTooDeeply):
        raise Closing(4400, "Invalid message") from None
    if not isinstance(message, dict) or not isinstance(message.get("type"), str):
        raise Closing(4400, "Invalid message")
    return message


def _operation(payload: Any) -> Operation:
    if not isinstance(payload, dict) or not isinstance(payload.get("query"), str):
        raise Closing(4400, "Invalid subscribe message: payload.query must be a string")
    variables = payload.get("variables")
    name = payload.get("operationName")
    if variables is not None and not isinstance(variables, dict):
        raise Closing(4400, "Invalid subscribe message: payload.variables must be an object")
    if name is not None and not isinstance(name, str):
        raise Closing(4400, "Invalid subscribe message: payload.operationName must be a string")
    return Operation(query=payload["query"], variables=variables or {}, operation_name=name)


class Connection:
    """One socket: its principal once acknowledged, and its running operations by id."""

    def __init__(self, socket: WebSocket[Any, Any, Any], settings: Settings) -> None:
        self.socket = socket
        self.settings = settings
        self.principal: Principal | None = None
        self.authorization: str | None = None
        self.operations: dict[str, asyncio.Task[None]] = {}
        self.sending = asyncio.Lock()
        self.too_slow = asyncio.Event()
        self.stopping = asyncio.Event()

    async def send(self, message: dict[str, Any]) -> None:
        async with self.sending:
            await self.socket.send_text(msgspec.json.encode(message).decode())

    async def run(self) -> None:
        with stopping.on_stop(self.stopping.set):  # left once the socket is closed
            try:
                await self._initialise()
                await self._serve()
            except Closing as closing:
                await self._close(closing.code, closing.reason)
            except WebSocketDisconnect:
                pass
            finally:
                for task in self.operations.values():
                    task.cancel()
                await asyncio.gather(*self.operations.values(), return_exceptions=True)

    async def _initialise(self) -> None:
        try:
            text = await asyncio.wait_for(self.socket.receive_text(), INIT_TIMEOUT_SECONDS)
        except TimeoutError:
            raise Closing(4408, "Connection initialisation timeout") from None
        message = _message(text)
        if message["type"] != "connection_init":
            raise Closing(4401, "Unauthorized")
        payload = message.get("payload")
        authorization = payload.get("authorization") if isinstance(payload, dict) else None
        self.authorization = authorization if isinstance(authorization, str) else None
        try:
            self.principal = await authenticate(self.authorization, self.settings)
        except DomainError:
            raise Closing(4403, "Forbidden") from None
        await self.send({"type": "connection_ack"})

    async def _serve(self) -> None:
        receiving = asyncio.ensure_future(self.socket.receive_text())
        too_slow = asyncio.ensure_future(self.too_slow.wait())
        lapsed = asyncio.ensure_future(until_lapsed(self._credential_is_live))
        server_stopping = asyncio.ensure_future(self.stopping.wait())
        waits: set[asyncio.Future[Any]] = {receiving, too_slow, lapsed, server_stopping}
        try:
            while True:
                await asyncio.wait(waits, return_when=asyncio.FIRST_COMPLETED)
                if server_stopping.done():
                    raise Closing(1012, "Service restart: reconnect")
                if too_slow.done():
                    raise Closing(1013, "Subscriber too slow: notifications were dropped")
                if lapsed.done():
                    raise Closing(4403, "Forbidden: the credential was revoked or has expired")
                await self._handle(_message(receiving.result()))
                waits.remove(receiving)
                receiving = asyncio.ensure_future(self.socket.receive_text())
                waits.add(receiving)
        finally:
            for waiting in waits:
                waiting.cancel()

    async def _credential_is_live(self) -> bool:
        try:
            await verify_credential(self.authorization, self.settings)
        except Unauthenticated:
            return False
        return True

    async def _handle(self, message: dict[str, Any]) -> None:
        kind = message["type"]
        if kind == "ping":
            await self.send({"type": "pong"})
        elif kind == "pong":
            return
        elif kind == "connection_init":
            raise Closing(4429, "Too many initialisation requests")
        elif kind == "subscribe":
            identifier = message.get("id")
            if not isinstance(identifier, str) or not identifier:
                raise Closing(4400, "Invalid subscribe message: id must be a string")
            if identifier in self.operations:
                raise Closing(4409, f"Subscriber for {identifier} already exists")
            if len(self.operations) >= MAX_OPERATIONS:
                raise Closing(4400, f"At most {MAX_OPERATIONS} operations per connection")
            operation = _operation(message.get("payload"))
            task = asyncio.create_task(self._run_operation(identifier, operation))
            self.operations[identifier] = task
        elif kind == "complete":
            running = self.operations.pop(str(message.get("id")), None)
            if running is not None:
                running.cancel()
        else:
            raise Closing(4400, f"Unknown message type {kind!r}")

    async def _run_operation(self, identifier: str, operation: Operation) -> None:
        assert self.principal is not None
        context = Context(
            principal=self.principal, settings=self.settings, on_overflow=self.too_slow.set
        )
        try:
            outcome = await subscribe(schema, operation, context)
            if isinstance(outcome, dict):
                await self.send({"type": "error", "id": identifier, "payload": outcome["errors"]})
                return
            async with contextlib.aclosing(outcome) as responses:
                async for response in responses:
                    await self.send({"type": "next", "id": identifier, "payload": response})
            await self.send({"type": "complete", "id": identifier})
        except OperationRefused as refused:
            await self.send(
                {"type": "error", "id": identifier, "payload": [{"message": str(refused)}]}
            )
        except WebSocketDisconnect:
            pass
        finally:
            self.operations.pop(identifier, None)

    async def _close(self, code: int, reason: str) -> None:
        """Close, unless the client does not even read that (its buffers are full)."""
        with contextlib.suppress(TimeoutError, WebSocketDisconnect, RuntimeError):
            await asyncio.wait_for(self.socket.close(code, reason), CLOSE_TIMEOUT_SECONDS)


@websocket(GRAPHQL_PATH, opt={"exclude_from_auth": True})
async def graphql_over_websocket(socket: WebSocket[Any, Any, Any]) -> None:
    if PROTOCOL not in socket.scope.get("subprotocols", []):
        await socket.close(4406, "Subprotocol not acceptable")
        return
    await socket.accept(subprotocols=PROTOCOL)
    await Connection(socket, socket.app.state["settings"]).run()
