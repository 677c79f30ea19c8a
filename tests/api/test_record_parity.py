"""A batch of rows becomes the same records whichever way it is read (``app.records``).

``RowMapper.many`` reads a batch as arrays of the record's values (asyncpg's records by
position, dicts by name) and converts them in one go; one row at a time goes through a mapping.
Both must give equal records and the same JSON for every resource's rows, as asyncpg's pool
gives them and as Piccolo's dicts, with NULLs, JSON columns, money and timestamps, and after the
resource's enrichment (which copies only the rows it adds to).
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Mapping, Sequence
from datetime import UTC, datetime, timedelta, timezone
from typing import Any
from uuid import UUID, uuid4

import msgspec
import pytest
from httpx import AsyncClient

import app.services
from app.records import mapper
from app.resources import Resource
from app.services.tickets import TICKETS, fill_signed_codes
from db.engine import postgres_pool
from db.tables import Ticket
from tests.support import Tenant, create_profile, create_scanner, create_venue, ok, place_order


def _resources() -> list[Resource[Any]]:
    """Every resource the services declare."""
    found: dict[int, Resource[Any]] = {}
    for module in pkgutil.walk_packages(app.services.__path__, "app.services."):
        for value in vars(importlib.import_module(module.name)).values():
            if isinstance(value, Resource):
                found[id(value)] = value
    return list(found.values())


def _one_by_one(record: type[msgspec.Struct], rows: Sequence[Mapping[str, Any]]) -> list[Any]:
    """The records of ``rows`` each through a mapping (``RowMapper.__call__``)."""
    return [mapper(record)(row) for row in rows]


def _same(record: type[msgspec.Struct], rows: Sequence[Mapping[str, Any]]) -> None:
    batch = mapper(record).many(rows)
    single = _one_by_one(record, rows)
    assert batch == single, record.__name__
    assert msgspec.json.encode(batch) == msgspec.json.encode(single), record.__name__
    for made, expected in zip(batch, single, strict=True):
        assert type(made) is record
        for name in record.__struct_fields__:
            assert type(getattr(made, name)) is type(getattr(expected, name)), name


async def _shop(client: AsyncClient, tenant: Tenant) -> None:
    """Rows of most resources: an event, its ticket type and timeslot, a confirmed order whose
    tickets carry a seat, metadata and metadata fields, one of them cancelled, a scanner and a
    profile with targets."""
    venue = await create_venue(client, tenant, price=12.5)
    event_id, slot, kind = venue.event["id"], venue.timeslot["id"], venue.ticket_type["id"]
    order = await place_order(
        client, tenant, event_id, slot, [kind, kind], confirm=True,
        tickets=[
            {"ticket_type_id": kind, "seat": "R1, 7",
             "metadata": {"note": "a", "größe": ["M", 1.5, None], "n": {"deep": [1, 2]}},
             "metadata_fields": [{"key": "diet", "name": "Diät", "value": "vegan"}]},
            {"ticket_type_id": kind},
        ],
    )  # fmt: skip
    ticket = (await Ticket.select(Ticket.id).where(Ticket.order_id == UUID(order["id"])))[0]
    ok(await client.post(f"/tickets/{ticket['id']}/cancel", headers=tenant.headers))
    await create_scanner(client, tenant)
    await create_profile(client, tenant, event_ids=[event_id], ticket_type_ids=[kind])


async def test_every_resources_records_are_the_same_read_as_a_batch_or_row_by_row(
    client: AsyncClient, tenant: Tenant
) -> None:
    await _shop(client, tenant)
    checked = set()
    for resource in _resources():
        table = resource.table._meta.tablename
        sql = f'SELECT * FROM "{table}" WHERE "organization_id" = $1 ORDER BY "id"'
        pool = postgres_pool(resource.table._meta.db)
        assert pool is not None
        records = await pool.fetch(sql, tenant.org_id)
        dicts = [dict(row) for row in records]
        if not records:
            continue
        for rows in (records, dicts, [dicts[0], *records[1:]]):
            enriched = await resource.enrich(rows) if resource.enrich else rows
            _same(resource.record, enriched)
            assert await resource._records(rows) == _one_by_one(resource.record, enriched)
        checked.add(table)
    assert {
        "events", "ticket_types", "timeslots", "orders", "tickets", "scanners", "scanner_profiles"
    } <= checked  # fmt: skip


class _Sample(msgspec.Struct):
    id: UUID
    at: datetime
    maybe_at: datetime | None
    document: dict[str, Any]
    items: list[int]
    price: float
    note: str | None = None


def _row(**changes: Any) -> dict[str, Any]:
    return {
        "id": uuid4(),
        "extra": "a column the record does not name",
        "at": datetime(2026, 1, 2, 3, 4, 5, tzinfo=UTC),
        "maybe_at": None,
        "document": '{"a": [1, {"b": null}]}',
        "items": b"[1, 2]",
        "price": 12,
        "note": None,
        **changes,
    }


@pytest.mark.parametrize(
    "rows",
    [
        [_row(), _row(maybe_at=datetime(2026, 1, 1, tzinfo=UTC))],
        [_row(at=datetime(2026, 1, 2, 4, 4, 5, tzinfo=timezone(timedelta(hours=1))))],
        [_row(at=datetime(2026, 1, 2, 3, 4, 5), maybe_at=datetime(2026, 1, 2, 5, 0))],
        [_row(document={"already": "decoded"}, items=[3])],
        [{k: v for k, v in _row().items() if k != "note"}],
    ],
    ids=["utc", "offset", "naive", "decoded", "defaulted"],
)
def test_a_batch_of_dicts_converts_like_each_row(rows: list[dict[str, Any]]) -> None:
    _same(_Sample, rows)
    [first, *_] = mapper(_Sample).many(rows)
    assert first.at.tzinfo is UTC
    assert isinstance(first.price, float)


def test_a_row_of_a_wrong_type_fails_as_it_does_row_by_row() -> None:
    rows = [_row(items='["not a number"]')]
    with pytest.raises(msgspec.ValidationError):
        mapper(_Sample)(rows[0])
    with pytest.raises(msgspec.ValidationError):
        mapper(_Sample).many(rows)


async def test_signed_codes_copy_only_the_rows_without_one(
    client: AsyncClient, tenant: Tenant
) -> None:
    venue = await create_venue(client, tenant)
    kinds = [venue.ticket_type["id"]] * 3
    order = await place_order(client, tenant, venue.event["id"], venue.timeslot["id"], kinds)
    sql = 'SELECT * FROM "tickets" WHERE "order_id" = $1 ORDER BY "sequence"'
    pool = postgres_pool(TICKETS.table._meta.db)
    assert pool is not None
    rows = await pool.fetch(sql, UUID(order["id"]))
    assert await fill_signed_codes(rows) is rows
    await Ticket.update({Ticket.signed_code: None, Ticket.scan_key_id: None}).where(
        Ticket.id == rows[1]["id"]
    )
    unsigned = await pool.fetch(sql, UUID(order["id"]))
    filled = await fill_signed_codes(unsigned)
    assert filled[0] is unsigned[0] and filled[2] is unsigned[2]
    assert isinstance(filled[1], dict) and filled[1]["signed_code"]
    [record] = [r for r in await TICKETS._records(filled) if r.id == rows[1]["id"]]
    assert record.signed_code == filled[1]["signed_code"]
