"""OAuth clients and their tokens follow the mode that registered them (CONTRACT.md section 18):
a client registered in test mode gets tokens that see only test data, by either grant."""

from __future__ import annotations

from pathlib import Path

from httpx import AsyncClient
from litestar import Litestar

from app.services.oauth.clients import create_client
from tests.auth.test_oauth import (  # noqa: F401 (the fixtures)
    REDIRECT_URI,
    TOKEN_URL,
    Registered,
    app,
    browser,
    idp_dir,
    third_party,
    walk_code_flow,
)
from tests.support import Tenant, create_event, ok
from tests.testmode.support import in_test_mode


async def test_a_test_client_and_its_tokens_see_only_test_data(
    app: Litestar,  # noqa: F811
    browser: AsyncClient,  # noqa: F811
    idp_dir: Path,  # noqa: F811
    client: AsyncClient,
    tenant: Tenant,
) -> None:
    live_event = await create_event(client, tenant, title="Live night")
    test_event = await create_event(client, await in_test_mode(tenant), title="Rehearsal")
    created = await create_client(
        tenant.org_id, tenant.email, "Sandbox app", [REDIRECT_URI], test=True
    )
    registered = Registered(created.client_id, created.client_secret, tenant)

    machine = third_party(app, registered)
    await machine.fetch_token(TOKEN_URL, grant_type="client_credentials")
    assert ok(await machine.get("/whoami"))["livemode"] is False
    events = ok(await machine.get("/events"))["data"]
    assert [event["id"] for event in events] == [test_event["id"]]

    person = await walk_code_flow(app, browser, registered, idp_dir)
    assert ok(await person.get("/whoami"))["livemode"] is False
    events = ok(await person.get("/events"))["data"]
    assert [event["id"] for event in events] == [test_event["id"]]
    assert live_event["id"] not in str(events)
