"""Logs (CONTRACT.md section 13): with ``TICKETING_LOG_FORMAT=json`` every line of the server and
the worker is one JSON object with the request's or the job's fields, and across a run that uses
an API key, an OAuth code, access and refresh tokens, a client secret, an identity provider's
token, a webhook secret and a webhook URL with a query string, none of them appears in any line,
even at DEBUG level."""

from __future__ import annotations

import json
import re
import secrets
import warnings
from pathlib import Path
from typing import Any

import httpx
import pytest
from authlib.deprecate import AuthlibDeprecationWarning

from app.services.oauth.clients import create_client
from app.services.oauth.dev_idp import ensure_dev_idp, mint_user_token
from tests.harness import REDIS_URL
from tests.processes import RunningProcess, served, worker
from tests.support import Tenant, create_venue, ok, place_order
from tests.webhooks.support import Receiver, settled_log

with warnings.catch_warnings():
    warnings.simplefilter("ignore", AuthlibDeprecationWarning)
    from authlib.integrations.httpx_client import AsyncOAuth2Client

REDIRECT_URI = "https://app.example.com/callback"
QUERY_SECRET = "query-secret-" + secrets.token_hex(8)


def json_lines(process: RunningProcess) -> list[dict[str, Any]]:
    """Every line of the process's output, each of which must be one JSON object."""
    entries = []
    for line in process.lines():
        entry = json.loads(line)
        assert isinstance(entry, dict), line
        entries.append(entry)
    return entries


async def oauth_tokens(base_url: str, tenant: Tenant, idp_dir: Path) -> tuple[list[str], str]:
    """The code flow against the served process with a confidential client; the secrets it
    handled (client secret, user token, code, access and refresh tokens) and the last access
    token."""
    registered = await create_client(
        tenant.org_id, tenant.email, "Log Reader", [REDIRECT_URI], "events.read", public=False
    )
    assert registered.client_secret is not None
    user_token = mint_user_token(tenant.email, idp_dir)
    oauth = AsyncOAuth2Client(
        client_id=registered.client_id,
        client_secret=registered.client_secret,
        redirect_uri=REDIRECT_URI,
        scope="events.read",
        code_challenge_method="S256",
        base_url=base_url,
    )
    verifier = secrets.token_urlsafe(48)
    url, _ = oauth.create_authorization_url(
        f"{base_url}/oauth2/authorize",
        code_verifier=verifier,
        organization_id=str(tenant.org_id),
        token=user_token,
    )
    async with httpx.AsyncClient(base_url=base_url, timeout=10) as browser:
        page = await browser.get(url)
        match = re.search(r'name="consent" value="([^"]+)"', page.text)
        assert match, page.text
        approved = await browser.post(
            "/oauth2/authorize", data={"consent": match.group(1), "decision": "approve"}
        )
    location = approved.headers["location"]
    code = re.search(r"code=([^&]+)", location)
    assert code, location
    async with oauth:
        first = await oauth.fetch_token(
            f"{base_url}/oauth2/token", authorization_response=location, code_verifier=verifier
        )
        ok(await oauth.get("/events"))
        second = await oauth.refresh_token(f"{base_url}/oauth2/token")
        ok(await oauth.get("/events"))
    handled = [
        registered.client_secret,
        user_token,
        code.group(1),
        first["access_token"],
        first["refresh_token"],
        second["access_token"],
        second["refresh_token"],
    ]
    return handled, second["access_token"]


@pytest.mark.slow
async def test_json_logs_carry_the_fields_and_no_secret(
    client: httpx.AsyncClient, tenant: Tenant, tmp_path: Path
) -> None:
    issuer, jwks = ensure_dev_idp(tmp_path / "idp")
    env = {
        "TICKETING_LOG_FORMAT": "json",
        "TICKETING_LOG_LEVEL": "DEBUG",
        "REDIS_URL": REDIS_URL,
        "TICKETING_IDP_ISSUER": issuer,
        "TICKETING_IDP_JWKS_FILE": str(jwks),
    }
    async with (
        Receiver(statuses=[500]) as receiver,
        served(**env) as server,
        worker(REDIS_URL, **env) as running,
    ):
        api = httpx.AsyncClient(base_url=server.url, headers=tenant.headers, timeout=30)
        async with api:
            hook = ok(
                await api.post(
                    "/webhooks",
                    json={
                        "url": f"{receiver.url}?token={QUERY_SECRET}",
                        "event_types": ["order.created"],
                    },
                ),
                201,
            )
            venue = await create_venue(api, tenant)
            await place_order(
                api, tenant, venue.event["id"], venue.timeslot["id"], [venue.ticket_type["id"]]
            )
            await receiver.wait_for(2, within=60)
            handled, _ = await oauth_tokens(server.url, tenant, tmp_path / "idp")
            await settled_log(client, tenant, hook["id"], within=30)
        await running.wait_for_log('"outcome": "delivered"')
    server_entries, worker_entries = json_lines(server), json_lines(running)
    everything = server.log() + running.log()
    for secret in [tenant.key, hook["secret"], QUERY_SECRET, *handled]:
        assert secret not in everything

    [webhook_request] = [e for e in server_entries if e.get("route") == "/webhooks"]
    assert webhook_request["method"] == "POST" and webhook_request["status"] == 201
    assert webhook_request["organization"] == str(tenant.org_id)
    assert webhook_request["request_id"] and webhook_request["duration_ms"] >= 0
    # The worker also takes up deliveries that earlier tests of the run left pending.
    attempts = [
        e for e in worker_entries if e.get("job") == "deliver" and e["subscription"] == hook["id"]
    ]
    assert [(e["attempt"], e["outcome"]) for e in attempts] == [(1, "retry"), (2, "delivered")]
    assert all(e["event_id"] for e in attempts)
