"""The overview: the start page inside an organization. Its events that are on or to come, each
with tickets sold against capacity and admitted so far, and the way to its door view."""

from __future__ import annotations

from litestar import get
from litestar.response import Template

from app.services import overview as sales
from dashboard.layout import PageRequest, page
from dashboard.security import principal_of


@get("/dashboard")
async def overview(request: PageRequest) -> Template:
    events = await sales.upcoming_events(principal_of(request))
    return page(request, "overview.html", "Overview", events=events)


ROUTES = [overview]
