"""Signed ticket codes (CONTRACT.md section 17), verifiable offline with the event's public key.

``"T1."`` + base64url without padding of ``payload || signature`` (186 characters): ``payload`` is
73 bytes, ``0x01``, the key's 8-byte ``kid`` (the first 8 bytes of SHA-256 of the raw 32-byte public
key), then the 16 bytes of the ticket id, event id, ticket type id and timeslot id (UUIDs in network
order); ``signature`` is the 64-byte Ed25519 signature of ``payload``. docs/signed-codes.md has the
format with test vectors. This module only encodes and checks; the keys and the routes that use
them are in ``app/services/scan_keys.py``.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
from collections.abc import Mapping
from dataclasses import dataclass
from uuid import UUID

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

PREFIX = "T1."
VERSION = b"\x01"
KID_BYTES = 8
PAYLOAD_BYTES = 1 + KID_BYTES + 4 * 16
SIGNATURE_BYTES = 64
LENGTH = len(PREFIX) + 183
"""186 characters: the prefix and 137 bytes in base64url without padding."""


@dataclass(frozen=True, slots=True)
class Claims:
    """What a code says: the key that signed it and the ticket it names."""

    kid: bytes
    ticket_id: UUID
    event_id: UUID
    ticket_type_id: UUID
    timeslot_id: UUID


def raw_public_key(key: Ed25519PublicKey) -> bytes:
    return key.public_bytes(Encoding.Raw, PublicFormat.Raw)


def kid_of(public_key: Ed25519PublicKey) -> bytes:
    """The key's id: the first 8 bytes of SHA-256 of its raw 32 bytes."""
    return hashlib.sha256(raw_public_key(public_key)).digest()[:KID_BYTES]


def b64url(data: bytes) -> str:
    """Base64url without padding (how codes, kids and public keys travel)."""
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def unb64url(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def sign(key: Ed25519PrivateKey, claims: Claims) -> str:
    """The code of ``claims`` signed with ``key`` (whose kid must be ``claims.kid``)."""
    assert claims.kid == kid_of(key.public_key()), "the claims name another key"
    payload = _payload(claims)
    return PREFIX + b64url(payload + key.sign(payload))


def _payload(claims: Claims) -> bytes:
    ids = (claims.ticket_id, claims.event_id, claims.ticket_type_id, claims.timeslot_id)
    return VERSION + claims.kid + b"".join(value.bytes for value in ids)


def read(code: str) -> tuple[Claims, bytes, bytes] | None:
    """(claims, payload, signature) of a well-formed code, without checking the signature; None
    when it is not one."""
    if len(code) != LENGTH or not code.startswith(PREFIX):
        return None
    try:
        raw = unb64url(code[len(PREFIX) :])
    except (binascii.Error, ValueError):
        return None
    if len(raw) != PAYLOAD_BYTES + SIGNATURE_BYTES or raw[:1] != VERSION:
        return None
    if b64url(raw) != code[len(PREFIX) :]:
        return None  # the last character's two spare bits set: one code, one spelling
    payload, signature = raw[:PAYLOAD_BYTES], raw[PAYLOAD_BYTES:]
    kid = payload[1 : 1 + KID_BYTES]
    ids = [UUID(bytes=payload[start : start + 16]) for start in range(1 + KID_BYTES, 73, 16)]
    return Claims(kid, *ids), payload, signature


def verify(code: str, keys: Mapping[bytes, Ed25519PublicKey]) -> Claims | None:
    """The claims of ``code`` when one of ``keys`` (by kid) signed it; None otherwise (malformed,
    unknown kid, bad signature)."""
    found = read(code)
    if found is None:
        return None
    claims, payload, signature = found
    key = keys.get(claims.kid)
    if key is None:
        return None
    try:
        key.verify(signature, payload)
    except InvalidSignature:
        return None
    return claims
