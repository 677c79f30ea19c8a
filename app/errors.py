"""Domain errors raised by the services. Transports map them: REST to RFC 9457 problems
(``rest/problems.py``), GraphQL to ``extensions.code`` (``graphql_api/errors.py``)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class FieldError:
    field: str
    message: str


class DomainError(Exception):
    status: int = 400
    slug: str = "bad-request"
    title: str = "Bad request"
    code: str = "BAD_USER_INPUT"

    def __init__(self, detail: str) -> None:
        super().__init__(detail)
        self.detail = detail


class InvalidInput(DomainError):
    """A path, query or body value is invalid; ``errors`` names each offending field."""

    status = 400
    slug = "validation-error"
    title = "Invalid request"
    code = "BAD_USER_INPUT"

    def __init__(self, detail: str, errors: list[FieldError] | None = None) -> None:
        super().__init__(detail)
        self.errors = errors or []

    @classmethod
    def field(cls, field: str, message: str) -> InvalidInput:
        return cls(f"{field}: {message}", [FieldError(field, message)])


class Unauthenticated(DomainError):
    status = 401
    slug = "unauthenticated"
    title = "Unauthenticated"
    code = "UNAUTHENTICATED"

    def __init__(self, detail: str, *, credential_sent: bool) -> None:
        super().__init__(detail)
        self.credential_sent = credential_sent


class Forbidden(DomainError):
    """The credential is valid but lacks ``scope`` (or, for scanners, the scanner is not ours)."""

    status = 403
    slug = "forbidden"
    title = "Forbidden"
    code = "FORBIDDEN"

    def __init__(self, detail: str, *, scope: str | None = None) -> None:
        super().__init__(detail)
        self.scope = scope


class NotFound(DomainError):
    status = 404
    slug = "not-found"
    title = "Not found"
    code = "NOT_FOUND"

    @classmethod
    def resource(cls, kind: str, resource_id: object) -> NotFound:
        return cls(f"No {kind} with id {resource_id}")


class Conflict(DomainError):
    status = 409
    slug = "conflict"
    title = "Conflict"
    code = "CONFLICT"


class SoldOut(Conflict):
    """Fewer places are left in the timeslot than a hold or an order asks for."""

    slug = "sold-out"
    title = "Sold out"


class HoldUnavailable(Conflict):
    """The hold was converted, released or has expired: its places are no longer kept."""

    slug = "hold-unavailable"
    title = "Hold unavailable"


class NonceReused(DomainError):
    """A door device's ``nonce`` was already used for another ticket (CONTRACT.md section 11)."""

    status = 409
    slug = "nonce-reused"
    title = "Nonce reused"
    code = "CONFLICT"


class RateLimited(DomainError):
    status = 429
    slug = "rate-limited"
    title = "Too many requests"
    code = "RATE_LIMITED"

    def __init__(self, detail: str, *, retry_after: int) -> None:
        super().__init__(detail)
        self.retry_after = retry_after


class Unavailable(DomainError):
    """A dependency cannot serve the request now (the database is down or not migrated); the
    caller may try again later."""

    status = 503
    slug = "unavailable"
    title = "Service unavailable"
    code = "UNAVAILABLE"

    DEPENDENCY_DOWN = "A service this API depends on did not answer; try again shortly."
    """What a client is told when the database or Redis failed (the log and ``/readyz`` say
    which)."""


class IdempotencyKeyReused(DomainError):
    """The key was used for another request (other method, path, query or body)."""

    status = 422
    slug = "idempotency-key-reused"
    title = "Idempotency key reused"
    code = "BAD_USER_INPUT"


class IdempotencyKeyInProgress(DomainError):
    """A request with the same key is still running; retry after ``retry_after`` seconds."""

    status = 409
    slug = "idempotency-key-in-progress"
    title = "Idempotency key in progress"
    code = "CONFLICT"

    def __init__(self, detail: str, *, retry_after: int = 1) -> None:
        super().__init__(detail)
        self.retry_after = retry_after
