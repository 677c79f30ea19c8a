"""Test mode's builders: the test twin of a test's tenant."""

from __future__ import annotations

from dataclasses import replace

from app.principal import SCOPES
from app.services.api_keys import create_api_key
from tests.support import Tenant


async def in_test_mode(tenant: Tenant, scopes: tuple[str, ...] | list[str] = SCOPES) -> Tenant:
    """``tenant`` with a ``tk_test_`` key of its organization (``ticketing api-key create
    --test``): the same people, the organization's test data."""
    key = await create_api_key(tenant.org_id, tenant.email, " ".join(scopes), "tests", test=True)
    assert key.key.startswith("tk_test_")
    return replace(tenant, key=key.key, key_id=key.id)
