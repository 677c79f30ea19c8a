"""Domain errors raised by the services. Transports map them: REST to RFC 9457 problems
(``rest/problems.py``), GraphQL to ``extensions.code`` (``graphql_api/errors.py``)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar


@dataclass(frozen=True, slots=True)
class FieldError:
    field: str
    message: str


class DomainError(Exception):
    """A request the rules refuse, of a problem type: its HTTP ``status``, the ``slug`` of its
    type URI and its ``title``, given in the class line of each kind (a kind that leaves
    ``status`` out keeps its parent's). GraphQL's ``extensions.code`` follows from the status
    (``graphql_api/errors.py``)."""

    status: ClassVar[int] = 400
    slug: ClassVar[str] = "bad-request"
    title: ClassVar[str] = "Bad request"

    def __init_subclass__(cls, *, status: int | None = None, slug: str, title: str) -> None:
        super().__init_subclass__()
        if status is not None:
            cls.status = status
        cls.slug = slug
        cls.title = title

    def __init__(self, detail: str) -> None:
        super().__init__(detail)
        self.detail = detail


class InvalidInput(DomainError, status=400, slug="validation-error", title="Invalid request"):
    """A path, query or body value is invalid; ``errors`` names each offending field."""

    def __init__(self, detail: str, errors: list[FieldError] | None = None) -> None:
        super().__init__(detail)
        self.errors = errors or []

    @classmethod
    def field(cls, field: str, message: str) -> InvalidInput:
        return cls(f"{field}: {message}", [FieldError(field, message)])


class Unauthenticated(DomainError, status=401, slug="unauthenticated", title="Unauthenticated"):
    def __init__(self, detail: str, *, credential_sent: bool) -> None:
        super().__init__(detail)
        self.credential_sent = credential_sent


class Forbidden(DomainError, status=403, slug="forbidden", title="Forbidden"):
    """The credential is valid but lacks ``scope`` (or, for scanners, the scanner is not ours)."""

    def __init__(self, detail: str, *, scope: str | None = None) -> None:
        super().__init__(detail)
        self.scope = scope


class NotFound(DomainError, status=404, slug="not-found", title="Not found"):
    @classmethod
    def resource(cls, kind: str, resource_id: object) -> NotFound:
        return cls(f"No {kind} with id {resource_id}")


class Conflict(DomainError, status=409, slug="conflict", title="Conflict"):
    pass


class SoldOut(Conflict, slug="sold-out", title="Sold out"):
    """Fewer places are left in the timeslot than a hold or an order asks for."""


class HoldUnavailable(Conflict, slug="hold-unavailable", title="Hold unavailable"):
    """The hold was converted, released or has expired: its places are no longer kept."""


class NonceReused(Conflict, slug="nonce-reused", title="Nonce reused"):
    """A door device's ``nonce`` was already used for another ticket (CONTRACT.md section 11)."""


class CurrentScanKey(
    Conflict, slug="current-scan-key", title="The current scan key cannot be retired"
):
    """The scan key named signs the event's new codes (CONTRACT.md section 17): rotate first."""


class RateLimited(DomainError, status=429, slug="rate-limited", title="Too many requests"):
    def __init__(self, detail: str, *, retry_after: int) -> None:
        super().__init__(detail)
        self.retry_after = retry_after


class IdempotencyKeyInProgress(
    Conflict, slug="idempotency-key-in-progress", title="Idempotency key in progress"
):
    """A request with the same key is still running; retry after ``retry_after`` seconds."""

    def __init__(self, detail: str, *, retry_after: int = 1) -> None:
        super().__init__(detail)
        self.retry_after = retry_after


class Unavailable(DomainError, status=503, slug="unavailable", title="Service unavailable"):
    """A dependency cannot serve the request now (the database is down or not migrated); the
    caller may try again later."""

    DEPENDENCY_DOWN = "A service this API depends on did not answer; try again shortly."
    """What a client is told when the database or Redis failed (the log and ``/readyz`` say
    which)."""


class IdempotencyKeyReused(
    DomainError, status=422, slug="idempotency-key-reused", title="Idempotency key reused"
):
    """The key was used for another request (other method, path, query or body)."""
