"""Cross-cutting HTTP behaviour: request ids and JSON-only bodies (CONTRACT.md section 1)."""

from __future__ import annotations

import re
import uuid
from typing import Any

from litestar import Request
from litestar.datastructures import MutableScopeHeaders
from litestar.exceptions import ClientException
from litestar.types import Message, Scope

REQUEST_ID_HEADER = "X-Request-ID"
_CLIENT_REQUEST_ID = re.compile(r"^[A-Za-z0-9._:-]{1,128}$")
MAX_BODY_BYTES = 1024 * 1024
BODY_METHODS = {"POST", "PUT", "PATCH"}
FORM_BODY_OPT = "form_body"


def request_id(scope: Scope) -> str:
    """The client's ``X-Request-ID`` when it is sane, else a new one; stable for the request."""
    state = scope.setdefault("state", {})
    if "request_id" not in state:
        sent = next(
            (v.decode("latin-1") for k, v in scope.get("headers", []) if k == b"x-request-id"), ""
        )
        state["request_id"] = sent if _CLIENT_REQUEST_ID.match(sent) else uuid.uuid4().hex
    return state["request_id"]


async def add_request_id(message: Message, scope: Scope) -> None:
    if message["type"] == "http.response.start":
        MutableScopeHeaders.from_message(message)[REQUEST_ID_HEADER] = request_id(scope)


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
