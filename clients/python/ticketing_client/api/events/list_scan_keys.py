from http import HTTPStatus
from typing import Any
from urllib.parse import quote
from uuid import UUID

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.problem import Problem
from ...models.scan_keys import ScanKeys
from ...types import Response


def _get_kwargs(
    event_id: UUID,
) -> dict[str, Any]:

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/events/{event_id}/scan-keys".format(
            event_id=quote(str(event_id), safe=""),
        ),
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Problem | ScanKeys | None:
    if response.status_code == 200:
        response_200 = ScanKeys.from_dict(response.json())

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
) -> Response[Problem | ScanKeys]:
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
) -> Response[Problem | ScanKeys]:
    """List an event's scan keys

     The Ed25519 public keys that sign the event's tickets' `signed_code`, oldest first, retired ones
    included (refuse codes of a key whose `retired_at` is set); none before the event's first ticket is
    signed (a read makes no key). Format and test vectors: docs/signed-codes.md.

    Scope: `tickets.read`.

    Args:
        event_id (UUID):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | ScanKeys]
    """

    kwargs = _get_kwargs(
        event_id=event_id,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    event_id: UUID,
    *,
    client: AuthenticatedClient | Client,
) -> Problem | ScanKeys | None:
    """List an event's scan keys

     The Ed25519 public keys that sign the event's tickets' `signed_code`, oldest first, retired ones
    included (refuse codes of a key whose `retired_at` is set); none before the event's first ticket is
    signed (a read makes no key). Format and test vectors: docs/signed-codes.md.

    Scope: `tickets.read`.

    Args:
        event_id (UUID):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | ScanKeys
    """

    return sync_detailed(
        event_id=event_id,
        client=client,
    ).parsed


async def asyncio_detailed(
    event_id: UUID,
    *,
    client: AuthenticatedClient | Client,
) -> Response[Problem | ScanKeys]:
    """List an event's scan keys

     The Ed25519 public keys that sign the event's tickets' `signed_code`, oldest first, retired ones
    included (refuse codes of a key whose `retired_at` is set); none before the event's first ticket is
    signed (a read makes no key). Format and test vectors: docs/signed-codes.md.

    Scope: `tickets.read`.

    Args:
        event_id (UUID):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | ScanKeys]
    """

    kwargs = _get_kwargs(
        event_id=event_id,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    event_id: UUID,
    *,
    client: AuthenticatedClient | Client,
) -> Problem | ScanKeys | None:
    """List an event's scan keys

     The Ed25519 public keys that sign the event's tickets' `signed_code`, oldest first, retired ones
    included (refuse codes of a key whose `retired_at` is set); none before the event's first ticket is
    signed (a read makes no key). Format and test vectors: docs/signed-codes.md.

    Scope: `tickets.read`.

    Args:
        event_id (UUID):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | ScanKeys
    """

    return (
        await asyncio_detailed(
            event_id=event_id,
            client=client,
        )
    ).parsed
