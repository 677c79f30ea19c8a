"""The authorization step (``/oauth2/authorize``): sign the user in, check membership, consent.

Order of checks, so that nothing is redirected to an address we have not matched:
1. authlib validates ``client_id`` and ``redirect_uri``; a failure here is an error page (400).
2. authlib validates ``response_type``, ``scope`` and PKCE; then ``organization_id`` and the
   IdP ``token`` are checked here. Every failure from now on redirects to the client with
   ``error`` and ``state`` (RFC 6749 section 4.1.2.1): a bad or expired sign-in token, an unknown
   user or a user who is not a member of the organization is ``access_denied``.
3. A trusted client of the organization being authorized gets its code at once (trust is an
   organization's word for its own users, so a client trusted elsewhere gets no skip); any other
   client gets the consent page, whose approve / deny post comes back to :func:`decide`, once.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from uuid import UUID

from authlib.oauth2.rfc6749.errors import AccessDeniedError, InvalidRequestError

from app.principal import SCOPE_DESCRIPTIONS
from app.services.oauth import consent, server
from app.services.oauth.grants import Subject
from app.services.oauth.idp import SignInError, sign_in, verify_id_token
from app.services.organizations import is_member
from app.services.test_mode import in_mode, mode_of
from app.settings import Settings
from db.tables import Organization, User


@dataclass(frozen=True, slots=True)
class ConsentPage:
    """Everything the consent page shows, and the ticket its form posts back."""

    client_name: str
    organization_name: str
    user_email: str
    scopes: list[tuple[str, str]]
    ticket: str
    csrf_cookie: str
    csrf: str


@dataclass(frozen=True, slots=True)
class ErrorPage:
    status: int
    error: str
    description: str


Answer = server.Outcome | ConsentPage | ErrorPage


def _shown(outcome: server.Outcome) -> Answer:
    """An authlib error without a validated redirect_uri becomes an error page."""
    if outcome.location is not None:
        return outcome
    body = outcome.body if isinstance(outcome.body, dict) else {}
    return ErrorPage(
        status=outcome.status,
        error=str(body.get("error", "invalid_request")),
        description=str(body.get("error_description", "The request is not valid")),
    )


async def _signed_in_member(
    valid: server.ValidRequest, params: dict[str, str], settings: Settings
) -> Subject | server.Outcome:
    raw_org = params.get("organization_id")
    if not raw_org:
        return server.error_redirect(valid, InvalidRequestError("Missing organization_id"))
    try:
        organization_id = UUID(raw_org)
    except ValueError:
        return server.error_redirect(valid, InvalidRequestError("organization_id is not a UUID"))
    token = params.get("token")
    if not token:
        return server.error_redirect(valid, InvalidRequestError("Missing token (the sign-in JWT)"))
    try:
        user_id = await sign_in(await verify_id_token(token, settings))
    except SignInError as error:
        return server.error_redirect(valid, AccessDeniedError(str(error)))
    if not await is_member(organization_id, user_id):
        return server.error_redirect(
            valid, AccessDeniedError("This account is not a member of the organization")
        )
    _, test_client = await mode_of(valid.client.organization_id)
    return Subject(user_id=user_id, organization_id=await in_mode(organization_id, test_client))


async def authorize(pairs: list[tuple[str, str]], settings: Settings) -> Answer:
    """``GET /oauth2/authorize``: a redirect, the consent page, or an error page."""
    valid = await server.validate_authorization(pairs, settings)
    if isinstance(valid, server.Outcome):
        return _shown(valid)
    subject = await _signed_in_member(valid, dict(pairs), settings)
    if isinstance(subject, server.Outcome):
        return subject
    if valid.client.trusted and valid.client.organization_id == subject.organization_id:
        return _shown(await server.complete_authorization(pairs, subject, settings))
    ticket = await consent.issue_ticket(pairs, subject, settings)
    user = await User.select(User.email).where(User.id == subject.user_id).first()
    organization = (
        await Organization.select(Organization.name)
        .where(Organization.id == subject.organization_id)
        .first()
    )
    return ConsentPage(
        client_name=valid.client.name,
        organization_name=organization["name"] if organization else "",
        user_email=user["email"] if user else "",
        scopes=[(scope, SCOPE_DESCRIPTIONS[scope]) for scope in valid.scope.split()],
        ticket=ticket.token,
        csrf_cookie=ticket.csrf_cookie,
        csrf=ticket.csrf,
    )


async def decide(
    ticket: str | None, cookies: Mapping[str, str], approved: bool, settings: Settings
) -> Answer:
    """``POST /oauth2/authorize`` from the consent page: a redirect with a code or
    ``access_denied``; a forged, expired or cross-site form is an error page."""
    try:
        decision = await consent.redeem_ticket(ticket or "", cookies, settings)
    except consent.ConsentError as error:
        return ErrorPage(status=400, error="invalid_request", description=str(error))
    outcome = await server.complete_authorization(
        decision.params, decision.subject if approved else None, settings
    )
    return _shown(outcome)
