"""What the authorization server publishes: RFC 8414 metadata and the JWKS."""

from __future__ import annotations

from joserfc.jwk import KeySetSerialization

from app.principal import SCOPES
from app.schemas.oauth import AuthorizationServerMetadata
from app.services.oauth import signing_keys
from app.settings import Settings


def metadata(settings: Settings) -> AuthorizationServerMetadata:
    issuer = settings.public_url
    return AuthorizationServerMetadata(
        issuer=issuer,
        authorization_endpoint=f"{issuer}/oauth2/authorize",
        token_endpoint=f"{issuer}/oauth2/token",
        revocation_endpoint=f"{issuer}/oauth2/revoke",
        jwks_uri=f"{issuer}/oauth2/jwks.json",
        scopes_supported=list(SCOPES),
        response_types_supported=["code"],
        response_modes_supported=["query"],
        grant_types_supported=["authorization_code", "client_credentials", "refresh_token"],
        token_endpoint_auth_methods_supported=["client_secret_basic", "client_secret_post", "none"],
        revocation_endpoint_auth_methods_supported=[
            "client_secret_basic",
            "client_secret_post",
            "none",
        ],
        code_challenge_methods_supported=["S256"],
        service_documentation=f"{issuer}/schema",
    )


async def jwks(settings: Settings) -> KeySetSerialization:
    return await signing_keys.jwks(settings)
