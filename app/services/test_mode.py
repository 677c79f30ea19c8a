"""Test mode (CONTRACT.md section 18): every organization has a test twin.

The twin is an organization row of its own, linked to the live one (``live_organization_id``).
Test credentials (``tk_test_`` keys, OAuth clients registered in test mode and their tokens, a
dashboard session switched to test) act as the twin, so the organization filter that every query
already has keeps test and live data apart: no list, count, export, subscription, webhook or
figure can mix them, with no per-query work and nothing for a new table to remember. People are
members of the live organization only; what they may do in the twin is what they may do there.
"""

from __future__ import annotations

from uuid import UUID

from app.errors import NotFound
from db import twins


async def twin(organization_id: UUID) -> UUID:
    """The test twin of a live organization (made on first use); a twin is its own twin."""
    mode = await twins.live_of(organization_id)
    if mode is None:
        raise NotFound.resource("organization", organization_id)
    live, is_test = mode
    if is_test:
        return organization_id
    made = await twins.twin_of(live)
    if made is None:
        raise NotFound.resource("organization", organization_id)
    return made


async def mode_of(organization_id: UUID) -> tuple[UUID, bool]:
    """(the live organization, whether ``organization_id`` is its test twin)."""
    mode = await twins.live_of(organization_id)
    if mode is None:
        raise NotFound.resource("organization", organization_id)
    return mode


async def in_mode(live_id: UUID, test: bool) -> UUID:
    """The organization that acts for ``live_id`` in the given mode."""
    return await twin(live_id) if test else live_id
