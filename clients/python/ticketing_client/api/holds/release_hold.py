from http import HTTPStatus
from typing import Any
from urllib.parse import quote
from uuid import UUID

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.hold import Hold
from ...models.problem import Problem
from ...types import Response


def _get_kwargs(
    hold_id: UUID,
) -> dict[str, Any]:

    _kwargs: dict[str, Any] = {
        "method": "delete",
        "url": "/holds/{hold_id}".format(
            hold_id=quote(str(hold_id), safe=""),
        ),
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Hold | Problem | None:
    if response.status_code == 200:
        response_200 = Hold.from_dict(response.json())

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
) -> Response[Hold | Problem]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    hold_id: UUID,
    *,
    client: AuthenticatedClient | Client,
) -> Response[Hold | Problem]:
    """Release a hold

     Gives the places back at once; releasing again answers the same. 409 `/problems/hold-unavailable`
    for a hold converted into an order.

    Scope: `orders.write`.

    Args:
        hold_id (UUID):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Hold | Problem]
    """

    kwargs = _get_kwargs(
        hold_id=hold_id,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    hold_id: UUID,
    *,
    client: AuthenticatedClient | Client,
) -> Hold | Problem | None:
    """Release a hold

     Gives the places back at once; releasing again answers the same. 409 `/problems/hold-unavailable`
    for a hold converted into an order.

    Scope: `orders.write`.

    Args:
        hold_id (UUID):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Hold | Problem
    """

    return sync_detailed(
        hold_id=hold_id,
        client=client,
    ).parsed


async def asyncio_detailed(
    hold_id: UUID,
    *,
    client: AuthenticatedClient | Client,
) -> Response[Hold | Problem]:
    """Release a hold

     Gives the places back at once; releasing again answers the same. 409 `/problems/hold-unavailable`
    for a hold converted into an order.

    Scope: `orders.write`.

    Args:
        hold_id (UUID):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Hold | Problem]
    """

    kwargs = _get_kwargs(
        hold_id=hold_id,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    hold_id: UUID,
    *,
    client: AuthenticatedClient | Client,
) -> Hold | Problem | None:
    """Release a hold

     Gives the places back at once; releasing again answers the same. 409 `/problems/hold-unavailable`
    for a hold converted into an order.

    Scope: `orders.write`.

    Args:
        hold_id (UUID):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Hold | Problem
    """

    return (
        await asyncio_detailed(
            hold_id=hold_id,
            client=client,
        )
    ).parsed
