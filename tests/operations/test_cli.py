"""The ``ticketing`` command line (CONTRACT.md section 9), run as an operator runs it.

Each command is a subprocess against this run's database; every create command prints exactly one
JSON object on stdout, and a failure prints one line on stderr and exits non-zero.
"""

from __future__ import annotations

import asyncio
import uuid
from pathlib import Path

import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from httpx import AsyncClient

from tests.processes import ticketing
from tests.support import ok, problem


@pytest.fixture
async def migrated(database: None) -> None:
    """The run's database, migrated by the session fixture."""


async def test_operator_walkthrough(client: AsyncClient, migrated: None) -> None:
    name = f"CLI Org {uuid.uuid4().hex[:6]}"
    org = (await ticketing("org", "create", "--name", name, "--currency", "USD")).json()
    assert org == {"id": org["id"], "name": name, "currency": "USD"}
    uuid.UUID(org["id"])

    email = f"Ops-{uuid.uuid4().hex[:6]}@Example.com"
    user = (await ticketing("user", "create", "--org", org["id"], "--email", email)).json()
    assert user == {
        "id": user["id"],
        "email": email.lower(),
        "organization_id": org["id"],
        "role": "admin",
    }

    created = (
        await ticketing(
            "api-key", "create", "--org", org["id"], "--user-email", email,
            "--scopes", "events.read orders.read", "--name", "reporting",
        )
    ).json()  # fmt: skip
    assert set(created) == {"id", "key", "scopes"}
    assert created["scopes"] == ["events.read", "orders.read"]
    assert created["key"].startswith("tk_live_")
    headers = {"Authorization": f"Bearer {created['key']}"}
    me = ok(await client.get("/whoami", headers=headers))
    assert me == {"uid": user["id"], "email": email.lower(), "organization": name, "livemode": True}
    ok(await client.get("/events", headers=headers))
    problem(await client.get(f"/events/{uuid.uuid4()}/tickets", headers=headers), 403)

    revoked = (await ticketing("api-key", "revoke", created["id"])).json()
    assert revoked == {"id": created["id"], "revoked": True}
    # The server caches keys; another process's revocation reaches it within seconds.
    deadline = asyncio.get_running_loop().time() + 15
    while (answer := await client.get("/whoami", headers=headers)).status_code == 200:
        assert asyncio.get_running_loop().time() < deadline, "the revoked key still works"
        await asyncio.sleep(0.2)
    problem(answer, 401)


async def test_failures_print_one_line_and_exit_non_zero(migrated: None) -> None:
    org = (await ticketing("org", "create", "--name", "Failing Org")).json()
    assert org["currency"] == "EUR"
    missing = str(uuid.uuid4())
    failures = await asyncio.gather(
        ticketing("org", "create", "--name", "X", "--currency", "euro"),
        ticketing("user", "create", "--org", missing, "--email", "a@example.com"),
        ticketing("user", "create", "--org", org["id"], "--email", "not-an-email"),
        ticketing(
            "api-key",
            "create",
            "--org",
            org["id"],
            "--user-email",
            "nobody@example.com",
            "--scopes",
            "events.read",
        ),
        ticketing("api-key", "revoke", missing),
        ticketing(
            "user", "create", "--org", org["id"], "--email", "o@example.com", "--role", "owner"
        ),
        ticketing("user", "set-role", "--org", org["id"], "--email", "o@example.com", "--role", ""),
    )
    messages = [outcome.failure() for outcome in failures]
    assert "currency" in messages[0]
    assert missing in messages[1]
    assert "email" in messages[2]
    assert "nobody@example.com" in messages[3]
    assert missing in messages[4]
    assert messages[5] == "ticketing: role: must be one of admin, member, got 'owner'"
    assert messages[6] == "ticketing: role: must be one of admin, member, got ''"


async def test_a_malformed_id_is_one_line_naming_the_option() -> None:
    """Every option that takes an id, organization or other, answers as a bad ``--role`` does
    (argparse alone would print its usage on top); the check comes before the database."""
    email = "a@example.com"
    outcomes = await asyncio.gather(
        ticketing("user", "create", "--org", "not-a-uuid", "--email", email),
        ticketing("user", "set-role", "--org", "not-a-uuid", "--email", email, "--role", "admin"),
        ticketing(
            "api-key", "create", "--org", "not-a-uuid", "--user-email", email,
            "--scopes", "events.read",
        ),
        ticketing("api-key", "revoke", "12345"),
        ticketing(
            "oauth-client", "create", "--org", "", "--user-email", email, "--name", "Till",
            "--redirect-uri", "https://till.example/callback",
        ),
    )  # fmt: skip
    assert [outcome.failure() for outcome in outcomes] == [
        "ticketing: org: not a UUID: 'not-a-uuid'",
        "ticketing: org: not a UUID: 'not-a-uuid'",
        "ticketing: org: not a UUID: 'not-a-uuid'",
        "ticketing: id: not a UUID: '12345'",
        "ticketing: org: not a UUID: ''",
    ]
    assert {outcome.code for outcome in outcomes} == {1}


async def test_unknown_scope_and_bad_settings_are_refused(migrated: None) -> None:
    org = (await ticketing("org", "create", "--name", "Scoped Org")).json()
    email = f"s-{uuid.uuid4().hex[:6]}@example.com"
    (await ticketing("user", "create", "--org", org["id"], "--email", email)).json()
    unknown, empty, settings = await asyncio.gather(
        ticketing(
            "api-key", "create", "--org", org["id"], "--user-email", email,
            "--scopes", "events.read tickets.delete",
        ),
        ticketing("api-key", "create", "--org", org["id"], "--user-email", email, "--scopes", ""),
        ticketing("org", "create", "--name", "X", DATABASE_URL="mysql://localhost/db"),
    )  # fmt: skip
    assert "tickets.delete" in unknown.failure()
    assert "scope" in empty.failure()
    assert "DATABASE_URL" in settings.failure()


async def test_bad_oauth_settings_stop_start_up_with_one_line(
    migrated: None, tmp_path: Path
) -> None:
    garbage = tmp_path / "key.pem"
    garbage.write_text("-----BEGIN PRIVATE KEY-----\nnot a key\n-----END PRIVATE KEY-----\n")
    weak = tmp_path / "weak.pem"
    weak.write_bytes(
        ec.generate_private_key(ec.SECP256K1()).private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.TraditionalOpenSSL,
            serialization.NoEncryption(),
        )
    )
    bad_key, secp256k1, issuer_alone = await asyncio.gather(
        ticketing("migrate", TICKETING_SIGNING_KEY_FILE=str(garbage)),
        ticketing("migrate", TICKETING_SIGNING_KEY_FILE=str(weak)),
        ticketing("migrate", TICKETING_IDP_ISSUER="https://idp.example.com"),
    )
    assert "TICKETING_SIGNING_KEY_FILE" in bad_key.failure()
    assert "P-256" in secp256k1.failure()
    assert "TICKETING_IDP_JWKS" in issuer_alone.failure()
