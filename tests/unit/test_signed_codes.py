"""Signed codes (CONTRACT.md section 17): the format of docs/signed-codes.md, its test vectors
checked with a stock Ed25519 implementation, and codes that must not verify."""

from __future__ import annotations

import base64
import re
from pathlib import Path
from uuid import UUID

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

from app.signed_codes import LENGTH, Claims, b64url, kid_of, raw_public_key, read, sign, verify

DOC = Path(__file__).resolve().parents[2] / "docs" / "signed-codes.md"
IDS = [UUID(f"{n}" * 8 + f"-{n * 4}-4{n * 3}-8{n * 3}-{n * 12}") for n in "1234"]


def vectors() -> list[tuple[bytes, str, str, str]]:
    """(seed, public key, kid, code) of each vector of the doc."""
    text = DOC.read_text()
    seeds = re.findall(r"Seed `([0-9a-f]{64})`", text)
    keys = re.findall(r"public key(?: \(base64url\))?: `([\w-]+)`, kid `([\w-]+)`", text)
    codes = re.findall(r"`(T1\.[\w-]+)`", text)
    assert len(seeds) == len(keys) == len(codes) == 2
    return [
        (bytes.fromhex(seed), key, kid, code)
        for seed, (key, kid), code in zip(seeds, keys, codes, strict=True)
    ]


def test_the_documented_vectors_verify_with_a_stock_ed25519() -> None:
    for seed, public, kid, code in vectors():
        private = Ed25519PrivateKey.from_private_bytes(seed)
        assert b64url(raw_public_key(private.public_key())) == public
        assert b64url(kid_of(private.public_key())) == kid
        raw = base64.urlsafe_b64decode(code[3:] + "=" * (-len(code[3:]) % 4))
        stock = Ed25519PublicKey.from_public_bytes(base64.urlsafe_b64decode(public + "="))
        stock.verify(raw[73:], raw[:73])  # raises when it does not verify
        assert len(code) == LENGTH == 186 and raw[0] == 1
        claims = read(code)
        assert claims is not None
        assert sign(private, claims[0]) == code  # deterministic: the same code again


def test_the_first_vector_names_its_ticket() -> None:
    seed, _, _, code = vectors()[0]
    key = Ed25519PrivateKey.from_private_bytes(seed).public_key()
    assert verify(code, {kid_of(key): key}) == Claims(kid_of(key), *IDS)


def test_a_code_that_was_changed_or_signed_by_another_key_does_not_verify() -> None:
    key = Ed25519PrivateKey.generate()
    other = Ed25519PrivateKey.generate()
    claims = Claims(kid_of(key.public_key()), *IDS)
    code = sign(key, claims)
    keys = {kid_of(key.public_key()): key.public_key()}
    assert verify(code, keys) == claims
    flipped = code[:40] + ("A" if code[40] != "A" else "B") + code[41:]
    assert verify(flipped, keys) is None
    assert verify(code, {kid_of(key.public_key()): other.public_key()}) is None
    assert verify(code, {}) is None
    for malformed in ("", "T1.", code[:-1], "T2." + code[3:], code[:-2] + "!!", "x" * 186):
        assert verify(malformed, keys) is None


def test_a_code_is_accepted_in_its_one_spelling_only() -> None:
    """183 base64url characters carry 137 bytes and two spare bits: a code whose last character
    sets them decodes to the same bytes, and is refused."""
    key = Ed25519PrivateKey.generate()
    claims = Claims(kid_of(key.public_key()), *IDS)
    code = sign(key, claims)
    keys = {claims.kid: key.public_key()}
    alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
    last = alphabet.index(code[-1])
    respelled = code[:-1] + alphabet[last | 1]
    assert respelled != code
    assert verify(code, keys) == claims
    assert verify(respelled, keys) is None
