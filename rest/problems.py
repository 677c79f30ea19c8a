"""RFC 9457 problem details for every error (CONTRACT.md section 1): never a stack trace."""

from __future__ import annotations

import logging
from typing import Any

import msgspec
from asyncpg.exceptions import InterfaceError, InternalClientError
from litestar import Request, Response
from litestar.exceptions import HTTPException, ValidationException
from litestar.status_codes import HTTP_500_INTERNAL_SERVER_ERROR
from litestar.types import ExceptionHandlersMap

from app.errors import (
    DomainError,
    FieldError,
    Forbidden,
    IdempotencyKeyInProgress,
    RateLimited,
    Unauthenticated,
    Unavailable,
)
from app.validation import field_error
from db.availability import UNAVAILABLE, unavailable

PROBLEM_MEDIA_TYPE = "application/problem+json"
REALM = "ticketing"

logger = logging.getLogger("ticketing.errors")


class ProblemFieldError(msgspec.Struct):
    field: str
    message: str


class Problem(msgspec.Struct, omit_defaults=True):
    """The body of every error response."""

    type: str
    title: str
    status: int
    detail: str
    errors: list[ProblemFieldError] | None = None
    checks: dict[str, str] = {}
    """``/readyz`` only: the state of each dependency it checked."""


def problem_response(
    status: int,
    slug: str,
    title: str,
    detail: str,
    errors: list[FieldError] | None = None,
    headers: dict[str, str] | None = None,
    checks: dict[str, str] | None = None,
) -> Response[Problem]:
    body = Problem(
        type=f"/problems/{slug}",
        title=title,
        status=status,
        detail=detail,
        errors=[ProblemFieldError(e.field, e.message) for e in errors] if errors else None,
        checks=checks or {},
    )
    return Response(body, status_code=status, media_type=PROBLEM_MEDIA_TYPE, headers=headers)


def authentication_headers(error: DomainError) -> dict[str, str]:
    """RFC 6750 section 3.1 challenges for 401 and 403; ``Retry-After`` of a 429 or of a 409
    for an idempotency key in use."""
    if isinstance(error, Unauthenticated):
        if error.credential_sent:
            return {"WWW-Authenticate": f'Bearer realm="{REALM}", error="invalid_token"'}
        return {"WWW-Authenticate": f'Bearer realm="{REALM}"'}
    if isinstance(error, Forbidden) and error.scope:
        return {"WWW-Authenticate": f'Bearer error="insufficient_scope", scope="{error.scope}"'}
    if isinstance(error, RateLimited | IdempotencyKeyInProgress):
        return {"Retry-After": str(error.retry_after)}
    return {}


def handle_domain_error(_: Request[Any, Any, Any], error: DomainError) -> Response[Problem]:
    return problem_response(
        error.status,
        error.slug,
        error.title,
        error.detail,
        errors=getattr(error, "errors", None),
        headers=authentication_headers(error),
    )


def _field_error(entry: dict[str, Any]) -> FieldError:
    """One entry of Litestar's validation error: its ``message`` is msgspec's (read by
    ``app.validation``); ``key`` names a query or path parameter."""
    message = str(entry.get("message", "is invalid"))
    key = entry.get("key")
    if key == "data" and message == "'data'":
        return FieldError("body", "a JSON body is required")  # Litestar's KeyError('data')
    if key and key != "data" and " - at `$" not in message:
        return FieldError(str(key), message)
    return field_error(message)


def handle_validation_error(
    _: Request[Any, Any, Any], error: ValidationException
) -> Response[Problem]:
    extra = error.extra if isinstance(error.extra, list) else []
    errors = [_field_error(entry) for entry in extra if isinstance(entry, dict)]
    detail = "; ".join(f"{e.field}: {e.message}" for e in errors) or str(error.detail)
    return problem_response(400, "validation-error", "Invalid request", detail, errors or None)


def handle_http_error(_: Request[Any, Any, Any], error: HTTPException) -> Response[Problem]:
    status = error.status_code
    slug, title = {
        400: ("bad-request", "Bad request"),
        404: ("not-found", "Not found"),
        405: ("method-not-allowed", "Method not allowed"),
        406: ("not-acceptable", "Not acceptable"),
        413: ("payload-too-large", "Payload too large"),
        415: ("unsupported-media-type", "Unsupported media type"),
        429: ("rate-limited", "Too many requests"),
    }.get(status, ("bad-request" if status < 500 else "server-error", "Request failed"))
    headers = {
        k: v for k, v in (error.headers or {}).items() if k.lower() in {"allow", "retry-after"}
    }
    if status >= 500:
        logger.error("HTTP %s: %s", status, error.detail)
        detail = "The server could not handle the request"
    elif status == 400:
        detail = f"The request could not be read: {error.detail}"
    else:
        detail = str(error.detail)
    return problem_response(status, slug, title, detail, headers=headers or None)


def handle_unexpected_error(request: Request[Any, Any, Any], error: Exception) -> Response[Problem]:
    logger.exception("Unhandled error on %s %s", request.method, request.url.path, exc_info=error)
    return problem_response(
        HTTP_500_INTERNAL_SERVER_ERROR,
        "server-error",
        "Internal server error",
        "The server failed to handle the request; it has been logged.",
    )


def handle_unreachable_dependency(
    request: Request[Any, Any, Any], error: Exception
) -> Response[Problem]:
    """The database cannot serve now (``db.availability.UNAVAILABLE``: down, refusing, full,
    missing, failing over): a 503 and one log line, not a 500 with a stack trace; ``/readyz``
    says which dependency it is."""
    logger.warning(
        "%s %s: a dependency did not answer (%s: %s)",
        request.method,
        request.url.path,
        type(error).__name__,
        str(error).strip().splitlines()[0] if str(error).strip() else "no detail",
    )
    return problem_response(
        503,
        Unavailable.slug,
        Unavailable.title,
        Unavailable.DEPENDENCY_DOWN,
        headers={"Retry-After": "1"},
    )


def handle_database_client_error(
    request: Request[Any, Any, Any], error: Exception
) -> Response[Problem]:
    """asyncpg's own errors: the database gone under a request (503) or a bug (500)."""
    if unavailable(error):
        return handle_unreachable_dependency(request, error)
    return handle_unexpected_error(request, error)


EXCEPTION_HANDLERS: ExceptionHandlersMap = {
    DomainError: handle_domain_error,
    **dict.fromkeys(UNAVAILABLE, handle_unreachable_dependency),
    InterfaceError: handle_database_client_error,
    InternalClientError: handle_database_client_error,
    ValidationException: handle_validation_error,
    HTTPException: handle_http_error,
    Exception: handle_unexpected_error,
}
