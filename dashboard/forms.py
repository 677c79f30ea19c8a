"""What the dashboard's pages share beyond the layout: form fields, redirects after a change, the
one-line messages those redirects carry, and paging links."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, TypeVar
from urllib.parse import urlencode

from litestar import Request, Response
from litestar.datastructures import FormMultiDict
from litestar.response import Template

from app.errors import InvalidInput
from app.pagination import Pagination
from app.settings import Settings


def settings_of(request: Request[Any, Any, Any]) -> Settings:
    settings: Settings = request.app.state["settings"]
    return settings


def text(form: FormMultiDict, name: str) -> str:
    """A form field as text (empty when absent), without surrounding blanks."""
    return str(form.get(name, "") or "").strip()


def texts(form: FormMultiDict, name: str) -> list[str]:
    """Every value of a repeated field (checkboxes)."""
    return [str(value) for value in form.getall(name, [])]


def optional_int(form: FormMultiDict, name: str) -> int | None:
    """A whole number, or None when left empty; :class:`InvalidInput` naming the field else."""
    value = text(form, name)
    if not value:
        return None
    try:
        return int(value)
    except ValueError:
        raise InvalidInput.field(name, "must be a whole number") from None


def optional_utc(form: FormMultiDict, name: str) -> datetime | None:
    """A ``datetime-local`` field read as UTC (the pages say so), or None when left empty."""
    value = text(form, name)
    if not value:
        return None
    try:
        return datetime.fromisoformat(value).replace(tzinfo=UTC)
    except ValueError:
        raise InvalidInput.field(name, "must be a date and time, e.g. 2030-06-01T18:00") from None


def local_input(value: datetime | None) -> str:
    """A timestamp as a ``datetime-local`` field's value (UTC)."""
    return "" if value is None else value.astimezone(UTC).strftime("%Y-%m-%dT%H:%M")


T = TypeVar("T")


async def submitted(
    act: Callable[[], Awaitable[T]], again: Callable[[str], Awaitable[Template]]
) -> T | Template:
    """What a form's ``act`` answers (the page after a change), or, when the service finds the
    input invalid, the form's page made again by ``again`` with the error (the form keeps what
    was typed; the caller's page answers 400)."""
    try:
        return await act()
    except InvalidInput as error:
        return await again(error.detail)


def redirect(path: str, done: str = "") -> Response[Any]:
    """See the page at ``path`` (POST, then redirect, then GET), with the message ``done``."""
    location = f"{path}?{urlencode({'done': done})}" if done else path
    return Response(b"", status_code=303, headers={"Location": location})


def message(request: Request[Any, Any, Any], messages: Mapping[str, str]) -> str:
    """The message a redirect asked for (``?done=``), if it is one of this page's."""
    return messages.get(request.query_params.get("done", ""), "")


def offset_of(request: Request[Any, Any, Any], name: str = "offset") -> int:
    """The page's offset from the query string (bad values start at the beginning)."""
    raw = request.query_params.get(name, "0")
    return int(raw) if raw.isdigit() and len(raw) < 10 else 0


@dataclass(frozen=True, slots=True)
class Pager:
    """Links to the previous and next pages of a list shown by offset."""

    first: int
    last: int
    total: int
    previous: str | None
    next: str | None


def pager(
    path: str, pagination: Pagination, shown: int, name: str = "offset", **query: str
) -> Pager:
    def link(offset: int) -> str:
        return f"{path}?{urlencode({**query, name: offset})}"

    offset, limit = pagination.offset, pagination.limit
    return Pager(
        first=offset + 1 if shown else 0,
        last=offset + shown,
        total=pagination.total,
        previous=link(max(offset - limit, 0)) if offset > 0 else None,
        next=link(offset + limit) if pagination.has_more else None,
    )
