"""The one hash behind every stored credential: what was stored before keeps matching."""

from __future__ import annotations

import string

from app.services.oauth.clients import SECRET_PREFIX
from app.services.oauth.grants import REFRESH_TOKEN_PREFIX, new_refresh_token
from app.stored_secrets import hash_secret, new_token

URL_SAFE = set(string.ascii_letters + string.digits + "-_")


def test_a_credential_stored_earlier_still_matches() -> None:
    """Rows written before the hashing was shared hold hex SHA-256: the same value must come out,
    or every API key, refresh token and dashboard session would stop working on upgrade."""
    assert hash_secret("rt_example-refresh-token") == (
        "6687cc9cfbddccd1aac3038f83aad63ff3965a19ac54e274c0bb1e23a4dbbce5"
    )


def test_tokens_are_url_safe_fresh_and_carry_their_prefix() -> None:
    tokens = [new_token() for _ in range(100)]
    assert len(set(tokens)) == 100
    assert all(len(token) == 43 and set(token) <= URL_SAFE for token in tokens)
    refresh = new_refresh_token()
    assert refresh.startswith(REFRESH_TOKEN_PREFIX) and len(refresh) == 3 + 43
    assert new_token(SECRET_PREFIX).startswith("cs_")
