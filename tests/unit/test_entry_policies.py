"""The dashboard offers every entry policy the API takes, in the contract's order."""

from __future__ import annotations

import typing

from app.schemas.scanning import EntryPolicy
from dashboard.scanners import ENTRY_POLICIES


def test_the_dashboard_labels_every_entry_policy() -> None:
    assert tuple(ENTRY_POLICIES) == typing.get_args(EntryPolicy)
