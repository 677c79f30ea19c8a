"""Scope strings and the scope check of a principal."""

from __future__ import annotations

from uuid import uuid4

import pytest

from app.errors import Forbidden
from app.principal import SCOPES, Principal, parse_scopes


def test_a_scope_string_is_split_on_any_whitespace_without_duplicates() -> None:
    assert parse_scopes("events.read  orders.read\tevents.read\n") == frozenset(
        {"events.read", "orders.read"}
    )
    assert parse_scopes("") == frozenset()
    assert parse_scopes(" ".join(SCOPES)) == frozenset(SCOPES)


def test_unknown_scopes_are_named_sorted() -> None:
    with pytest.raises(ValueError, match=r"^unknown scopes: admin, events\.delete$"):
        parse_scopes("events.read events.delete admin")
    for near_miss in ("Events.read", "events", "events.read,orders.read", "events.*"):
        with pytest.raises(ValueError, match="unknown scopes"):
            parse_scopes(near_miss)


def test_require_passes_with_the_scope_and_names_it_when_missing() -> None:
    principal = Principal(
        organization_id=uuid4(),
        user_id=uuid4(),
        scopes=parse_scopes("events.read"),
        credential="api_key",
        credential_id=uuid4(),
    )
    principal.require("events.read")
    with pytest.raises(Forbidden) as refused:
        principal.require("events.write")
    assert refused.value.scope == "events.write"
    assert "events.write" in refused.value.detail
