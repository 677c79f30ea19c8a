from http import HTTPStatus
from typing import Any
from urllib.parse import quote
from uuid import UUID

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.problem import Problem
from ...models.ticket_type import TicketType
from ...models.ticket_type_update import TicketTypeUpdate
from ...types import UNSET, Response, Unset


def _get_kwargs(
    event_id: UUID,
    ticket_type_id: UUID,
    *,
    body: TicketTypeUpdate,
    idempotency_key: str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(idempotency_key, Unset):
        headers["Idempotency-Key"] = idempotency_key

    _kwargs: dict[str, Any] = {
        "method": "patch",
        "url": "/events/{event_id}/ticket_types/{ticket_type_id}".format(
            event_id=quote(str(event_id), safe=""),
            ticket_type_id=quote(str(ticket_type_id), safe=""),
        ),
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Problem | TicketType | None:
    if response.status_code == 200:
        response_200 = TicketType.from_dict(response.json())

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

    if response.status_code == 413:
        response_413 = Problem.from_dict(response.json())

        return response_413

    if response.status_code == 415:
        response_415 = Problem.from_dict(response.json())

        return response_415

    if response.status_code == 422:
        response_422 = Problem.from_dict(response.json())

        return response_422

    if response.status_code == 429:
        response_429 = Problem.from_dict(response.json())

        return response_429

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[Problem | TicketType]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    event_id: UUID,
    ticket_type_id: UUID,
    *,
    client: AuthenticatedClient | Client,
    body: TicketTypeUpdate,
    idempotency_key: str | Unset = UNSET,
) -> Response[Problem | TicketType]:
    """Update a ticket type

     Only the fields sent are changed. A new `price` applies to orders placed from then on; a new
    `swappable` also applies to the ticket type's tickets that are not cancelled (their `updated_at`
    moves).

    Scope: `events.write`.

    Args:
        event_id (UUID):
        ticket_type_id (UUID):
        idempotency_key (str | Unset):
        body (TicketTypeUpdate):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | TicketType]
    """

    kwargs = _get_kwargs(
        event_id=event_id,
        ticket_type_id=ticket_type_id,
        body=body,
        idempotency_key=idempotency_key,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    event_id: UUID,
    ticket_type_id: UUID,
    *,
    client: AuthenticatedClient | Client,
    body: TicketTypeUpdate,
    idempotency_key: str | Unset = UNSET,
) -> Problem | TicketType | None:
    """Update a ticket type

     Only the fields sent are changed. A new `price` applies to orders placed from then on; a new
    `swappable` also applies to the ticket type's tickets that are not cancelled (their `updated_at`
    moves).

    Scope: `events.write`.

    Args:
        event_id (UUID):
        ticket_type_id (UUID):
        idempotency_key (str | Unset):
        body (TicketTypeUpdate):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | TicketType
    """

    return sync_detailed(
        event_id=event_id,
        ticket_type_id=ticket_type_id,
        client=client,
        body=body,
        idempotency_key=idempotency_key,
    ).parsed


async def asyncio_detailed(
    event_id: UUID,
    ticket_type_id: UUID,
    *,
    client: AuthenticatedClient | Client,
    body: TicketTypeUpdate,
    idempotency_key: str | Unset = UNSET,
) -> Response[Problem | TicketType]:
    """Update a ticket type

     Only the fields sent are changed. A new `price` applies to orders placed from then on; a new
    `swappable` also applies to the ticket type's tickets that are not cancelled (their `updated_at`
    moves).

    Scope: `events.write`.

    Args:
        event_id (UUID):
        ticket_type_id (UUID):
        idempotency_key (str | Unset):
        body (TicketTypeUpdate):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | TicketType]
    """

    kwargs = _get_kwargs(
        event_id=event_id,
        ticket_type_id=ticket_type_id,
        body=body,
        idempotency_key=idempotency_key,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    event_id: UUID,
    ticket_type_id: UUID,
    *,
    client: AuthenticatedClient | Client,
    body: TicketTypeUpdate,
    idempotency_key: str | Unset = UNSET,
) -> Problem | TicketType | None:
    """Update a ticket type

     Only the fields sent are changed. A new `price` applies to orders placed from then on; a new
    `swappable` also applies to the ticket type's tickets that are not cancelled (their `updated_at`
    moves).

    Scope: `events.write`.

    Args:
        event_id (UUID):
        ticket_type_id (UUID):
        idempotency_key (str | Unset):
        body (TicketTypeUpdate):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | TicketType
    """

    return (
        await asyncio_detailed(
            event_id=event_id,
            ticket_type_id=ticket_type_id,
            client=client,
            body=body,
            idempotency_key=idempotency_key,
        )
    ).parsed
