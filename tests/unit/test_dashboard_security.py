"""The dashboard's cookie, CSRF token, return paths, roles, and the ID-token checks of its
OpenID Connect sign-in (aud = the dashboard's client, the sign-in's nonce, email_verified)."""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path
from typing import Any
from uuid import uuid4

import pytest
from joserfc import jwt

from app import timeutil
from app.errors import Forbidden
from app.principal import READ_SCOPES, SCOPES, Principal
from app.private_keys import algorithm_of, import_private_pem
from app.services.dashboard_sessions import csrf_matches, csrf_token
from app.services.oauth.dev_idp import KEY_FILE, ensure_dev_idp
from app.services.oauth.idp import SignInError, verify_id_token
from app.settings import load_settings
from app.stored_secrets import new_token
from dashboard import TEMPLATES
from dashboard.security import cookie_name, safe_return_path, session_cookie

ISSUER = "http://127.0.0.1:8000/dev-idp"
CLIENT = "ticketing-dashboard"


def test_over_https_the_cookie_is_secure_and_host_prefixed() -> None:
    https = dataclasses.replace(load_settings(), public_url="https://tickets.example.com")
    cookie = session_cookie(https, "token")
    assert cookie_name(https) == cookie.key == "__Host-dashboard_session"
    assert cookie.secure and cookie.httponly and cookie.samesite == "lax" and cookie.path == "/"
    assert cookie.domain is None
    plain = dataclasses.replace(load_settings(), public_url="http://127.0.0.1:8000")
    cookie = session_cookie(plain, "token")
    assert cookie.key == "dashboard_session" and not cookie.secure and cookie.httponly


def test_the_csrf_token_belongs_to_one_session() -> None:
    one, other = new_token(), new_token()
    assert csrf_matches(one, csrf_token(one))
    assert not csrf_matches(other, csrf_token(one))
    assert not csrf_matches(one, "")


POST_FORM = re.compile(
    r"<form\b[^>]*\bmethod=\"post\"[^>]*>(.*?)</form>", re.DOTALL | re.IGNORECASE
)


def test_every_post_form_takes_its_csrf_field_from_the_one_macro() -> None:
    """The field is declared once (``csrf`` in ``_macros.html``); a form that writes it by hand
    would keep working until the field changes, then fail only on its own page."""
    forms = {
        template.name: POST_FORM.findall(template.read_text())
        for template in sorted(TEMPLATES.glob("*.html"))
    }
    assert sum(len(found) for found in forms.values()) >= 10, forms.keys()
    strays = {
        name
        for name, found in forms.items()
        for form in found
        if "csrf(layout)" not in form or "csrf_token" in form
    }
    assert strays == set()


@pytest.mark.parametrize(
    ("asked", "returned"),
    [
        ("/dashboard/api-keys?done=revoked", "/dashboard/api-keys?done=revoked"),
        (None, "/dashboard"),
        ("https://evil.example/dashboard", "/dashboard"),
        ("//evil.example/dashboard", "/dashboard"),
        ("/dashboard\\@evil.example", "/dashboard"),
        ("/schema", "/dashboard"),
        ("/dashboard\r\nSet-Cookie: x", "/dashboard"),
    ],
)
def test_sign_in_returns_only_inside_the_dashboard(asked: str | None, returned: str) -> None:
    assert safe_return_path(asked) == returned


def test_a_member_reads_and_only_an_admin_manages_credentials() -> None:
    member = Principal.for_session(uuid4(), uuid4(), "member", uuid4())
    admin = Principal.for_session(uuid4(), uuid4(), "admin", uuid4())
    assert member.scopes == READ_SCOPES and admin.scopes == frozenset(SCOPES)
    with pytest.raises(Forbidden):
        member.require("events.write")
    with pytest.raises(Forbidden):
        member.require_admin()
    admin.require_admin()
    member.require_person()
    key = Principal(uuid4(), uuid4(), frozenset(SCOPES), "api_key", uuid4())
    with pytest.raises(Forbidden):
        key.require_admin()
    with pytest.raises(Forbidden):
        key.require_person()


def _token(directory: Path, **claims: Any) -> str:
    key = import_private_pem((directory / KEY_FILE).read_bytes())
    now = int(timeutil.utcnow().timestamp())
    payload = {
        "iss": ISSUER, "sub": "dev|a", "aud": CLIENT, "email": "a@example.com",
        "email_verified": True, "nonce": "n-1", "iat": now, "exp": now + 300, **claims,
    }  # fmt: skip
    payload = {name: value for name, value in payload.items() if value is not None}
    return jwt.encode({"alg": algorithm_of(key), "kid": key.kid}, payload, key)


@pytest.mark.parametrize(
    ("claims", "refusal"),
    [
        ({"aud": "ticketing-dev"}, "not valid"),
        ({"nonce": "n-2"}, "not valid"),
        ({"nonce": None}, "not valid"),
        ({"email_verified": None}, "not verified"),
        ({"email_verified": "true"}, "not verified"),
        ({"iss": "https://other.example"}, "not valid"),
        ({"exp": 1_000_000}, "expired"),
        # Issue 24 item 6 (OpenID Connect Core 3.1.3.7): several audiences need our azp.
        ({"aud": [CLIENT, "another-app"]}, "another application"),
        ({"aud": [CLIENT, "another-app"], "azp": "another-app"}, "another application"),
        ({"azp": "another-app"}, "another application"),
    ],
)
async def test_the_id_token_must_be_for_this_client_and_this_sign_in(
    tmp_path: Path, claims: dict[str, Any], refusal: str
) -> None:
    _, jwks = ensure_dev_idp(tmp_path)
    settings = dataclasses.replace(
        load_settings(), idp_issuer=ISSUER, idp_jwks_file=jwks, idp_jwks_url=None
    )
    identity = await verify_id_token(_token(tmp_path), settings, client_id=CLIENT, nonce="n-1")
    assert identity.email == "a@example.com" and identity.issuer == ISSUER
    with pytest.raises(SignInError, match=refusal):
        await verify_id_token(_token(tmp_path, **claims), settings, client_id=CLIENT, nonce="n-1")


@pytest.mark.parametrize(
    "claims", [{"aud": [CLIENT, "another-app"], "azp": CLIENT}, {"aud": [CLIENT]}, {"azp": CLIENT}]
)
async def test_an_id_token_authorized_to_this_client_is_accepted(
    tmp_path: Path, claims: dict[str, Any]
) -> None:
    _, jwks = ensure_dev_idp(tmp_path)
    settings = dataclasses.replace(
        load_settings(), idp_issuer=ISSUER, idp_jwks_file=jwks, idp_jwks_url=None
    )
    token = _token(tmp_path, **claims)
    identity = await verify_id_token(token, settings, client_id=CLIENT, nonce="n-1")
    assert identity.email == "a@example.com"
