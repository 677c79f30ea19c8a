"""A request header read straight from the ASGI scope, for the code that runs on every request
before (or without) a Litestar ``Request``: a scan of the raw pairs rather than Litestar's
``Headers``, which decodes every header of the request into a multidict to answer one."""

from __future__ import annotations

from litestar.types import Scope


def header(scope: Scope, name: bytes) -> str | None:
    """The first value of the header ``name`` (lower case, as ASGI servers send names)."""
    for key, value in scope.get("headers", ()):
        if key == name:
            return str(value.decode("latin-1"))
    return None
