"""PEM private keys as signing JWKs: the one loader for ``TICKETING_SIGNING_KEY_FILE`` (checked at
start-up by the settings and used by the token signer), the keys kept in the database and the
development identity provider's key.

Accepted: EC P-256 (signs ES256) and RSA of 2048 bits or more (signs RS256), in PKCS#8 or the
traditional OpenSSL PEM form, unencrypted. The key type is read with ``cryptography`` first, so the
JWK class is chosen by what the key is, not by trying one and catching its error.
"""

from __future__ import annotations

from cryptography.hazmat.primitives.asymmetric import ec, rsa
from cryptography.hazmat.primitives.serialization import load_pem_private_key
from joserfc.jwk import ECKey, Key, KeyParameters, RSAKey

EC_ALGORITHM = "ES256"
RSA_ALGORITHM = "RS256"
MIN_RSA_BITS = 2048


class UnusableKey(ValueError):
    """The PEM is not a private key the signer can use; the message says why, in one line."""


def algorithm_of(key: Key) -> str:
    return RSA_ALGORITHM if isinstance(key, RSAKey) else EC_ALGORITHM


def import_private_pem(pem: str | bytes, kid: str | None = None) -> Key:
    """The signing JWK of a PEM private key; ``kid`` defaults to its RFC 7638 thumbprint."""
    data = pem.encode() if isinstance(pem, str) else pem
    try:
        private = load_pem_private_key(data, password=None)
    except (ValueError, TypeError):
        raise UnusableKey("is not an unencrypted PEM private key") from None
    if isinstance(private, ec.EllipticCurvePrivateKey) and isinstance(private.curve, ec.SECP256R1):
        ec_key = ECKey.import_key(private)
        return ECKey.import_key(private, parameters=_parameters(ec_key, kid))
    if isinstance(private, rsa.RSAPrivateKey) and private.key_size >= MIN_RSA_BITS:
        rsa_key = RSAKey.import_key(private)
        return RSAKey.import_key(private, parameters=_parameters(rsa_key, kid))
    raise UnusableKey(f"must hold an EC P-256 or RSA ({MIN_RSA_BITS}+ bits) private key")


def _parameters(key: Key, kid: str | None) -> KeyParameters:
    return {"kid": kid or key.thumbprint(), "alg": algorithm_of(key), "use": "sig"}
