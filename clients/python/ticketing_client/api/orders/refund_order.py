from http import HTTPStatus
from typing import Any
from urllib.parse import quote
from uuid import UUID

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.order import Order
from ...models.problem import Problem
from ...models.refund_create import RefundCreate
from ...types import UNSET, Response, Unset


def _get_kwargs(
    order_id: UUID,
    *,
    body: RefundCreate,
    idempotency_key: str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(idempotency_key, Unset):
        headers["Idempotency-Key"] = idempotency_key

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/orders/{order_id}/refund".format(
            order_id=quote(str(order_id), safe=""),
        ),
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Order | Problem | None:
    if response.status_code == 200:
        response_200 = Order.from_dict(response.json())

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
) -> Response[Order | Problem]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    order_id: UUID,
    *,
    client: AuthenticatedClient | Client,
    body: RefundCreate,
    idempotency_key: str | Unset = UNSET,
) -> Response[Order | Problem]:
    """Refund part of an order

     409 when the refunds would exceed total_price.

    Scope: `orders.write`.

    Args:
        order_id (UUID):
        idempotency_key (str | Unset):
        body (RefundCreate):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Order | Problem]
    """

    kwargs = _get_kwargs(
        order_id=order_id,
        body=body,
        idempotency_key=idempotency_key,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    order_id: UUID,
    *,
    client: AuthenticatedClient | Client,
    body: RefundCreate,
    idempotency_key: str | Unset = UNSET,
) -> Order | Problem | None:
    """Refund part of an order

     409 when the refunds would exceed total_price.

    Scope: `orders.write`.

    Args:
        order_id (UUID):
        idempotency_key (str | Unset):
        body (RefundCreate):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Order | Problem
    """

    return sync_detailed(
        order_id=order_id,
        client=client,
        body=body,
        idempotency_key=idempotency_key,
    ).parsed


async def asyncio_detailed(
    order_id: UUID,
    *,
    client: AuthenticatedClient | Client,
    body: RefundCreate,
    idempotency_key: str | Unset = UNSET,
) -> Response[Order | Problem]:
    """Refund part of an order

     409 when the refunds would exceed total_price.

    Scope: `orders.write`.

    Args:
        order_id (UUID):
        idempotency_key (str | Unset):
        body (RefundCreate):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Order | Problem]
    """

    kwargs = _get_kwargs(
        order_id=order_id,
        body=body,
        idempotency_key=idempotency_key,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    order_id: UUID,
    *,
    client: AuthenticatedClient | Client,
    body: RefundCreate,
    idempotency_key: str | Unset = UNSET,
) -> Order | Problem | None:
    """Refund part of an order

     409 when the refunds would exceed total_price.

    Scope: `orders.write`.

    Args:
        order_id (UUID):
        idempotency_key (str | Unset):
        body (RefundCreate):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Order | Problem
    """

    return (
        await asyncio_detailed(
            order_id=order_id,
            client=client,
            body=body,
            idempotency_key=idempotency_key,
        )
    ).parsed
