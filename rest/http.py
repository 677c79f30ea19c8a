"""Cross-cutting HTTP behaviour: request ids, JSON-only bodies decoded strictly (CONTRACT.md
section 1)."""

from __future__ import annotations

import re
import secrets
from typing import Any

from litestar import Litestar, Request
from litestar.datastructures import MutableScopeHeaders
from litestar.exceptions import ClientException
from litestar.routes import HTTPRoute
from litestar.types import Empty, HTTPResponseStartEvent, Message, Scope

from app.schemas.decoding import MalformedJSON, decode_json
from rest.auth import require_route_scope
from rest.page_policy import protect_page
from rest.scope_headers import header

REQUEST_ID_HEADER = "X-Request-ID"
_CLIENT_REQUEST_ID = re.compile(r"^[A-Za-z0-9._:-]{1,128}$")
MAX_BODY_BYTES = 1024 * 1024
BODY_METHODS = {"POST", "PUT", "PATCH"}
FORM_BODY_OPT = "form_body"


def request_id(scope: Scope) -> str:
    """The client's ``X-Request-ID`` when it is sane, else a new one; stable for the request."""
    state = scope.setdefault("state", {})
    if "request_id" not in state:
        sent = header(scope, b"x-request-id") or ""
        # 32 random hex digits, as uuid4().hex without its fixed digits (a quarter of its CPU).
        state["request_id"] = sent if _CLIENT_REQUEST_ID.match(sent) else secrets.token_hex(16)
    request_id: str = state["request_id"]
    return request_id


async def finish_response(message: Message, scope: Scope) -> None:
    """The application's ``before_send`` hook: every answer's request id, an automatic
    ``OPTIONS`` answer's ``Allow`` (:func:`correct_allow`) and an HTML page's policy
    (``rest.page_policy``). One hook with one view of the headers, as Litestar awaits each hook
    for each message of each answer."""
    if message["type"] != "http.response.start":
        return
    headers = MutableScopeHeaders.from_message(message)
    headers[REQUEST_ID_HEADER] = request_id(scope)
    correct_allow(message, scope, headers)
    protect_page(headers)


ALLOW_BY_PATH = "allow_by_path"


def record_allowed_methods(application: Litestar) -> None:
    """Keep each path's methods, for :func:`correct_allow`."""
    application.state[ALLOW_BY_PATH] = {
        route.path_format: ", ".join(sorted(route.methods))
        for route in application.routes
        if isinstance(route, HTTPRoute)
    }


def correct_allow(
    message: HTTPResponseStartEvent, scope: Scope, headers: MutableScopeHeaders
) -> None:
    """``Allow`` of an automatic ``OPTIONS`` answer names every method of the path.

    Litestar 2.25 builds a path's OPTIONS handler with the first handler registered for it and
    keeps that handler when more are merged in, so ``OPTIONS /events`` answered
    ``Allow: OPTIONS, POST`` although ``GET /events`` exists. ``tests/api/test_openapi.py`` checks
    the header on every documented path.
    """
    if scope.get("method") != "OPTIONS" or message["status"] != 204:
        return
    allow = Litestar.from_scope(scope).state.get(ALLOW_BY_PATH, {}).get(scope.get("path_template"))
    if allow:
        headers["Allow"] = allow


async def before_route(request: Request[Any, Any, Any]) -> None:
    """The application's ``before_request``: the route's scope (403,
    :func:`rest.auth.require_route_scope`), then the body's media type (415)."""
    require_route_scope(request)
    await require_json_body(request)


async def require_json_body(request: Request[Any, Any, Any]) -> None:
    """415 for a body that is not JSON (form-encoded OAuth routes opt out)."""
    if request.method not in BODY_METHODS or request.route_handler.opt.get(FORM_BODY_OPT):
        return
    has_body = (
        request.headers.get("content-length", "0") != "0" or "transfer-encoding" in request.headers
    )
    if not has_body:
        return
    media_type = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if media_type != "application/json" and not media_type.endswith("+json"):
        raise ClientException(
            status_code=415,
            detail=f"Send the body as application/json (got {media_type or 'no content type'})",
        )


class StrictJSONRequest(Request[Any, Any, Any]):
    """A request whose JSON body is decoded strictly, straight into the handler's ``data`` type.

    Litestar decodes a body to plain values and converts them with the lenient rules it needs for
    query strings (``"1"`` -> 1, ``0`` -> false, ``0`` -> 1970). Decoding here, once, with
    :func:`app.schemas.decoding.decode_json`, holds every JSON body to strict types; Litestar's
    conversion then receives the finished struct and passes it through unchanged. A body nested
    too deeply for the decoder is a 400 like any other malformed body.
    """

    __slots__ = ("_strict_json",)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._strict_json: Any = Empty

    async def json(self) -> Any:
        if self._strict_json is Empty:
            data_field = self.route_handler.parsed_data_field
            target = Any if data_field is None else data_field.annotation
            try:
                self._strict_json = decode_json(await self.body() or b"null", target)
            except MalformedJSON as error:
                raise ClientException(status_code=400, detail=str(error)) from None
        return self._strict_json
