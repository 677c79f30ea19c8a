from http import HTTPStatus
from typing import Any
from urllib.parse import quote
from uuid import UUID

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.deleted import Deleted
from ...models.problem import Problem
from ...types import Response


def _get_kwargs(
    event_id: UUID,
    timeslot_id: UUID,
) -> dict[str, Any]:

    _kwargs: dict[str, Any] = {
        "method": "delete",
        "url": "/events/{event_id}/timeslots/{timeslot_id}".format(
            event_id=quote(str(event_id), safe=""),
            timeslot_id=quote(str(timeslot_id), safe=""),
        ),
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Deleted | Problem | None:
    if response.status_code == 200:
        response_200 = Deleted.from_dict(response.json())

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

    if response.status_code == 409:
        response_409 = Problem.from_dict(response.json())

        return response_409

    if response.status_code == 429:
        response_429 = Problem.from_dict(response.json())

        return response_429

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[Deleted | Problem]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    event_id: UUID,
    timeslot_id: UUID,
    *,
    client: AuthenticatedClient | Client,
) -> Response[Deleted | Problem]:
    """Delete a timeslot

     409 when orders were placed for it (cancelled ones too), when places of it are held, or when a
    scanner profile names it; the problem's `detail` says which.

    Scope: `events.write`.

    Args:
        event_id (UUID):
        timeslot_id (UUID):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Deleted | Problem]
    """

    kwargs = _get_kwargs(
        event_id=event_id,
        timeslot_id=timeslot_id,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    event_id: UUID,
    timeslot_id: UUID,
    *,
    client: AuthenticatedClient | Client,
) -> Deleted | Problem | None:
    """Delete a timeslot

     409 when orders were placed for it (cancelled ones too), when places of it are held, or when a
    scanner profile names it; the problem's `detail` says which.

    Scope: `events.write`.

    Args:
        event_id (UUID):
        timeslot_id (UUID):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Deleted | Problem
    """

    return sync_detailed(
        event_id=event_id,
        timeslot_id=timeslot_id,
        client=client,
    ).parsed


async def asyncio_detailed(
    event_id: UUID,
    timeslot_id: UUID,
    *,
    client: AuthenticatedClient | Client,
) -> Response[Deleted | Problem]:
    """Delete a timeslot

     409 when orders were placed for it (cancelled ones too), when places of it are held, or when a
    scanner profile names it; the problem's `detail` says which.

    Scope: `events.write`.

    Args:
        event_id (UUID):
        timeslot_id (UUID):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Deleted | Problem]
    """

    kwargs = _get_kwargs(
        event_id=event_id,
        timeslot_id=timeslot_id,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    event_id: UUID,
    timeslot_id: UUID,
    *,
    client: AuthenticatedClient | Client,
) -> Deleted | Problem | None:
    """Delete a timeslot

     409 when orders were placed for it (cancelled ones too), when places of it are held, or when a
    scanner profile names it; the problem's `detail` says which.

    Scope: `events.write`.

    Args:
        event_id (UUID):
        timeslot_id (UUID):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Deleted | Problem
    """

    return (
        await asyncio_detailed(
            event_id=event_id,
            timeslot_id=timeslot_id,
            client=client,
        )
    ).parsed
