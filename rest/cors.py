"""Cross-origin requests from browser apps (CONTRACT.md section 12), with Litestar's CORS support.

One configuration covers every HTTP route, REST and ``/graphql`` alike. Only the exact origins of
``TICKETING_CORS_ORIGINS`` are answered with ``Access-Control-Allow-Origin``; with none listed
there is no CORS configuration and so no CORS header at all. Credentials are bearer tokens the
app sends itself, never cookies, so ``Access-Control-Allow-Credentials`` is never sent. Litestar
answers a preflight (``OPTIONS`` with an ``Origin``) before routing and authentication, so a
preflight needs no credential; an origin not listed gets a 400 preflight without CORS headers.
"""

from __future__ import annotations

from litestar.config.cors import CORSConfig
from litestar.types import Method

from rest.http import REQUEST_ID_HEADER

ALLOWED_METHODS: list[Method] = ["GET", "POST", "PATCH", "DELETE"]
ALLOWED_HEADERS = ["Authorization", "Content-Type", "Idempotency-Key", REQUEST_ID_HEADER]
EXPOSED_HEADERS = [REQUEST_ID_HEADER, "Retry-After", "Idempotent-Replayed", "Location"]


def cors_config(origins: tuple[str, ...]) -> CORSConfig | None:
    """The CORS configuration for ``origins`` (``None``: CORS is off)."""
    if not origins:
        return None
    return CORSConfig(
        allow_origins=list(origins),
        allow_methods=list(ALLOWED_METHODS),
        allow_headers=list(ALLOWED_HEADERS),
        expose_headers=list(EXPOSED_HEADERS),
        allow_credentials=False,
    )
