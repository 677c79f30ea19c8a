"""What every HTML page this service sends carries: it may not be framed, and its scripts and
connections come from this service only.

Part of the application's before-send hook (``rest.http.finish_response``) rather than headers
on each route, so that a page added later (or one a library renders: Scalar and Swagger UI
through Litestar's OpenAPI plugins) is covered without anyone remembering it. Pages with a
stricter policy of their own (the dashboard, the OAuth consent and the development provider's
pages) keep theirs: the hook only fills in what a page left out.
"""

from __future__ import annotations

from litestar.datastructures import MutableScopeHeaders

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


def protect_page(headers: MutableScopeHeaders) -> None:
    """Add :data:`PAGE_HEADERS` an answer's headers do not set, when it is ``text/html``."""
    if not headers.get("content-type", "").startswith("text/html"):
        return
    for name, value in PAGE_HEADERS.items():
        if name not in headers:
            headers[name] = value
