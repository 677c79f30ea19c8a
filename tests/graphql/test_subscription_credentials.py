"""A subscription ends with its credential (issue 24 item 1): after ``ticketing api-key revoke``
an ``orderChanges`` subscription kept delivering buyers' names and e-mail addresses. The socket
must close with 4403 within seconds of its API key being revoked, its OAuth grant being revoked
or its access token expiring (``app.runtime.rechecks``), against a real ``ticketing serve``."""

from __future__ import annotations

import time
from collections.abc import AsyncIterator

import httpx
import pytest
import websockets
from joserfc import jwt

from app.private_keys import algorithm_of
from app.services.oauth import signing_keys
from app.services.oauth.clients import create_client
from app.settings import get_settings
from tests.graphql.test_subscriptions import SCANS, Subscriber, live, subscribed
from tests.processes import RunningProcess, served, ticketing
from tests.support import Tenant, open_door

pytestmark = pytest.mark.slow

CLOSE_BOUND_SECONDS = 30.0
"""Generous for a busy shared machine: the service's own bound is a few seconds."""
LIFETIME_SECONDS = 8
"""The short-lived token's lifetime: long enough to open the subscription on a busy machine."""


@pytest.fixture(scope="module")
async def replica(database: None) -> AsyncIterator[RunningProcess]:
    async with served() as server:
        yield server


async def close_code(subscriber: Subscriber) -> int:
    """Read (answering pings, ignoring notifications) until the server closes; its close code."""
    with pytest.raises(websockets.ConnectionClosed) as closed:
        while True:
            message = await subscriber.message(within=CLOSE_BOUND_SECONDS)
            if message["type"] == "ping":
                await subscriber.socket.send('{"type": "pong"}')
    assert closed.value.rcvd is not None, closed.value
    return closed.value.rcvd.code


async def oauth_token(base_url: str, tenant: Tenant) -> tuple[str, httpx.BasicAuth]:
    """A client_credentials access token of a new client of ``tenant``, and the client's auth."""
    client = await create_client(tenant.org_id, tenant.email, "Door app", ["https://app.test/cb"])
    assert client.client_secret is not None
    auth = httpx.BasicAuth(client.client_id, client.client_secret)
    async with httpx.AsyncClient(base_url=base_url) as http:
        response = await http.post(
            "/oauth2/token", data={"grant_type": "client_credentials"}, auth=auth
        )
    assert response.status_code == 200, response.text
    return response.json()["access_token"], auth


async def test_a_subscription_ends_when_its_api_key_is_revoked(
    client: httpx.AsyncClient, tenant: Tenant, replica: RunningProcess
) -> None:
    door = await open_door(client, tenant, tickets=1)
    async with subscribed(replica.url, tenant.key, SCANS) as subscriber:
        await live(subscriber, replica.url, tenant, door)
        revoked = await ticketing("api-key", "revoke", str(tenant.key_id))
        assert revoked.json()["revoked"] is True
        assert await close_code(subscriber) == 4403


async def test_a_subscription_ends_when_its_oauth_grant_is_revoked(
    client: httpx.AsyncClient, tenant: Tenant, replica: RunningProcess
) -> None:
    door = await open_door(client, tenant, tickets=1)
    token, auth = await oauth_token(replica.url, tenant)
    async with subscribed(replica.url, token, SCANS) as subscriber:
        await live(subscriber, replica.url, tenant, door)
        async with httpx.AsyncClient(base_url=replica.url) as http:
            revoked = await http.post("/oauth2/revoke", data={"token": token}, auth=auth)
        assert revoked.status_code == 200, revoked.text
        assert await close_code(subscriber) == 4403


async def test_a_subscription_ends_when_its_access_token_expires(
    client: httpx.AsyncClient, tenant: Tenant, replica: RunningProcess
) -> None:
    door = await open_door(client, tenant, tickets=1)
    token, _ = await oauth_token(replica.url, tenant)
    key = await signing_keys.signer(get_settings())
    claims = {**jwt.decode(token, key).claims, "exp": int(time.time()) + LIFETIME_SECONDS}
    short_lived = jwt.encode(
        {"alg": algorithm_of(key), "typ": "at+jwt", "kid": key.kid}, claims, key
    )
    async with subscribed(replica.url, short_lived, SCANS) as subscriber:
        await live(subscriber, replica.url, tenant, door)
        assert await close_code(subscriber) == 4403
