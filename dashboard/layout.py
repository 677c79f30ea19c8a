"""The dashboard's page frame: sections in the navigation, the layout's context, rendering."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Annotated, Any, TypeAlias
from uuid import UUID
from zoneinfo import ZoneInfo

from jinja2 import pass_context
from jinja2.runtime import Context
from litestar import Request
from litestar.params import PathParameter
from litestar.response import Template
from litestar.routes import HTTPRoute
from markupsafe import Markup

from app.services.dashboard_sessions import SessionView, csrf_token
from dashboard.security import SESSION_STATE, cookie_token

PageRequest: TypeAlias = Request[Any, Any, Any]
"""A dashboard page's request."""
PathId: TypeAlias = Annotated[UUID, PathParameter()]
"""An id in a dashboard path (``{event_id:uuid}``)."""
STYLESHEET = "/dashboard/static/dashboard.css"
PATHS_STATE = "dashboard_paths"


@dataclass(frozen=True, slots=True)
class Section:
    label: str
    path: str
    description: str


SECTIONS: tuple[Section, ...] = (
    Section("Overview", "/dashboard", "Upcoming events: sold, capacity and admitted so far"),
    Section("Events", "/dashboard/events", "Timeslots, orders and ticket search"),
    Section("Door view", "/dashboard/door", "Scans as they happen, admitted against sold"),
    Section("API keys", "/dashboard/api-keys", "Credentials for your own programs"),
    Section("Webhooks", "/dashboard/webhooks", "Subscriptions, deliveries, tests and secrets"),
    Section(
        "OAuth applications",
        "/dashboard/oauth-applications",
        "Registered applications and the access users granted them",
    ),
    Section("Scanners", "/dashboard/scanners", "Door scanners and their profiles"),
    Section("Audit log", "/dashboard/audit-log", "Who changed what, and when"),
)
"""Every section of CONTRACT.md section 15, in navigation order. A section appears in the
navigation once a GET route serves its path: a new page needs no change here."""


@dataclass(frozen=True, slots=True)
class NavItem:
    label: str
    path: str
    description: str
    current: bool


@dataclass(frozen=True, slots=True)
class Layout:
    """What ``base.html`` shows around every page."""

    signed_in: bool
    email: str | None
    organization_id: Any
    organization_name: str | None
    role: str | None
    is_admin: bool
    can_switch: bool
    csrf: str
    navigation: list[NavItem]
    test_mode: bool = False
    timezone: str = "UTC"
    """The organization's time zone: every time on the page is shown in it, UTC on hover."""
    stylesheet: str = STYLESHEET


def _served_paths(request: Request[Any, Any, Any]) -> set[str]:
    state = request.app.state
    if PATHS_STATE not in state:
        state[PATHS_STATE] = {
            route.path
            for route in request.app.routes
            if isinstance(route, HTTPRoute) and "GET" in route.methods
        }
    paths: set[str] = state[PATHS_STATE]
    return paths


def _current(path: str, section: Section) -> bool:
    if section.path == "/dashboard":
        return path == "/dashboard"
    return path == section.path or path.startswith(section.path + "/")


def layout_of(request: Request[Any, Any, Any]) -> Layout:
    session: SessionView | None = request.state.get(SESSION_STATE)
    token = cookie_token(request)
    if session is None or token is None:
        return Layout(False, None, None, None, None, False, False, "", [])
    navigation = []
    if session.organization_id is not None:
        served = _served_paths(request)
        navigation = [
            NavItem(s.label, s.path, s.description, _current(request.url.path, s))
            for s in SECTIONS
            if s.path in served
        ]
    return Layout(
        signed_in=True,
        email=session.email,
        organization_id=session.organization_id,
        organization_name=session.organization_name,
        role=session.role,
        is_admin=session.role == "admin",
        can_switch=session.organizations > 1,
        csrf=csrf_token(token),
        navigation=navigation,
        test_mode=session.test_mode,
        timezone=session.timezone,
    )


def page(
    request: Request[Any, Any, Any],
    template: str,
    title: str,
    *,
    status: int = 200,
    **context: Any,
) -> Template:
    """``template`` rendered inside the layout, with ``title`` and ``context``."""
    return Template(
        template_name=template,
        context={"layout": layout_of(request), "title": title, **context},
        status_code=status,
    )


MINUTE = "%Y-%m-%d %H:%M"
UTC_TITLE = "%Y-%m-%d %H:%M:%S UTC"


def local_time(value: datetime, timezone: str, form: str = MINUTE) -> tuple[str, str]:
    """``value`` as people at the organization read it (``form`` in its time zone, with the
    zone's abbreviation) and in UTC, for the hover."""
    local = value.astimezone(ZoneInfo(timezone))
    return f"{local.strftime(form)} {local.strftime('%Z')}", value.astimezone(UTC).strftime(
        UTC_TITLE
    )


def _timezone(context: Context) -> str:
    layout = context.get("layout")
    return layout.timezone if isinstance(layout, Layout) else "UTC"


@pass_context
def when_text(context: Context, value: datetime, form: str = MINUTE) -> str:
    """The ``when_text`` filter: the local time as plain text (for an attribute)."""
    return local_time(value, _timezone(context), form)[0]


@pass_context
def when(context: Context, value: datetime | None, form: str = MINUTE) -> Markup:
    """The ``when`` filter: a timestamp in the organization's time zone (``layout.timezone``),
    to the minute unless ``form`` says otherwise, in a ``<time>`` whose title is the UTC time."""
    if value is None:
        return Markup("")
    shown, utc = local_time(value, _timezone(context), form)
    return Markup('<time datetime="{}" title="{}">{}</time>').format(value.isoformat(), utc, shown)
