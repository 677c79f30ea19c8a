"""The OpenAPI description of the OAuth endpoints' inputs and browser answers.

The handlers of ``rest/oauth.py`` read their query string and form bodies themselves (authlib wants
the raw pairs, repeats included), so Litestar cannot derive these from their signatures. Each
route names one of the operation classes below (Litestar's ``operation_class``, dataclasses whose
``__post_init__`` completes what Litestar generated): what the endpoint takes and, for the browser
endpoints, the HTML pages and redirects it answers with.
"""

from __future__ import annotations

from dataclasses import dataclass

from litestar import Litestar
from litestar.openapi.spec import (
    OpenAPIFormat,
    OpenAPIHeader,
    OpenAPIMediaType,
    OpenAPIResponse,
    OpenAPIType,
    Operation,
    Parameter,
    Reference,
    RequestBody,
    Schema,
)

from app.principal import SCOPES

FORM_MEDIA_TYPE = "application/x-www-form-urlencoded"
HTML_MEDIA_TYPE = "text/html"
PKCE_VERIFIER_PATTERN = r"^[A-Za-z0-9._~-]{43,128}$"


def _text(
    description: str,
    *,
    enum: list[str] | None = None,
    format: OpenAPIFormat | None = None,
    pattern: str | None = None,
) -> Schema:
    return Schema(
        type=OpenAPIType.STRING, description=description, enum=enum, format=format, pattern=pattern
    )


def _query(name: str, schema: Schema, *, required: bool = False) -> Parameter:
    return Parameter(
        name=name,
        param_in="query",
        schema=schema,
        required=required,
        description=schema.description,
    )


FORMS: dict[str, Schema] = {}
"""The form bodies, by component name (:func:`declare_forms`)."""


def _form(name: str, fields: dict[str, Schema | Reference], required: list[str]) -> RequestBody:
    """A form body, documented as the component ``name`` (a generated client's class name)."""
    FORMS[name] = Schema(type=OpenAPIType.OBJECT, properties=fields, required=required)
    reference = Reference(ref=f"#/components/schemas/{name}")
    return RequestBody(content={FORM_MEDIA_TYPE: OpenAPIMediaType(schema=reference)}, required=True)


def declare_forms(application: Litestar) -> None:
    """Add the components of the form bodies that the operations below refer to."""
    application.openapi_schema.components.schemas.update(FORMS)


def _page(description: str) -> OpenAPIResponse:
    return OpenAPIResponse(
        description=description,
        content={HTML_MEDIA_TYPE: OpenAPIMediaType(schema=Schema(type=OpenAPIType.STRING))},
    )


def _redirect(description: str) -> OpenAPIResponse:
    location = OpenAPIHeader(
        schema=Schema(type=OpenAPIType.STRING, format=OpenAPIFormat.URI), required=True
    )
    return OpenAPIResponse(description=description, headers={"Location": location})


ERROR_PAGE = _page(
    "HTML error page: the client or `redirect_uri` is not valid (nothing is redirected), or the "
    "consent form is forged, expired, from another browser or already submitted"
)


@dataclass
class AuthorizeOperation(Operation):
    """``GET /oauth2/authorize``: RFC 6749 section 4.1.1 with PKCE and this API's two additions."""

    def __post_init__(self) -> None:
        self.parameters = [
            _query("response_type", _text("Only `code`", enum=["code"]), required=True),
            _query("client_id", _text("The registered client's id"), required=True),
            _query(
                "redirect_uri",
                _text(
                    "Exactly one of the client's registered URIs; optional when it has only one",
                    format=OpenAPIFormat.URI,
                ),
            ),
            _query("scope", _text(f"Space-separated, of: {' '.join(SCOPES)}; default: all")),
            _query("state", _text("Returned unchanged with the code or the error")),
            _query(
                "organization_id",
                _text("The organization the user authorizes for", format=OpenAPIFormat.UUID),
                required=True,
            ),
            _query("token", _text("The user's JWT from the identity provider"), required=True),
            _query(
                "code_challenge",
                _text("PKCE (required for public clients)", pattern=PKCE_VERIFIER_PATTERN),
            ),
            _query("code_challenge_method", _text("PKCE method", enum=["S256"])),
        ]
        self.responses = {
            "200": _page("The consent page (approve / deny)"),
            "302": _redirect(
                "To `redirect_uri` with `code` and `state`, or with `error` and `state`"
            ),
            "400": ERROR_PAGE,
        }


@dataclass
class DecideOperation(Operation):
    """``POST /oauth2/authorize``: the consent page's form."""

    def __post_init__(self) -> None:
        self.request_body = _form(
            "ConsentForm",
            {
                "consent": _text("The consent ticket the page carries (single use)"),
                "decision": _text("`approve` grants; any other value denies"),
            },
            required=["consent"],
        )
        self.responses = {
            "302": _redirect("To `redirect_uri` with `code` and `state`, or `error=access_denied`"),
            "400": ERROR_PAGE,
        }


CLIENT_FIELDS = {
    "client_id": _text("With `client_secret` in the form, or for a public client alone"),
    "client_secret": _text("Or HTTP Basic authentication"),
}


@dataclass
class TokenOperation(Operation):
    """``POST /oauth2/token``: RFC 6749 section 4.1.3, 4.4.2 and 6, form-encoded."""

    def __post_init__(self) -> None:
        self.request_body = _form(
            "TokenRequest",
            {
                "grant_type": _text(
                    "The grant",
                    enum=["authorization_code", "client_credentials", "refresh_token"],
                ),
                "code": _text("authorization_code: the code"),
                "redirect_uri": _text("authorization_code: as sent to /oauth2/authorize"),
                "code_verifier": _text(
                    "authorization_code with PKCE", pattern=PKCE_VERIFIER_PATTERN
                ),
                "refresh_token": _text("refresh_token: the refresh token"),
                "scope": _text("client_credentials and refresh_token: space-separated scopes"),
                **CLIENT_FIELDS,
            },
            required=["grant_type"],
        )


@dataclass
class RevokeOperation(Operation):
    """``POST /oauth2/revoke``: RFC 7009, form-encoded."""

    def __post_init__(self) -> None:
        self.request_body = _form(
            "RevocationRequest",
            {
                "token": _text("An access or refresh token"),
                "token_type_hint": _text("A hint", enum=["access_token", "refresh_token"]),
                **CLIENT_FIELDS,
            },
            required=["token"],
        )
