"""Errors inside the dashboard are pages, not problem+json: the same domain errors, in HTML."""

from __future__ import annotations

import logging
from typing import Any

from litestar import Request
from litestar.exceptions import HTTPException, ValidationException
from litestar.response import Template
from litestar.types import ExceptionHandlersMap

from app.errors import DomainError
from dashboard.layout import page

logger = logging.getLogger("ticketing.dashboard")

TITLES = {
    400: "That did not work",
    403: "Not allowed",
    404: "Not found",
    405: "Not allowed",
    409: "That conflicts with the current state",
    413: "Too large",
    429: "Too many requests",
    503: "Try again shortly",
}


def _page(request: Request[Any, Any, Any], status: int, detail: str) -> Template:
    title = TITLES.get(status, "Something went wrong")
    return page(request, "error.html", title, status=status, detail=detail)


def domain_error_page(request: Request[Any, Any, Any], error: DomainError) -> Template:
    return _page(request, error.status, error.detail)


def validation_error_page(request: Request[Any, Any, Any], error: ValidationException) -> Template:
    return _page(request, 404 if request.method == "GET" else 400, "This address is not valid.")


def http_error_page(request: Request[Any, Any, Any], error: HTTPException) -> Template:
    status = error.status_code
    if status >= 500:
        logger.error("dashboard HTTP %s: %s", status, error.detail)
        return _page(request, status, "The server could not handle the request.")
    return _page(request, status, str(error.detail))


def no_such_page(request: Request[Any, Any, Any], _: HTTPException) -> Template:
    """No route under ``/dashboard``: an unknown page, or a malformed id in a page's address."""
    return _page(request, 404, "There is no page at this address.")


def unexpected_error_page(request: Request[Any, Any, Any], error: Exception) -> Template:
    logger.exception("Unhandled error on %s %s", request.method, request.url.path, exc_info=error)
    return _page(request, 500, "The server failed to handle the request; it has been logged.")


EXCEPTION_HANDLERS: ExceptionHandlersMap = {
    DomainError: domain_error_page,
    ValidationException: validation_error_page,
    HTTPException: http_error_page,
    Exception: unexpected_error_page,
}
"""Overrides, for the dashboard's routes, every handler of ``rest.problems`` that would answer
with problem+json (the database's connection errors stay a 503 problem)."""
