"""An SDK generated from ``/schema/openapi.json`` is one a person wants to use: short, stable
operation names, plain class names, every operation present, and it works against a live server
(docs/integrations.md, "A Python SDK")."""

from __future__ import annotations

import asyncio
import importlib
import os
import re
import sys
from collections.abc import AsyncIterator, Iterator
from datetime import datetime
from pathlib import Path
from typing import Any
from uuid import UUID

import pytest
from httpx import AsyncClient

from tests.dates import YEAR
from tests.processes import COMMAND_TIMEOUT_SECONDS, serving
from tests.support import Tenant, ok

CAMEL_CASE = re.compile(r"^[a-z]+(?:[A-Z0-9][a-z0-9]*)*$")
PLAIN_NAME = re.compile(r"^[A-Z][A-Za-z0-9]*$")
GENERATED_LOOKING = re.compile(r"Type\d|Body$|Response\d{3}$|^Page")
BIN = Path(sys.executable).parent
GENERATOR = str(BIN / "openapi-python-client")
"""The generator runs ``ruff`` over what it wrote, so the virtualenv's ``bin`` goes on PATH."""
PACKAGE = "ticketing_sdk"
METHODS = {"get", "put", "post", "patch", "delete"}


@pytest.fixture(scope="module")
async def document(client: AsyncClient) -> dict[str, Any]:
    return ok(await client.get("/schema/openapi.json"))


def _operations(document: dict[str, Any]) -> Iterator[tuple[str, str, dict[str, Any]]]:
    for path, item in document["paths"].items():
        for method, operation in item.items():
            if method in METHODS:
                yield method.upper(), path, operation


def test_every_operation_has_a_unique_camel_case_id(document: dict[str, Any]) -> None:
    ids = {f"{method} {path}": op.get("operationId") for method, path, op in _operations(document)}
    bad = {route: name for route, name in ids.items() if not CAMEL_CASE.match(name or "")}
    assert not bad, bad
    assert len(set(ids.values())) == len(ids), sorted(ids.values())
    for route, name in {
        "GET /orders": "listOrders",
        "GET /orders/{order_id}": "getOrder",
        "POST /orders": "placeOrder",
        "POST /tickets/{ticket_id}/scan": "scanTicket",
        "POST /scans": "scanCode",
        "POST /webhooks": "createWebhook",
        "GET /events": "listEvents",
        "PATCH /events/{event_id}/ticket_types/{ticket_type_id}": "updateTicketType",
        "DELETE /events/{event_id}/timeslots/{timeslot_id}": "deleteTimeslot",
        "GET /scanner_profiles": "listScannerProfiles",
        "POST /oauth2/token": "oauthToken",
    }.items():
        assert ids[route] == name, route


def _walk(node: Any, path: str = "") -> Iterator[tuple[str, dict[str, Any]]]:
    if isinstance(node, dict):
        yield path, node
        for key, value in node.items():
            yield from _walk(value, f"{path}/{key}")
    elif isinstance(node, list):
        for index, value in enumerate(node):
            yield from _walk(value, f"{path}[{index}]")


def test_components_are_named_plainly(document: dict[str, Any]) -> None:
    schemas = document["components"]["schemas"]
    odd = [name for name in schemas if not PLAIN_NAME.match(name) or GENERATED_LOOKING.search(name)]
    assert not odd, odd
    titles = {name: s["title"] for name, s in schemas.items() if s.get("title", name) != name}
    assert not titles, titles
    for name in ("OrderStatus", "TicketStatus", "ScanStatus", "ScanReason", "EventPage"):
        assert name in schemas
    # A generator makes a class of every inline enum, and of a nullable one several
    # (ScanResultReasonType1, ...): enumerations are components, null beside them.
    nullable_enums = [path for path, node in _walk(document) if None in node.get("enum", [])]
    assert not nullable_enums, nullable_enums
    inline_bodies = [
        path
        for method, path, op in _operations(document)
        for media in op.get("requestBody", {}).get("content", {}).values()
        if not _named(media["schema"])
    ]
    assert not inline_bodies, inline_bodies


def _named(schema: dict[str, Any]) -> bool:
    """A component, or a component or null (an optional body): not a generator's ``...Body``."""
    members = schema.get("oneOf", [schema])
    return all("$ref" in member or member.get("type") == "null" for member in members)


async def _generate(url: str, into: Path) -> str:
    """Run openapi-python-client on the live document; its whole output."""
    process = await asyncio.create_subprocess_exec(
        GENERATOR, "generate", "--url", f"{url}/schema/openapi.json", "--meta", "none",
        "--output-path", str(into / PACKAGE),
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT, cwd=into,
        env={**os.environ, "PATH": f"{BIN}{os.pathsep}{os.environ['PATH']}"},
    )  # fmt: skip
    output, _ = await asyncio.wait_for(process.communicate(), COMMAND_TIMEOUT_SECONDS * 3)
    text = output.decode()
    assert process.returncode == 0, text
    return text


@pytest.fixture
async def sdk(database: None, tmp_path: Path) -> AsyncIterator[tuple[str, Any]]:
    """A live server, and the package generated from its document, imported."""
    async with serving() as [url]:
        output = await _generate(url, tmp_path)
        assert "Warning" not in output and "Unable" not in output, output
        sys.path.insert(0, str(tmp_path))
        try:
            yield url, importlib.import_module(PACKAGE)
        finally:
            sys.path.remove(str(tmp_path))
            for name in [m for m in sys.modules if m == PACKAGE or m.startswith(f"{PACKAGE}.")]:
                del sys.modules[name]


@pytest.mark.slow
async def test_a_generated_python_client_sells_and_scans_against_a_live_server(
    tenant: Tenant, sdk: tuple[str, Any]
) -> None:
    url, package = sdk

    def api(name: str) -> Any:
        return importlib.import_module(f"{PACKAGE}.api.{name}")

    models = importlib.import_module(f"{PACKAGE}.models")
    client = package.AuthenticatedClient(base_url=url, token=tenant.key)
    async with client:
        event = await api("events.create_event").asyncio(
            client=client,
            body=models.EventCreate(title="SDK night", starts_at=_at(f"{YEAR}-06-01T18:00:00Z")),
        )
        assert isinstance(event, models.Event), event
        ticket_type = await api("events.create_ticket_type").asyncio(
            event.id, client=client, body=models.TicketTypeCreate(name="Regular", price=12.5)
        )
        timeslot = await api("events.create_timeslot").asyncio(
            event.id,
            client=client,
            body=models.TimeslotCreate(
                title="Evening",
                starts_at=_at(f"{YEAR}-06-01T18:00:00Z"),
                ends_at=_at(f"{YEAR}-06-01T23:00:00Z"),
                total_available=10,
                ticket_type_ids=[ticket_type.id],
            ),
        )

        page = await api("events.list_events").asyncio(
            client=client, sort=models.ListEventsSort.TITLEASC, limit=10
        )
        assert isinstance(page, models.EventPage), page
        assert [e.title for e in page.data] == ["SDK night"]
        assert page.pagination.total == 1 and page.pagination.has_more is False

        order = await api("orders.place_order").asyncio(
            client=client,
            body=models.OrderCreate(
                event_id=event.id,
                event_timeslot_id=timeslot.id,
                buyer_name="Ada",
                buyer_email="ada@example.com",
                channel=models.Channel.ONLINE,
                payment_method=models.PaymentMethod.CARD,
                tickets=[
                    models.TicketInput(
                        ticket_type_id=ticket_type.id,
                        metadata=models.TicketInputMetadata.from_dict({"row": {"seat": [1, 2]}}),
                    )
                ],
            ),
        )
        assert isinstance(order, models.Order), order
        assert order.status == models.OrderStatus.PENDING and order.total_price == 12.5
        await api("orders.confirm_order").asyncio(order.id, client=client)
        tickets = await api("tickets.list_event_tickets").asyncio(
            event.id, client=client, status=models.TicketStatus.VALID
        )
        (ticket,) = tickets.data
        assert ticket.metadata.to_dict() == {"row": {"seat": [1, 2]}}

        await api("scanners.create_scanner").asyncio(
            client=client, body=models.ScannerCreate(name="Door")
        )
        scan = api("scanning.scan_code")
        first = await scan.asyncio(
            client=client, body=models.CodeScan(scannable_code=ticket.scannable_code)
        )
        assert isinstance(first, models.ScanResult), first
        assert first.status == models.ScanStatus.VALID and first.reason is None
        again = await scan.asyncio(
            client=client, body=models.CodeScan(scannable_code=ticket.scannable_code)
        )
        assert again.status == models.ScanStatus.SCANNED
        assert again.reason == models.ScanReason.ALREADY_SCANNED and again.scanned_before

        missing = await api("orders.get_order").asyncio_detailed(
            UUID("00000000-0000-4000-8000-000000000000"), client=client
        )
        assert missing.status_code == 404 and isinstance(missing.parsed, models.Problem)
        sold = await api("events.delete_ticket_type").asyncio_detailed(
            event.id, ticket_type.id, client=client
        )
        assert sold.status_code == 409 and "were ordered" in sold.parsed.detail


def _at(text: str) -> datetime:
    return datetime.fromisoformat(text)
