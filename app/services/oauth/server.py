"""authlib's AuthorizationServer, its grants and endpoints, wired to our storage.

authlib's server classes are synchronous and call their storage hooks (``query_client``,
``save_token``, ...) in the middle of a request. We keep the event loop free by running each
authlib call in a worker thread (``anyio.to_thread.run_sync``); the hooks hop back onto the event
loop with ``anyio.from_thread.run`` for their database work, so every query still goes through the
one async connection pool and no thread ever blocks the loop. Each hook's work is one atomic
statement or transaction (see ``grants.py``), so the thread hop adds latency, not races.
"""

from __future__ import annotations

import base64
import binascii
from collections import defaultdict
from collections.abc import Callable, Collection, Coroutine
from dataclasses import dataclass
from functools import cache, cached_property, partial
from typing import Any, TypeVar, cast
from uuid import UUID

import anyio.from_thread
import anyio.to_thread
from authlib.oauth2 import AuthorizationServer, OAuth2Error, OAuth2Request
from authlib.oauth2.rfc6749 import grants
from authlib.oauth2.rfc6749.errors import (
    InvalidClientError,
    InvalidGrantError,
    InvalidRequestError,
    InvalidScopeError,
)
from authlib.oauth2.rfc6749.requests import OAuth2Payload
from authlib.oauth2.rfc7009 import RevocationEndpoint
from authlib.oauth2.rfc7636 import CodeChallenge

from app.errors import Unauthenticated
from app.principal import SCOPES
from app.services.oauth import grants as storage
from app.services.oauth.clients import Client, find_client
from app.services.oauth.grants import Subject
from app.services.oauth.tokens import EXPIRES_IN, issue_access_token, verify_access_token
from app.settings import Settings

T = TypeVar("T")

AUTH_METHODS = ["client_secret_basic", "client_secret_post", "none"]


def _on_loop(function: Callable[..., Coroutine[Any, Any, T]], *args: Any) -> T:
    """Run an async storage call on the event loop from authlib's worker thread."""
    return anyio.from_thread.run(function, *args)


@dataclass(frozen=True, slots=True)
class Outcome:
    """What authlib answered: status, JSON body (or "" for a redirect) and headers."""

    status: int
    body: Any
    headers: list[tuple[str, str]]

    @property
    def location(self) -> str | None:
        return next((value for name, value in self.headers if name == "Location"), None)


Endpoint = Callable[[list[tuple[str, str]], str | None, Settings], Coroutine[Any, Any, Outcome]]
"""A form endpoint (:func:`token_endpoint`, :func:`revocation_endpoint`): the form's pairs, the
``Authorization`` header and the settings in, authlib's answer out."""


class _Payload(OAuth2Payload):
    """A request's parameters as authlib reads them (its public ``OAuth2Payload`` interface, as its
    own Flask integration implements it): ``data`` holds the first value of each name,
    ``datalist`` every value, so that authlib refuses a repeated parameter."""

    def __init__(self, pairs: list[tuple[str, str]]) -> None:
        self.values: defaultdict[str, list[str]] = defaultdict(list)
        for name, value in pairs:
            self.values[name].append(value)

    @cached_property
    def data(self) -> dict[str, str]:
        return {name: values[0] for name, values in self.values.items()}

    @property
    def datalist(self) -> defaultdict[str, list[str]]:
        return self.values


def _client_of(request: OAuth2Request) -> Client:
    """The client authlib authenticated for ``request``: one that ``Server.query_client`` found."""
    client = request.client
    assert isinstance(client, Client), "authlib hands back the client query_client found"
    return client


def _checked_authorization(authorization: str | None) -> str | None:
    """The Authorization header, if its HTTP Basic credentials can be read at all (authlib's own
    parsing fails with a server error on an empty or non-UTF-8 one)."""
    if authorization is None:
        return None
    scheme, _, credentials = authorization.strip().partition(" ")
    if scheme.lower() != "basic":
        return authorization
    try:
        decoded = base64.b64decode(credentials.strip(), validate=True).decode("utf-8")
    except (binascii.Error, UnicodeDecodeError):
        decoded = ""
    if ":" not in decoded:
        raise InvalidClientError(status_code=401, description="Malformed HTTP Basic credentials")
    return f"Basic {credentials.strip()}"


class Request(OAuth2Request):
    """An HTTP request as authlib sees it: parameters of the query (GET) or the form (POST).

    Its URI is built on the public URL (``TICKETING_PUBLIC_URL``); authlib refuses
    (``insecure_transport``) one that is plain http on a host other than loopback, as RFC 6749
    requires TLS for these endpoints.
    """

    payload: _Payload

    def __init__(
        self,
        method: str,
        url: str,
        pairs: list[tuple[str, str]],
        authorization: str | None,
    ) -> None:
        authorization = _checked_authorization(authorization)
        headers = {"Authorization": authorization} if authorization else {}
        super().__init__(method, url, headers=headers)
        self.payload = _Payload(pairs)

    @property
    def args(self) -> dict[str, str | None]:
        # authlib's args admit None values; ours hold none.
        return cast(dict[str, str | None], self.payload.data)

    @property
    def form(self) -> dict[str, str]:
        return self.payload.data


class S256CodeChallenge(CodeChallenge):
    """PKCE with S256 only, and required of public clients already at the authorize step."""

    SUPPORTED_CODE_CHALLENGE_METHOD = ["S256"]

    def validate_code_challenge(self, grant: AuthorizationCodeGrant, redirect_uri: str) -> None:
        super().validate_code_challenge(grant, redirect_uri)
        data = grant.request.payload.data
        if data.get("code_challenge") and data.get("code_challenge_method") != "S256":
            raise InvalidRequestError("code_challenge_method must be S256")
        if _client_of(grant.request).public and not data.get("code_challenge"):
            raise InvalidRequestError("Public clients must send a PKCE code_challenge (S256)")


class AuthorizationCodeGrant(grants.AuthorizationCodeGrant):
    TOKEN_ENDPOINT_AUTH_METHODS = AUTH_METHODS
    request: Request

    def save_authorization_code(self, code: str, request: Request) -> None:
        data = request.payload.data
        _on_loop(
            storage.save_code,
            code,
            _client_of(request).id,
            request.user,
            data.get("redirect_uri") or "",
            request.scope,
            data.get("code_challenge"),
            data.get("code_challenge_method"),
        )

    def query_authorization_code(self, code: str, client: Client) -> storage.IssuedCode | None:
        """Claims the code at once (one conditional UPDATE), so it is single use even under
        concurrent exchanges; a failed PKCE or redirect_uri check afterwards still uses it up."""
        return _on_loop(storage.claim_code, code, client.id)

    def delete_authorization_code(self, authorization_code: storage.IssuedCode) -> None:
        """Nothing left to do: the code was marked used when it was claimed."""

    def authenticate_user(self, authorization_code: storage.IssuedCode) -> Subject:
        return authorization_code.subject()


class RefreshTokenGrant(grants.RefreshTokenGrant):
    TOKEN_ENDPOINT_AUTH_METHODS = AUTH_METHODS
    INCLUDE_NEW_REFRESH_TOKEN = True

    def authenticate_refresh_token(self, refresh_token: str) -> storage.LiveRefreshToken | None:
        return _on_loop(storage.find_refresh_token, refresh_token)

    def authenticate_user(self, refresh_token: storage.LiveRefreshToken) -> Subject:
        return refresh_token.subject()

    def issue_token(
        self, user: Subject, refresh_token: storage.LiveRefreshToken
    ) -> dict[str, str | int]:
        """Rotate first: of two concurrent refreshes with one token, the loser revokes the
        family."""
        if not _on_loop(storage.rotate_refresh_token, refresh_token):
            raise InvalidGrantError("The refresh token has already been used")
        # Our refresh token has the methods of authlib's TokenMixin that the grant calls.
        return super().issue_token(user, refresh_token)  # type: ignore[arg-type]

    def revoke_old_credential(self, refresh_token: storage.LiveRefreshToken) -> None:
        """Nothing left to do: ``issue_token`` rotated it."""


class ClientCredentialsGrant(grants.ClientCredentialsGrant):
    TOKEN_ENDPOINT_AUTH_METHODS = ["client_secret_basic", "client_secret_post"]
    request: Request

    def create_token_response(
        self,
    ) -> tuple[int, dict[str, str | int], Collection[tuple[str, str]]]:
        """Each issuance is its own family, acting for the user who registered the client."""
        client = _client_of(self.request)
        scope = client.get_allowed_scope(self.request.payload.scope)
        if scope is None:
            raise InvalidScopeError("The client is not registered for the requested scopes")
        grant_id = _on_loop(
            storage.create_family,
            client.id,
            client.organization_id,
            client.user_id,
            scope,
            "client_credentials",
        )
        user = Subject(client.user_id, client.organization_id, grant_id)
        self.request.user = user
        token = self.generate_token(user=user, scope=scope, include_refresh_token=False)
        self.save_token(token)
        return 200, token, self.TOKEN_RESPONSE_HEADER


@dataclass(frozen=True, slots=True)
class _Revocable:
    grant_id: UUID
    client_pk: UUID | None
    client_id: str | None

    def check_client(self, client: Client) -> bool:
        return client.id == self.client_pk or client.client_id == self.client_id


async def _find_revocable(token: str, hint: str | None, settings: Settings) -> _Revocable | None:
    if hint != "access_token":
        family = await storage.family_of_refresh_token(token)
        if family is not None:
            return _Revocable(grant_id=family[0], client_pk=family[1], client_id=None)
    if hint == "refresh_token" or token.startswith(storage.REFRESH_TOKEN_PREFIX):
        return None
    try:
        claims = await verify_access_token(token, settings)
        return _Revocable(UUID(str(claims["sid"])), None, str(claims["client_id"]))
    except (Unauthenticated, ValueError, KeyError):
        return None


class Revocation(RevocationEndpoint):
    """RFC 7009. Revoking either kind of token revokes its whole family: access tokens are
    stateless JWTs, so their family is what the resource side can check."""

    CLIENT_AUTH_METHODS = AUTH_METHODS

    def query_token(self, token_string: str, token_type_hint: str | None) -> _Revocable | None:
        settings = self.server.settings
        return _on_loop(_find_revocable, token_string, token_type_hint, settings)

    def revoke_token(self, token: _Revocable, request: Request) -> None:
        _on_loop(storage.revoke_family, token.grant_id)


def _token_generator(settings: Settings) -> Callable[..., dict[str, Any]]:
    """Our RFC 9068 tokens (``tokens.py``), instead of authlib's ``JWTBearerTokenGenerator``,
    which reads the wall clock and puts the client in ``aud``."""

    def generate(
        grant_type: str,
        client: Client,
        user: Subject,
        scope: str,
        expires_in: int | None = None,
        include_refresh_token: bool = True,
    ) -> dict[str, Any]:
        return _generate_token(settings, client, user, scope, include_refresh_token)

    return generate


def _generate_token(
    settings: Settings, client: Client, user: Subject, scope: str, include_refresh_token: bool
) -> dict[str, Any]:
    assert user.grant_id is not None
    scope = " ".join(sorted(set(scope.split())))
    token: dict[str, Any] = {
        "access_token": _on_loop(
            partial(
                issue_access_token,
                settings,
                grant_id=user.grant_id,
                organization_id=user.organization_id,
                user_id=user.user_id,
                client_id=client.client_id,
                scope=scope,
            )
        ),
        "token_type": "Bearer",
        "expires_in": EXPIRES_IN,
        "scope": scope,
    }
    if include_refresh_token:
        token["refresh_token"] = storage.new_refresh_token()
    return token


class Server(AuthorizationServer):
    """authlib's server for one configuration (the issuer and signing keys of ``settings``)."""

    def __init__(self, settings: Settings) -> None:
        super().__init__(scopes_supported=list(SCOPES))
        self.settings = settings
        self.register_grant(AuthorizationCodeGrant, [S256CodeChallenge(required=True)])
        self.register_grant(RefreshTokenGrant)
        self.register_grant(ClientCredentialsGrant)
        self.register_endpoint(Revocation)
        # authlib calls the generator with the arguments its BearerTokenGenerator takes.
        self.register_token_generator("default", _token_generator(settings))  # type: ignore[arg-type]

    def request(
        self, method: str, path: str, pairs: list[tuple[str, str]], authorization: str | None
    ) -> Request:
        return Request(method, self.settings.public_url + path, pairs, authorization)

    def query_client(self, client_id: str) -> Client | None:
        return _on_loop(find_client, client_id)

    def save_token(self, token: dict[str, Any], request: OAuth2Request) -> None:
        """Store the refresh token; it keeps the scope of the one it replaces (RFC 6749 s. 6)."""
        refresh_token = token.get("refresh_token")
        if refresh_token is None:
            return
        previous = request.refresh_token
        scope = previous.scope if previous is not None else token["scope"]
        subject = request.user
        assert isinstance(subject, Subject), "authlib saves a token for the subject of its grant"
        _on_loop(storage.save_refresh_token, refresh_token, subject.grant_id, scope)

    def create_oauth2_request(self, request: Request) -> Request:
        return request

    def create_json_request(self, request: Any) -> Any:
        raise NotImplementedError("no JSON endpoints")

    def handle_response(self, status: int, body: Any, headers: list[tuple[str, str]]) -> Outcome:
        return Outcome(status, body, list(headers))

    def send_signal(self, name: str, *args: Any, **kwargs: Any) -> None:
        """No signal listeners."""

    @staticmethod
    def outcome(response: object) -> Outcome:
        """What authlib returned: the :class:`Outcome` that :meth:`handle_response` made."""
        assert isinstance(response, Outcome)
        return response


@cache
def server_for(settings: Settings) -> Server:
    """The authorization server of ``settings`` (one per configuration, made on first use)."""
    return Server(settings)


def _error_outcome(error: OAuth2Error) -> Outcome:
    status, body, headers = error()
    return Outcome(status, body, list(headers))


QUOTED_PARAMETERS = frozenset({"response_type", "redirect_uri", "grant_type"})
"""The request parameters that authlib quotes in its error descriptions."""

ERROR_TEXT = frozenset(chr(c) for c in range(0x20, 0x7F)) - {'"', "\\"}
"""The characters an ``error_description`` may hold (RFC 6749 section 4.1.2.1)."""


def _malformed(pairs: list[tuple[str, str]]) -> Outcome | None:
    """A 400 (never a redirect) for a parameter authlib would quote in an error description that
    holds a character such a description may not: RFC 6749's syntax of these parameters (its
    Appendix A) allows none of them, and authlib refuses to build such a description."""
    if any(name in QUOTED_PARAMETERS and not set(value) <= ERROR_TEXT for name, value in pairs):
        return _error_outcome(
            InvalidRequestError("A parameter holds characters that OAuth 2.0 does not allow")
        )
    return None


async def token_endpoint(
    pairs: list[tuple[str, str]], authorization: str | None, settings: Settings
) -> Outcome:
    """``POST /oauth2/token``: RFC 6749 section 5 responses."""
    names = [name for name, _ in pairs]
    if len(set(names)) != len(names):
        return _error_outcome(InvalidRequestError("A parameter is repeated"))
    if "grant_type" not in names:
        return _error_outcome(InvalidRequestError("Missing grant_type"))
    if malformed := _malformed(pairs):
        return malformed
    return await _answer(
        settings, "/oauth2/token", pairs, authorization, Server.create_token_response
    )


async def revocation_endpoint(
    pairs: list[tuple[str, str]], authorization: str | None, settings: Settings
) -> Outcome:
    """``POST /oauth2/revoke`` (RFC 7009): 200 for any token, known or not."""

    def revoke(server: Server, request: Request) -> Any:
        return server.create_endpoint_response(Revocation.ENDPOINT_NAME, request)

    return await _answer(settings, "/oauth2/revoke", pairs, authorization, revoke)


async def _answer(
    settings: Settings,
    path: str,
    pairs: list[tuple[str, str]],
    authorization: str | None,
    respond: Callable[[Server, Request], Any],
) -> Outcome:
    """authlib's answer (``respond``, run off the event loop: it calls back into it) to a form
    posted to ``path``."""
    server = server_for(settings)
    try:
        request = server.request("POST", path, pairs, authorization)
    except OAuth2Error as error:
        return _error_outcome(error)
    return server.outcome(await anyio.to_thread.run_sync(partial(respond, server, request)))


@dataclass(frozen=True, slots=True)
class ValidRequest:
    client: Client
    redirect_uri: str
    state: str | None
    scope: str


async def validate_authorization(
    pairs: list[tuple[str, str]], settings: Settings
) -> ValidRequest | Outcome:
    """Check an authorization request with authlib. An error is an :class:`Outcome`: a redirect
    to the client once its redirect_uri is known to be registered, else a 400 to show."""
    server = server_for(settings)

    def validate() -> ValidRequest | Outcome:
        try:
            request = server.request("GET", "/oauth2/authorize", pairs, None)
            grant = server.get_consent_grant(request)
        except OAuth2Error as error:
            return _error_outcome(error)
        return ValidRequest(
            client=_client_of(request),
            redirect_uri=grant.redirect_uri,
            state=request.payload.state,
            scope=request.scope,
        )

    if malformed := _malformed(pairs):
        return malformed
    return await anyio.to_thread.run_sync(validate)


async def complete_authorization(
    pairs: list[tuple[str, str]], subject: Subject | None, settings: Settings
) -> Outcome:
    """Redirect with a new code for ``subject`` (None: the user denied, ``access_denied``)."""
    server = server_for(settings)

    def complete() -> Outcome:
        try:
            request = server.request("GET", "/oauth2/authorize", pairs, None)
            grant = server.get_consent_grant(request, end_user=subject)
        except OAuth2Error as error:
            return _error_outcome(error)
        return server.outcome(
            server.create_authorization_response(request, grant_user=subject, grant=grant)
        )

    if malformed := _malformed(pairs):
        return malformed
    return await anyio.to_thread.run_sync(complete)


def error_redirect(valid: ValidRequest, error: OAuth2Error) -> Outcome:
    """An RFC 6749 section 4.1.2.1 error redirect for a request authlib found valid."""
    error.redirect_uri = valid.redirect_uri
    error.state = valid.state
    return _error_outcome(error)
