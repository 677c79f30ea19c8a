"""The registry of webhook event kinds (``app.schemas.webhook_events``) is the one list: the docs'
table says what it says, and the outbox records nothing else."""

from __future__ import annotations

import asyncio
import re
import typing
import uuid

import msgspec
import pytest

from app.schemas.webhook_events import (
    ALL_KINDS,
    KINDS,
    SUBSCRIBABLE,
    EventType,
    OrderCreated,
    data_shape,
)
from app.schemas.webhooks import WebhookCreate
from app.services.outbox import record_events
from tests.unit.project_files import ROOT

ROW = re.compile(r"^\| (`[a-z_.]+`(?:, `[a-z_.]+`)*) \| `(\{[a-z_, ]*\})`")


def _documented() -> dict[str, str]:
    """docs/webhooks.md's table of kinds: kind -> ``data`` shape."""
    text = (ROOT / "docs" / "webhooks.md").read_text()
    table = text[text.index("| Kind | `data` |") :].split("\n\n")[0]
    found: dict[str, str] = {}
    for line in table.splitlines()[2:]:
        match = ROW.match(line)
        assert match, f"unreadable row of the kinds table: {line}"
        for kind in re.findall(r"`([a-z_.]+)`", match[1]):
            found[kind] = match[2]
    return found


def test_the_docs_table_lists_every_kind_with_its_data() -> None:
    assert _documented() == {payload.kind: data_shape(payload) for payload in KINDS}


def test_subscriptions_ask_for_the_subscribable_kinds_only() -> None:
    assert typing.get_args(EventType) == SUBSCRIBABLE
    assert set(SUBSCRIBABLE) < set(ALL_KINDS)
    url = "https://hooks.example.com/in"
    assert msgspec.convert({"url": url, "event_types": list(SUBSCRIBABLE)}, WebhookCreate)
    for kind in set(ALL_KINDS) - set(SUBSCRIBABLE):
        with pytest.raises(msgspec.ValidationError):
            msgspec.convert({"url": url, "event_types": [kind]}, WebhookCreate)


def test_the_outbox_refuses_a_payload_that_is_not_registered() -> None:
    class Lookalike(OrderCreated, frozen=True):
        pass

    payload = Lookalike(order_id=uuid.uuid4(), event_id=uuid.uuid4())
    with pytest.raises(ValueError, match="Lookalike"):
        asyncio.run(record_events(uuid.uuid4(), [payload]))
