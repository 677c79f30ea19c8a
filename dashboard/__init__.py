"""The organization dashboard (CONTRACT.md section 15): a third transport on the services.

Server-rendered HTML (Jinja templates in ``dashboard/templates``, one stylesheet in
``dashboard/static``) at ``/dashboard``. Like ``rest/`` and ``graphql_api/`` it holds no SQL and
no rule: a page turns a request into service calls with the signed-in member's
:class:`~app.principal.Principal`, and the services decide what that member may do. How to add a
page: docs/dashboard.md.
"""

from __future__ import annotations

from pathlib import Path

from jinja2 import Environment, FileSystemLoader, select_autoescape
from litestar import Router
from litestar.datastructures import CacheControlHeader, ResponseHeader
from litestar.plugins.jinja import JinjaTemplateEngine
from litestar.static_files import create_static_files_router
from litestar.template.config import TemplateConfig

from dashboard import (
    api_keys,
    audit_log,
    door,
    events,
    oauth_applications,
    overview,
    scanners,
    sign_in,
    webhooks,
)
from dashboard.errors import EXCEPTION_HANDLERS
from dashboard.layout import when, when_text
from dashboard.security import check_request
from rest.http import FORM_BODY_OPT

HERE = Path(__file__).parent
TEMPLATES = HERE / "templates"
STATIC = HERE / "static"
PATH = "/dashboard"

ROUTES = [
    *sign_in.ROUTES,
    *overview.ROUTES,
    *events.ROUTES,
    *door.ROUTES,
    *api_keys.ROUTES,
    *webhooks.ROUTES,
    *oauth_applications.ROUTES,
    *scanners.ROUTES,
    *audit_log.ROUTES,
]
"""Every page; a module of pages adds its ``ROUTES`` here."""

HEADERS = [
    ResponseHeader(name="Cache-Control", value="no-store"),
    ResponseHeader(name="X-Frame-Options", value="DENY"),
    ResponseHeader(name="X-Content-Type-Options", value="nosniff"),
    ResponseHeader(name="Referrer-Policy", value="same-origin"),
    ResponseHeader(
        name="Content-Security-Policy",
        value="default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; "
        "frame-ancestors 'none'; base-uri 'none'; form-action 'self'",
    ),
]


def template_config() -> TemplateConfig[JinjaTemplateEngine]:
    """The app's template engine: Jinja over ``dashboard/templates``, HTML autoescaped."""
    environment = Environment(
        loader=FileSystemLoader(TEMPLATES),
        autoescape=select_autoescape(default=True),
        trim_blocks=True,
        lstrip_blocks=True,
    )
    environment.filters["when"] = when
    environment.filters["when_text"] = when_text
    return TemplateConfig(instance=JinjaTemplateEngine.from_environment(environment))


def dashboard_router() -> Router:
    """The dashboard's pages: HTML errors, the session and CSRF check before every route, form
    bodies (not JSON), and pages that are never cached or framed."""
    return Router(
        path="/",
        route_handlers=ROUTES,
        before_request=check_request,
        exception_handlers=EXCEPTION_HANDLERS,
        response_headers=HEADERS,
        opt={FORM_BODY_OPT: True},
        include_in_schema=False,
    )


def static_router() -> Router:
    return create_static_files_router(
        path=f"{PATH}/static",
        directories=[STATIC],
        cache_control=CacheControlHeader(max_age=3600, public=True),
        include_in_schema=False,
    )
