"""The dashboard's session cookie, and the check that runs before every dashboard route.

:func:`check_request` (the router's ``before_request``), in this order:

1. A ``POST`` from another site is refused (403): ``Sec-Fetch-Site`` must be ``same-origin`` (or
   ``none``, typed by the user) when the browser sends it, and ``Origin``, when sent, must be the
   origin of ``TICKETING_PUBLIC_URL``.
2. The session is loaded from the cookie (``request.state``); a route that needs one sends a
   visitor without one to the sign-in page (a ``GET``) or refuses (a ``POST``, 403).
3. A ``POST`` must carry the session's CSRF token in the form field ``csrf_token`` (403 if not).
4. A route that works inside an organization sends a user who has not picked one yet to the
   organization picker; the session's :class:`~app.principal.Principal` becomes ``request.user``.

Routes mark themselves with ``opt``: :data:`PUBLIC` (no session needed: sign-in and its
callback) and :data:`ANY_ORGANIZATION` (a session is needed, an organization is not: the picker,
sign-out).
"""

from __future__ import annotations

from typing import Any
from urllib.parse import quote, urlsplit

from litestar import Request, Response
from litestar.datastructures import Cookie

from app.errors import Forbidden
from app.principal import Principal
from app.services.dashboard_sessions import SessionView, csrf_matches, load_session
from app.settings import Settings

PUBLIC = "dashboard_public"
ANY_ORGANIZATION = "dashboard_any_organization"
SESSION_STATE = "dashboard_session"
CSRF_FIELD = "csrf_token"
SIGN_IN_PATH = "/dashboard/sign-in"
PICKER_PATH = "/dashboard/organizations"
PLAIN_COOKIE = "dashboard_session"
HOST_COOKIE = "__Host-dashboard_session"
SAFE_FETCH_SITES = {"same-origin", "none"}


def _settings(request: Request[Any, Any, Any]) -> Settings:
    settings: Settings = request.app.state["settings"]
    return settings


def _https(settings: Settings) -> bool:
    return settings.public_url.startswith("https:")


def cookie_name(settings: Settings) -> str:
    """``__Host-`` prefixed (Secure, Path=/, no Domain) when the service is served over https."""
    return HOST_COOKIE if _https(settings) else PLAIN_COOKIE


def session_cookie(settings: Settings, token: str) -> Cookie:
    """The session cookie: HttpOnly, SameSite=Lax, and Secure over https. No Max-Age: the
    server ends an idle session, the browser forgets the cookie when it closes."""
    return Cookie(
        key=cookie_name(settings),
        value=token,
        path="/",
        httponly=True,
        samesite="lax",
        secure=_https(settings),
    )


def cleared_cookie(settings: Settings) -> Cookie:
    cookie = session_cookie(settings, "")
    cookie.max_age = 0
    return cookie


def cookie_token(request: Request[Any, Any, Any]) -> str | None:
    return request.cookies.get(cookie_name(_settings(request))) or None


def public_origin(settings: Settings) -> str:
    parts = urlsplit(settings.public_url)
    return f"{parts.scheme}://{parts.netloc}"


def cross_site(request: Request[Any, Any, Any]) -> bool:
    """Whether the browser says this request comes from another site or origin."""
    fetch_site = request.headers.get("sec-fetch-site")
    if fetch_site is not None and fetch_site not in SAFE_FETCH_SITES:
        return True
    origin = request.headers.get("origin")
    return origin is not None and origin != public_origin(_settings(request))


def session_of(request: Request[Any, Any, Any]) -> SessionView:
    """The signed-in session of a route that is not :data:`PUBLIC`."""
    session: SessionView = request.state[SESSION_STATE]
    return session


def principal_of(request: Request[Any, Any, Any]) -> Principal:
    """The acting member of a route inside an organization."""
    principal = session_of(request).principal
    assert principal is not None
    return principal


def _redirect(location: str) -> Response[Any]:
    return Response(b"", status_code=303, headers={"Location": location})


async def check_request(request: Request[Any, Any, Any]) -> Response[Any] | None:
    """The router's ``before_request``: None lets the route run; a response answers instead."""
    opt = request.route_handler.opt
    posting = request.method == "POST"
    if posting and cross_site(request):
        raise Forbidden("Cross-site form submissions are refused")
    token = cookie_token(request)
    session = await load_session(token) if token else None
    request.state[SESSION_STATE] = session
    if opt.get(PUBLIC):
        return None
    if session is None or token is None:
        if posting:
            raise Forbidden("Your session has ended; sign in again")
        return _redirect(f"{SIGN_IN_PATH}?next={quote(_here(request), safe='')}")
    if posting:
        form = await request.form()
        sent = form.get(CSRF_FIELD)
        if not isinstance(sent, str) or not csrf_matches(token, sent):
            raise Forbidden("The form's security token is missing or stale; reload the page")
    if session.principal is None:
        if opt.get(ANY_ORGANIZATION):
            return None
        return _redirect(PICKER_PATH)
    request.scope["user"] = session.principal
    return None


def _here(request: Request[Any, Any, Any]) -> str:
    query = request.url.query
    return request.url.path + (f"?{query}" if query else "")


def safe_return_path(value: str | None) -> str:
    """A path inside the dashboard to return to after sign-in, never another site."""
    if not value or not value.startswith("/dashboard") or value.startswith("//"):
        return "/dashboard"
    if "\\" in value or any(ord(character) < 32 for character in value):
        return "/dashboard"
    return value
