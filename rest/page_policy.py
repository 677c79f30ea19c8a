"""What every HTML page this service sends carries: it may not be framed, and its scripts and
connections come from this service only.

A before-send hook rather than headers on each route, so that a page added later (or one a
library renders: Scalar and Swagger UI through Litestar's OpenAPI plugins) is covered without
anyone remembering it. Pages with a stricter policy of their own (the dashboard, the OAuth consent
and the development provider's pages) keep theirs: the hook only fills in what a page left out.
"""

from __future__ import annotations

from litestar.datastructures import MutableScopeHeaders
from litestar.types import Message, Scope

PAGE_POLICY = (
    "default-src 'self'; script-src 'self'; connect-src 'self'; img-src 'self' data:; "
    "font-src 'self' data:; style-src 'self' 'unsafe-inline'; frame-ancestors 'none'; "
    "base-uri 'none'; form-action 'self'"
)
"""Scripts, styles, images, fonts and connections (GraphiQL's queries and its WebSocket) from
this origin only; inline styles are allowed (Scalar and GraphiQL set them at run time), inline
scripts are not (the pages' own code is in ``rest/static``)."""

PAGE_HEADERS = {
    "Content-Security-Policy": PAGE_POLICY,
    "X-Frame-Options": "DENY",
    "X-Content-Type-Options": "nosniff",
}


async def protect_pages(message: Message, scope: Scope) -> None:
    """Add :data:`PAGE_HEADERS` a ``text/html`` response does not set itself."""
    if message["type"] != "http.response.start":
        return
    headers = MutableScopeHeaders.from_message(message)
    if not headers.get("content-type", "").startswith("text/html"):
        return
    for name, value in PAGE_HEADERS.items():
        if name not in headers:
            headers[name] = value
