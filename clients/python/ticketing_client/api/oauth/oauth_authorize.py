from http import HTTPStatus
from typing import Any, cast
from uuid import UUID

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.oauth_authorize_code_challenge_method import (
    OauthAuthorizeCodeChallengeMethod,
)
from ...models.oauth_authorize_response_type import OauthAuthorizeResponseType
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    response_type: OauthAuthorizeResponseType,
    client_id: str,
    redirect_uri: str | Unset = UNSET,
    scope: str | Unset = UNSET,
    state: str | Unset = UNSET,
    organization_id: UUID,
    token: str,
    code_challenge: str | Unset = UNSET,
    code_challenge_method: OauthAuthorizeCodeChallengeMethod | Unset = UNSET,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    json_response_type = response_type.value
    params["response_type"] = json_response_type

    params["client_id"] = client_id

    params["redirect_uri"] = redirect_uri

    params["scope"] = scope

    params["state"] = state

    json_organization_id = str(organization_id)
    params["organization_id"] = json_organization_id

    params["token"] = token

    params["code_challenge"] = code_challenge

    json_code_challenge_method: str | Unset = UNSET
    if not isinstance(code_challenge_method, Unset):
        json_code_challenge_method = code_challenge_method.value

    params["code_challenge_method"] = json_code_challenge_method

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/oauth2/authorize",
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Any | str | None:
    if response.status_code == 200:
        response_200 = response.text
        return response_200

    if response.status_code == 302:
        response_302 = cast(Any, None)
        return response_302

    if response.status_code == 400:
        response_400 = response.text
        return response_400

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[Any | str]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    response_type: OauthAuthorizeResponseType,
    client_id: str,
    redirect_uri: str | Unset = UNSET,
    scope: str | Unset = UNSET,
    state: str | Unset = UNSET,
    organization_id: UUID,
    token: str,
    code_challenge: str | Unset = UNSET,
    code_challenge_method: OauthAuthorizeCodeChallengeMethod | Unset = UNSET,
) -> Response[Any | str]:
    """Authorization endpoint (browser)

     RFC 6749 section 4.1.1 with `organization_id` and `token` (the user's JWT from the identity
    provider). Answers with the consent page, a redirect to `redirect_uri` (`code` and `state`, or
    `error`), or an HTML error page when the client or redirect_uri is not valid.

    Args:
        response_type (OauthAuthorizeResponseType): Only `code`
        client_id (str): The registered client's id
        redirect_uri (str | Unset): Exactly one of the client's registered URIs; optional when it
            has only one
        scope (str | Unset): Space-separated, of: events.read events.write orders.read
            orders.write tickets.read tickets.write scanners.read scanners.write webhooks.read
            webhooks.write; default: all
        state (str | Unset): Returned unchanged with the code or the error
        organization_id (UUID): The organization the user authorizes for
        token (str): The user's JWT from the identity provider
        code_challenge (str | Unset): PKCE (required for public clients)
        code_challenge_method (OauthAuthorizeCodeChallengeMethod | Unset): PKCE method

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | str]
    """

    kwargs = _get_kwargs(
        response_type=response_type,
        client_id=client_id,
        redirect_uri=redirect_uri,
        scope=scope,
        state=state,
        organization_id=organization_id,
        token=token,
        code_challenge=code_challenge,
        code_challenge_method=code_challenge_method,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient,
    response_type: OauthAuthorizeResponseType,
    client_id: str,
    redirect_uri: str | Unset = UNSET,
    scope: str | Unset = UNSET,
    state: str | Unset = UNSET,
    organization_id: UUID,
    token: str,
    code_challenge: str | Unset = UNSET,
    code_challenge_method: OauthAuthorizeCodeChallengeMethod | Unset = UNSET,
) -> Any | str | None:
    """Authorization endpoint (browser)

     RFC 6749 section 4.1.1 with `organization_id` and `token` (the user's JWT from the identity
    provider). Answers with the consent page, a redirect to `redirect_uri` (`code` and `state`, or
    `error`), or an HTML error page when the client or redirect_uri is not valid.

    Args:
        response_type (OauthAuthorizeResponseType): Only `code`
        client_id (str): The registered client's id
        redirect_uri (str | Unset): Exactly one of the client's registered URIs; optional when it
            has only one
        scope (str | Unset): Space-separated, of: events.read events.write orders.read
            orders.write tickets.read tickets.write scanners.read scanners.write webhooks.read
            webhooks.write; default: all
        state (str | Unset): Returned unchanged with the code or the error
        organization_id (UUID): The organization the user authorizes for
        token (str): The user's JWT from the identity provider
        code_challenge (str | Unset): PKCE (required for public clients)
        code_challenge_method (OauthAuthorizeCodeChallengeMethod | Unset): PKCE method

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | str
    """

    return sync_detailed(
        client=client,
        response_type=response_type,
        client_id=client_id,
        redirect_uri=redirect_uri,
        scope=scope,
        state=state,
        organization_id=organization_id,
        token=token,
        code_challenge=code_challenge,
        code_challenge_method=code_challenge_method,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    response_type: OauthAuthorizeResponseType,
    client_id: str,
    redirect_uri: str | Unset = UNSET,
    scope: str | Unset = UNSET,
    state: str | Unset = UNSET,
    organization_id: UUID,
    token: str,
    code_challenge: str | Unset = UNSET,
    code_challenge_method: OauthAuthorizeCodeChallengeMethod | Unset = UNSET,
) -> Response[Any | str]:
    """Authorization endpoint (browser)

     RFC 6749 section 4.1.1 with `organization_id` and `token` (the user's JWT from the identity
    provider). Answers with the consent page, a redirect to `redirect_uri` (`code` and `state`, or
    `error`), or an HTML error page when the client or redirect_uri is not valid.

    Args:
        response_type (OauthAuthorizeResponseType): Only `code`
        client_id (str): The registered client's id
        redirect_uri (str | Unset): Exactly one of the client's registered URIs; optional when it
            has only one
        scope (str | Unset): Space-separated, of: events.read events.write orders.read
            orders.write tickets.read tickets.write scanners.read scanners.write webhooks.read
            webhooks.write; default: all
        state (str | Unset): Returned unchanged with the code or the error
        organization_id (UUID): The organization the user authorizes for
        token (str): The user's JWT from the identity provider
        code_challenge (str | Unset): PKCE (required for public clients)
        code_challenge_method (OauthAuthorizeCodeChallengeMethod | Unset): PKCE method

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | str]
    """

    kwargs = _get_kwargs(
        response_type=response_type,
        client_id=client_id,
        redirect_uri=redirect_uri,
        scope=scope,
        state=state,
        organization_id=organization_id,
        token=token,
        code_challenge=code_challenge,
        code_challenge_method=code_challenge_method,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    response_type: OauthAuthorizeResponseType,
    client_id: str,
    redirect_uri: str | Unset = UNSET,
    scope: str | Unset = UNSET,
    state: str | Unset = UNSET,
    organization_id: UUID,
    token: str,
    code_challenge: str | Unset = UNSET,
    code_challenge_method: OauthAuthorizeCodeChallengeMethod | Unset = UNSET,
) -> Any | str | None:
    """Authorization endpoint (browser)

     RFC 6749 section 4.1.1 with `organization_id` and `token` (the user's JWT from the identity
    provider). Answers with the consent page, a redirect to `redirect_uri` (`code` and `state`, or
    `error`), or an HTML error page when the client or redirect_uri is not valid.

    Args:
        response_type (OauthAuthorizeResponseType): Only `code`
        client_id (str): The registered client's id
        redirect_uri (str | Unset): Exactly one of the client's registered URIs; optional when it
            has only one
        scope (str | Unset): Space-separated, of: events.read events.write orders.read
            orders.write tickets.read tickets.write scanners.read scanners.write webhooks.read
            webhooks.write; default: all
        state (str | Unset): Returned unchanged with the code or the error
        organization_id (UUID): The organization the user authorizes for
        token (str): The user's JWT from the identity provider
        code_challenge (str | Unset): PKCE (required for public clients)
        code_challenge_method (OauthAuthorizeCodeChallengeMethod | Unset): PKCE method

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | str
    """

    return (
        await asyncio_detailed(
            client=client,
            response_type=response_type,
            client_id=client_id,
            redirect_uri=redirect_uri,
            scope=scope,
            state=state,
            organization_id=organization_id,
            token=token,
            code_challenge=code_challenge,
            code_challenge_method=code_challenge_method,
        )
    ).parsed
