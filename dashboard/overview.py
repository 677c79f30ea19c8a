"""The overview: the start page inside an organization (a placeholder listing the sections until
the overview of upcoming events lands)."""

from __future__ import annotations

from typing import Any

from litestar import Request, get
from litestar.response import Template

from dashboard.layout import page


@get("/dashboard")
async def overview(request: Request[Any, Any, Any]) -> Template:
    return page(request, "overview.html", "Overview")


ROUTES = [overview]
