"""Credentials the service hands out once and keeps only as a SHA-256 hash: API keys, OAuth client
secrets, authorization codes, refresh tokens and dashboard session tokens.

Each is an opaque random string of at least 190 bits, so a fast hash is the right tool (a slow
password hash would add latency to every use without adding safety) and a copy of the database
lets nobody in. The holder presents the string; the service hashes it and finds the row by the
unique index on the hash.
"""

from __future__ import annotations

import hashlib
import secrets

TOKEN_BYTES = 32
"""Random bytes of a token from :func:`new_token` (256 bits, 43 URL-safe characters)."""


def new_token(prefix: str = "") -> str:
    """A fresh opaque token: ``prefix`` (which says what it is) and 256 random bits."""
    return prefix + secrets.token_urlsafe(TOKEN_BYTES)


def hash_secret(value: str) -> str:
    """What is stored and looked up for ``value``: its SHA-256, in hexadecimal."""
    return hashlib.sha256(value.encode()).hexdigest()
