"""CSV exports of lists: content negotiation, the CSV text of records, and the streamed response.

A list route answers ``Accept: text/csv`` with every record of the list (its filters and sort,
no pagination) as RFC 4180 CSV: a header row, then one row per record, CRLF line ends, fields
quoted when they hold a comma, a quote or a line break. The columns are the record's fields
(``app/schemas``), in their declared order, so the CSV follows the JSON without a second list of
fields. Values are written as the JSON writes them, flattened to text: ids, timestamps (UTC,
``Z``) and enums as in JSON, ``true``/``false``, an empty field for null, money as its decimal
string (``25.00``; the records' only floats are amounts), and nested values (``metadata``,
``metadata_fields``) as their JSON text. A text value that a spreadsheet would read as a formula
(it begins with ``=``, ``+``, ``-``, ``@``, a tab or a carriage return) gets a ``'`` in front, as
OWASP recommends against CSV injection; numbers, money included, are never text and stay as
they are (docs/decisions.md, "CSV export").

The records come from the resource's export (``Resource.export``) in chunks read from a
database cursor; each chunk is written into a buffer of its own and sent, so a response holds
one chunk whatever its size. When the client goes away, the stream is closed, which closes the
export and gives its database connection back.
"""

from __future__ import annotations

import contextlib
import csv
import io
from collections.abc import AsyncGenerator, Callable
from functools import cache
from typing import Any, Literal

import msgspec
from litestar import Litestar, Request
from litestar.background_tasks import BackgroundTask
from litestar.exceptions import ClientException
from litestar.openapi.spec import OpenAPIMediaType, OpenAPIType, Operation, Schema
from litestar.response import Stream
from litestar.response.base import ASGIResponse
from litestar.routes import HTTPRoute

from rest.scope_headers import header

CSV_MEDIA_TYPE = "text/csv"
JSON_MEDIA_TYPE = "application/json"
OFFERED = [JSON_MEDIA_TYPE, CSV_MEDIA_TYPE]
"""What a list answers with, JSON first: it is the default (no ``Accept``, or ``*/*``)."""
EXPORT_OPT = "csv_export"
"""Route option holding the record type of a list that can be exported as CSV."""

ListFormat = Literal["json", "csv"]
Cell = Callable[[Any], Any]
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
"""What a spreadsheet reads as the start of a formula in a cell (OWASP, CSV injection)."""


PLAIN_JSON = (None, "*/*", JSON_MEDIA_TYPE)
"""``Accept`` values that choose JSON without parsing (what most clients send)."""


def negotiate(request: Request[Any, Any, Any]) -> ListFormat:
    """JSON or CSV, as the request's ``Accept`` prefers; 406 when it accepts neither. The
    common ``Accept`` is read from the scope's raw pairs (``rest.scope_headers``), without
    Litestar's ``Headers`` of every header."""
    if header(request.scope, b"accept") in PLAIN_JSON:
        return "json"
    chosen = request.accept.best_match(OFFERED)
    if chosen is None:
        raise ClientException(
            f"This list is available as {' or '.join(OFFERED)}; Accept allows neither",
            status_code=406,
        )
    return "csv" if chosen == CSV_MEDIA_TYPE else "json"


def _boolean(value: bool | None) -> str | None:
    return None if value is None else ("true" if value else "false")


def _money(value: float | None) -> str | None:
    return None if value is None else f"{value:.2f}"


def _text(value: str | None) -> str | None:
    """The value, with a ``'`` in front when a spreadsheet would take it for a formula."""
    if value is not None and value.startswith(FORMULA_STARTS):
        return "'" + value
    return value


def _json(value: Any) -> str | None:
    return None if value is None else msgspec.json.encode(value).decode()


_NESTED = (msgspec.inspect.DictType, msgspec.inspect.ListType, msgspec.inspect.StructType)


def _cell(field_type: msgspec.inspect.Type) -> Cell | None:
    """How a field's value (as ``msgspec.to_builtins`` gives it) becomes its CSV field; None
    when the csv module writes it as it is (a number, an id, a time, an enum, an empty field for
    None)."""
    kinds = field_type.types if isinstance(field_type, msgspec.inspect.UnionType) else (field_type,)
    if any(isinstance(kind, _NESTED) for kind in kinds):
        return _json
    if any(isinstance(kind, msgspec.inspect.BoolType) for kind in kinds):
        return _boolean
    if any(isinstance(kind, msgspec.inspect.FloatType) for kind in kinds):
        return _money
    if any(isinstance(kind, msgspec.inspect.StrType) for kind in kinds):
        return _text
    return None


class CsvFormat:
    """The CSV of one record type: its header and the rows of a chunk of its records."""

    def __init__(self, record: type[msgspec.Struct]) -> None:
        # msgspec.to_builtins gives every field, in declared order, unless defaults are omitted.
        assert not record.__struct_config__.omit_defaults, record
        info = msgspec.inspect.type_info(record)
        assert isinstance(info, msgspec.inspect.StructType), record
        self.columns = tuple(field.name for field in info.fields)
        self._cells = tuple(
            (index, cell)
            for index, field in enumerate(info.fields)
            if (cell := _cell(field.type)) is not None
        )

    def header(self) -> str:
        return self._write([self.columns])

    def rows(self, records: list[Any]) -> str:
        """The CSV rows of ``records``, written into one buffer."""
        rows = [list(item.values()) for item in msgspec.to_builtins(records)]
        for row in rows:
            for index, cell in self._cells:
                row[index] = cell(row[index])
        return self._write(rows)

    @staticmethod
    def _write(rows: Any) -> str:
        buffer = io.StringIO()
        csv.writer(buffer, lineterminator="\r\n").writerows(rows)
        return buffer.getvalue()


class CsvStream(Stream):
    """A :class:`Stream` whose own media type wins: Litestar 2.25's ``Stream`` prefers the route
    handler's (``application/json`` here) to the one it was given, unlike ``Response``."""

    def to_asgi_response(self, *args: Any, **kwargs: Any) -> ASGIResponse:
        return super().to_asgi_response(*args, **{**kwargs, "media_type": self.media_type})


@cache
def csv_format(record: type[msgspec.Struct]) -> CsvFormat:
    """The (cached) CSV format of ``record``."""
    return CsvFormat(record)


def csv_stream(
    record: type[msgspec.Struct], chunks: AsyncGenerator[list[Any], None], filename: str
) -> CsvStream:
    """The streamed CSV response of the records ``chunks`` yields, to be saved as ``filename``.

    The stream is closed after the response, also when the client went away in the middle
    (Litestar then cancels the sending and runs the response's background task): closing it
    closes ``chunks``, which ends the database cursor and gives its connection back."""
    form = csv_format(record)

    async def body() -> AsyncGenerator[str, None]:
        yield form.header()
        async with contextlib.aclosing(chunks):
            async for records in chunks:
                yield form.rows(records)

    stream = body()
    return CsvStream(
        stream,
        # Litestar adds "; charset=utf-8" to a text/ media type.
        media_type=f"{CSV_MEDIA_TYPE}; header=present",
        headers={"Content-Disposition": f'attachment; filename="{filename}"'},
        background=BackgroundTask(stream.aclose),
    )


def declare_csv_exports(application: Litestar) -> None:
    """Document the ``text/csv`` answer next to the JSON one of each exportable list, with its
    columns (Litestar derives only the JSON answer from the return type)."""
    paths = application.openapi_schema.paths or {}
    for route in application.routes:
        if not isinstance(route, HTTPRoute) or route.path_format not in paths:
            continue
        for handler in route.route_handlers:
            record = handler.opt.get(EXPORT_OPT)
            if record is None or "GET" not in handler.http_methods:
                continue
            operation = paths[route.path_format].get
            assert isinstance(operation, Operation) and operation.responses is not None
            success = operation.responses["200"]
            content = getattr(success, "content", None)
            assert content is not None
            columns = ", ".join(csv_format(record).columns)
            content[CSV_MEDIA_TYPE] = OpenAPIMediaType(
                schema=Schema(
                    type=OpenAPIType.STRING,
                    description=(
                        "With `Accept: text/csv`: every matching row (filters and sort apply; "
                        "no pagination), RFC 4180, UTF-8, a header row, as an attachment. "
                        f"Columns: {columns}."
                    ),
                )
            )
