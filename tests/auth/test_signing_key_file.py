"""``TICKETING_SIGNING_KEY_FILE`` (CONTRACT.md section 9): an RSA (RS256) or EC P-256 (ES256) PEM
key signs the access tokens end to end, and a key file the signer could not use stops start-up
with one line. Real ``ticketing serve`` processes, each reading its key file at start-up."""

from __future__ import annotations

import os
import subprocess
from collections.abc import Callable
from pathlib import Path

import httpx
import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec, ed25519, rsa
from cryptography.hazmat.primitives.asymmetric.types import PrivateKeyTypes
from joserfc import jwt
from joserfc.jwk import KeySet

from app.private_keys import import_private_pem
from app.services.oauth.clients import create_client
from tests.harness import free_port
from tests.processes import TICKETING, serving
from tests.support import Tenant, ok

KEYS: dict[str, tuple[Callable[[], PrivateKeyTypes], str]] = {
    "rsa": (lambda: rsa.generate_private_key(public_exponent=65537, key_size=2048), "RS256"),
    "ec-p256": (lambda: ec.generate_private_key(ec.SECP256R1()), "ES256"),
}


def write_pem(path: Path, key: PrivateKeyTypes, pkcs: str = "pkcs8") -> Path:
    private_format = {
        "pkcs8": serialization.PrivateFormat.PKCS8,
        "traditional": serialization.PrivateFormat.TraditionalOpenSSL,
    }[pkcs]
    path.write_bytes(
        key.private_bytes(serialization.Encoding.PEM, private_format, serialization.NoEncryption())
    )
    return path


@pytest.mark.slow
@pytest.mark.parametrize("kind", sorted(KEYS))
async def test_a_key_file_signs_tokens_that_the_jwks_verifies_and_the_api_accepts(
    tmp_path: Path, tenant: Tenant, kind: str
) -> None:
    make_key, algorithm = KEYS[kind]
    key_file = write_pem(tmp_path / f"{kind}.pem", make_key(), "traditional")
    client = await create_client(
        tenant.org_id, tenant.email, "Key file app", ["https://app.example.com/cb"], "events.read"
    )
    env = {"TICKETING_SIGNING_KEY_FILE": str(key_file)}
    async with serving(environment=env) as [url], httpx.AsyncClient(base_url=url) as http:
        issued = await http.post(
            "/oauth2/token",
            data={"grant_type": "client_credentials"},
            auth=(client.client_id, client.client_secret or ""),
        )
        access_token = ok(issued)["access_token"]
        jwks = ok(await http.get("/oauth2/jwks.json"))
        file_kid = import_private_pem(key_file.read_bytes()).kid
        [published] = [key for key in jwks["keys"] if key["kid"] == file_kid]
        assert published["alg"] == algorithm and "d" not in published
        decoded = jwt.decode(access_token, KeySet.import_key_set(jwks))
        assert decoded.header == {"alg": algorithm, "typ": "at+jwt", "kid": file_kid}
        whoami = ok(await http.get("/whoami", headers={"Authorization": f"Bearer {access_token}"}))
        assert whoami["email"] == tenant.email


@pytest.mark.parametrize(
    "key",
    [
        pytest.param(lambda: ec.generate_private_key(ec.SECP384R1()), id="ec-p384"),
        pytest.param(lambda: rsa.generate_private_key(65537, 1024), id="rsa-1024"),
        pytest.param(ed25519.Ed25519PrivateKey.generate, id="ed25519"),
        pytest.param(None, id="not-a-key"),
    ],
)
def test_a_key_file_the_signer_cannot_use_stops_start_up_in_one_line(
    tmp_path: Path, key: Callable[[], PrivateKeyTypes] | None
) -> None:
    key_file = tmp_path / "key.pem"
    if key is None:
        key_file.write_text("-----BEGIN PRIVATE KEY-----\nnot base64\n-----END PRIVATE KEY-----\n")
    else:
        write_pem(key_file, key())
    result = subprocess.run(
        [TICKETING, "serve", "--host", "127.0.0.1", "--port", str(free_port())],
        env={**os.environ, "TICKETING_SIGNING_KEY_FILE": str(key_file)},
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert result.returncode != 0
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "TICKETING_SIGNING_KEY_FILE" in lines[0], result.stderr
    assert "Traceback" not in result.stderr
