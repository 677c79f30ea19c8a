"""``/listen``: the organization's events over one WebSocket, for ``ticketing listen``
(CONTRACT.md section 18).

The client opens the socket with its bearer credential in the ``Authorization`` header, as on
every request (the key's mode picks live or test events), ``?events=a,b`` to narrow the kinds and
``?after=<event id>`` to resume after the last event it received. Each text message is one event:
the exact body a webhook delivery carries. The credential needs ``webhooks.read`` (as reading the
delivery log does) and is checked again while the socket is open; the socket closes with 4401
(no valid credential, or revoked since), 4403 (the scope is missing), 4400 (bad parameters), or
1012 when the server stops (the client reconnects with ``after``).
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

from litestar import WebSocket, websocket
from litestar.exceptions import WebSocketDisconnect

from app.errors import Forbidden, InvalidInput, Unauthenticated
from app.ids import parse_id
from app.runtime import stopping
from app.runtime.rechecks import until_lapsed
from app.services import listen
from app.services.authentication import authenticate, verify_credential
from app.services.listen import Heard

LISTEN_PATH = "/listen"


@websocket(LISTEN_PATH, opt={"exclude_from_auth": True})
async def listen_socket(socket: WebSocket[Any, Any, Any]) -> None:
    settings = socket.app.state["settings"]
    authorization = socket.headers.get("authorization")
    await socket.accept()
    try:
        principal = await authenticate(authorization, settings)
        raw_after = socket.query_params.get("after")
        after = parse_id(raw_after, "after") if raw_after else None
        kinds = listen.event_kinds(socket.query_params.get("events", ""))
        events = await listen.listen(principal, after, kinds)
    except Unauthenticated as error:
        await _close(socket, 4401, error.detail)
        return
    except Forbidden as error:
        await _close(socket, 4403, error.detail)
        return
    except InvalidInput as error:
        await _close(socket, 4400, error.detail)
        return

    async def still_allowed() -> bool:
        try:
            await verify_credential(authorization, settings)
        except Unauthenticated:
            return False
        return True

    tasks: set[asyncio.Task[Any]] = {
        asyncio.create_task(_send(socket, events), name="send"),
        asyncio.create_task(_until_closed(socket), name="closed"),
        asyncio.create_task(until_lapsed(still_allowed), name="lapsed"),
    }
    stopped = asyncio.Event()
    tasks.add(asyncio.create_task(stopped.wait(), name="stopping"))
    with stopping.on_stop(stopped.set):
        done, pending = await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
    for task in pending:
        task.cancel()
    await asyncio.gather(*pending, return_exceptions=True)
    ended = {task.get_name() for task in done}
    if "lapsed" in ended:
        await _close(socket, 4401, "The credential was revoked or has expired")
    elif "stopping" in ended:
        await _close(socket, 1012, "The server is restarting: reconnect with after")
    elif "send" in ended:
        await _close(socket, 1011, "The event stream ended")
    for task in done:
        if not task.cancelled():
            task.exception()


async def _send(socket: WebSocket[Any, Any, Any], events: Any) -> None:
    heard: Heard
    async for heard in events:
        await socket.send_text(heard.body.decode())


async def _until_closed(socket: WebSocket[Any, Any, Any]) -> None:
    """Return when the client closes (it sends nothing else that matters)."""
    with contextlib.suppress(WebSocketDisconnect):
        while True:
            await socket.receive_data("text")


async def _close(socket: WebSocket[Any, Any, Any], code: int, reason: str) -> None:
    with contextlib.suppress(WebSocketDisconnect, RuntimeError):
        await socket.close(code, reason[:120])
