from http import HTTPStatus
from typing import Any
from urllib.parse import quote
from uuid import UUID

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.problem import Problem
from ...models.revocations import Revocations
from ...types import UNSET, Response, Unset


def _get_kwargs(
    event_id: UUID,
    *,
    since: None | str | Unset = UNSET,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    json_since: None | str | Unset
    if isinstance(since, Unset):
        json_since = UNSET
    else:
        json_since = since
    params["since"] = json_since

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/events/{event_id}/revocations".format(
            event_id=quote(str(event_id), safe=""),
        ),
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Problem | Revocations | None:
    if response.status_code == 200:
        response_200 = Revocations.from_dict(response.json())

        return response_200

    if response.status_code == 400:
        response_400 = Problem.from_dict(response.json())

        return response_400

    if response.status_code == 401:
        response_401 = Problem.from_dict(response.json())

        return response_401

    if response.status_code == 403:
        response_403 = Problem.from_dict(response.json())

        return response_403

    if response.status_code == 404:
        response_404 = Problem.from_dict(response.json())

        return response_404

    if response.status_code == 429:
        response_429 = Problem.from_dict(response.json())

        return response_429

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[Problem | Revocations]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    event_id: UUID,
    *,
    client: AuthenticatedClient | Client,
    since: None | str | Unset = UNSET,
) -> Response[Problem | Revocations]:
    """List an event's revoked tickets

     Tickets cancelled, or whose signed code was replaced (its key retired), from `since` up to
    `next_since`, the server's time when read, oldest first. Pass `next_since` as the next `since`: each
    revocation is in exactly one answer of such a chain, none is missed and none repeated.

    Scope: `tickets.read`.

    Args:
        event_id (UUID):
        since (None | str | Unset): RFC 3339: only revocations at or after it (the previous
            answer's `next_since`); all of them when left out

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | Revocations]
    """

    kwargs = _get_kwargs(
        event_id=event_id,
        since=since,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    event_id: UUID,
    *,
    client: AuthenticatedClient | Client,
    since: None | str | Unset = UNSET,
) -> Problem | Revocations | None:
    """List an event's revoked tickets

     Tickets cancelled, or whose signed code was replaced (its key retired), from `since` up to
    `next_since`, the server's time when read, oldest first. Pass `next_since` as the next `since`: each
    revocation is in exactly one answer of such a chain, none is missed and none repeated.

    Scope: `tickets.read`.

    Args:
        event_id (UUID):
        since (None | str | Unset): RFC 3339: only revocations at or after it (the previous
            answer's `next_since`); all of them when left out

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | Revocations
    """

    return sync_detailed(
        event_id=event_id,
        client=client,
        since=since,
    ).parsed


async def asyncio_detailed(
    event_id: UUID,
    *,
    client: AuthenticatedClient | Client,
    since: None | str | Unset = UNSET,
) -> Response[Problem | Revocations]:
    """List an event's revoked tickets

     Tickets cancelled, or whose signed code was replaced (its key retired), from `since` up to
    `next_since`, the server's time when read, oldest first. Pass `next_since` as the next `since`: each
    revocation is in exactly one answer of such a chain, none is missed and none repeated.

    Scope: `tickets.read`.

    Args:
        event_id (UUID):
        since (None | str | Unset): RFC 3339: only revocations at or after it (the previous
            answer's `next_since`); all of them when left out

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | Revocations]
    """

    kwargs = _get_kwargs(
        event_id=event_id,
        since=since,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    event_id: UUID,
    *,
    client: AuthenticatedClient | Client,
    since: None | str | Unset = UNSET,
) -> Problem | Revocations | None:
    """List an event's revoked tickets

     Tickets cancelled, or whose signed code was replaced (its key retired), from `since` up to
    `next_since`, the server's time when read, oldest first. Pass `next_since` as the next `since`: each
    revocation is in exactly one answer of such a chain, none is missed and none repeated.

    Scope: `tickets.read`.

    Args:
        event_id (UUID):
        since (None | str | Unset): RFC 3339: only revocations at or after it (the previous
            answer's `next_since`); all of them when left out

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | Revocations
    """

    return (
        await asyncio_detailed(
            event_id=event_id,
            client=client,
            since=since,
        )
    ).parsed
