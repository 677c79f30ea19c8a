"""The browser pages' JavaScript and CSS, served by the service itself (no CDN).

``/schema`` (Scalar), ``/schema/swagger`` and GraphiQL at ``/graphql`` load their code from
``/static/vendor/<package>@<version>/``: pinned copies of the npm packages committed under
``rest/static/vendor`` (versions, licences and why in docs/decisions.md and the folder's README),
so the pages work on a machine without internet and never change under us. The paths carry the
version, so the files are cached for a year.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

from litestar.datastructures import CacheControlHeader
from litestar.router import Router
from litestar.static_files import create_static_files_router

STATIC_PATH = "/static"
STATIC_DIRECTORY = Path(__file__).parent / "static"

SCALAR = "scalar-api-reference@1.72.1"
SWAGGER_UI = "swagger-ui-dist@5.35.0"
GRAPHIQL = "graphiql@3.8.3"
GRAPHIQL_EXPLORER = "graphiql-plugin-explorer@1.0.2"
REACT = "react@18.2.0"
REACT_DOM = "react-dom@18.2.0"
NO_FAVICON = "<link rel='icon' href='data:,'>"
"""Litestar's pages link a favicon on a CDN by default; this one is empty and inline."""


def vendored(package: str, file: str) -> str:
    """The URL of ``file`` of the vendored ``package`` (``name@version``)."""
    return f"{STATIC_PATH}/vendor/{package}/{file}"


def own(file: str) -> str:
    """The URL of the service's own static ``file``, with a digest of its content in the query, so
    that a changed file is fetched again despite the year-long caching."""
    digest = hashlib.sha256((STATIC_DIRECTORY / file).read_bytes()).hexdigest()[:16]
    return f"{STATIC_PATH}/{file}?v={digest}"


def static_files() -> Router:
    return create_static_files_router(
        path=STATIC_PATH,
        directories=[STATIC_DIRECTORY],
        cache_control=CacheControlHeader(max_age=365 * 24 * 3600, public=True),
        include_in_schema=False,
    )
