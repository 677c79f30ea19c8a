"""The consent ticket: what the consent form carries from the authorize page to the decision.

It is a short-lived JWT signed with the access-token key (``typ: consent+jwt``, so it can never
pass as an access token) holding the validated authorization request (without the IdP token), the
user and the organization. It is bound to the browser by a random CSRF value kept in a
``SameSite=Strict`` cookie, whose name and hash the ticket carries: a cross-site form post has
neither the cookie nor a ticket for this user, so it cannot approve anything. Each page gets its
own cookie (``oauth_csrf_<random>``, gone after 10 minutes), so consent pages open in several tabs
all work.

A ticket is single use: issuing it stores its ``jti`` (``oauth_consent_tickets``), and redeeming it
deletes that row in one conditional statement (``DELETE ... WHERE id = jti AND expires_at > now
RETURNING``), so of two submissions of one page, also simultaneous ones, only the first decides;
the second gets an error and nothing is issued.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import timedelta
from uuid import UUID, uuid4

from joserfc import jwt
from joserfc.errors import JoseError

from app import timeutil
from app.private_keys import algorithm_of
from app.services.oauth import signing_keys
from app.services.oauth.grants import Subject
from app.services.oauth.tokens import unverified_header
from app.settings import Settings
from db.tables import OAuthConsentTicket

TICKET_TYPE = "consent+jwt"
TICKET_LIFETIME = timedelta(minutes=10)
CSRF_COOKIE_PREFIX = "oauth_csrf_"


class ConsentError(Exception):
    """The consent form is expired, tampered with, or not from this browser."""


@dataclass(frozen=True, slots=True)
class Ticket:
    token: str
    csrf_cookie: str
    csrf: str


@dataclass(frozen=True, slots=True)
class Decision:
    params: list[tuple[str, str]]
    subject: Subject


def _audience(settings: Settings) -> str:
    return settings.public_url + "/oauth2/authorize"


def _digest(csrf: str) -> str:
    return hashlib.sha256(csrf.encode()).hexdigest()


async def issue_ticket(
    params: list[tuple[str, str]], subject: Subject, settings: Settings
) -> Ticket:
    key = await signing_keys.signer(settings)
    csrf = secrets.token_urlsafe(32)
    cookie = CSRF_COOKIE_PREFIX + secrets.token_hex(6)
    issued_at = timeutil.utcnow()
    ticket_id = uuid4()
    await OAuthConsentTicket.delete().where(OAuthConsentTicket.expires_at < issued_at)
    await OAuthConsentTicket(id=ticket_id, expires_at=issued_at + TICKET_LIFETIME).save()
    now = int(issued_at.timestamp())
    claims = {
        "iss": settings.public_url,
        "aud": _audience(settings),
        "jti": str(ticket_id),
        "iat": now,
        "exp": now + int(TICKET_LIFETIME.total_seconds()),
        "uid": str(subject.user_id),
        "org": str(subject.organization_id),
        "params": [[name, value] for name, value in params if name != "token"],
        "cookie": cookie,
        "csrf": _digest(csrf),
    }
    header = {"alg": algorithm_of(key), "typ": TICKET_TYPE, "kid": key.kid}
    return Ticket(token=jwt.encode(header, claims, key), csrf_cookie=cookie, csrf=csrf)


async def redeem_ticket(token: str, cookies: Mapping[str, str], settings: Settings) -> Decision:
    """The request and user a ticket stands for, if it is ours, live and from this browser
    (``cookies``: the request's ``oauth_csrf_*`` cookies)."""
    try:
        header = unverified_header(token)
    except ValueError:
        raise ConsentError("The consent form is not valid") from None
    kid = header.get("kid")
    key = await signing_keys.verification_key(kid, settings) if isinstance(kid, str) else None
    if key is None or header.get("typ") != TICKET_TYPE:
        raise ConsentError("The consent form is not valid")
    registry = jwt.JWTClaimsRegistry(
        now=lambda: int(timeutil.utcnow().timestamp()),
        iss={"essential": True, "value": settings.public_url},
        aud={"essential": True, "value": _audience(settings)},
        exp={"essential": True},
        jti={"essential": True},
    )
    try:
        claims = jwt.decode(token, key, algorithms=[algorithm_of(key)]).claims
        registry.validate(claims)
        ticket_id = UUID(claims["jti"])
        subject = Subject(user_id=UUID(claims["uid"]), organization_id=UUID(claims["org"]))
        params = [(str(name), str(value)) for name, value in claims["params"]]
    except JoseError as error:
        if error.error == "expired_token":
            raise ConsentError("The consent form has expired") from None
        raise ConsentError("The consent form is not valid") from None
    except (KeyError, TypeError, ValueError):
        raise ConsentError("The consent form is not valid") from None
    csrf = cookies.get(str(claims.get("cookie", "")))
    if not csrf or not hmac.compare_digest(_digest(csrf), str(claims.get("csrf", ""))):
        raise ConsentError("The consent form was not sent from the page this server showed")
    redeemed = (
        await OAuthConsentTicket.delete()
        .where(
            OAuthConsentTicket.id == ticket_id,
            OAuthConsentTicket.expires_at > timeutil.utcnow(),
        )
        .returning(OAuthConsentTicket.id)
    )
    if not redeemed:
        raise ConsentError("This consent form has already been submitted")
    return Decision(params=params, subject=subject)
