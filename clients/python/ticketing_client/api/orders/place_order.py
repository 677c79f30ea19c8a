from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.order import Order
from ...models.order_create import OrderCreate
from ...models.problem import Problem
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    body: OrderCreate,
    idempotency_key: str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(idempotency_key, Unset):
        headers["Idempotency-Key"] = idempotency_key

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/orders",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Order | Problem | None:
    if response.status_code == 201:
        response_201 = Order.from_dict(response.json())

        return response_201

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
    *,
    client: AuthenticatedClient | Client,
    body: OrderCreate,
    idempotency_key: str | Unset = UNSET,
) -> Response[Order | Problem]:
    """Place an order

     Creates a pending order with valid tickets: outright (`event_id`, `event_timeslot_id`, `tickets`),
    or from a hold (`hold_id`; `tickets` left out or naming exactly the held ticket types), which takes
    the held places and converts the hold. 409 `/problems/sold-out` when the timeslot has fewer places
    left than asked for; 409 `/problems/hold-unavailable` when the hold expired, was released or
    converted. Emits `order.created`.

    Scope: `orders.write`.

    Args:
        idempotency_key (str | Unset):
        body (OrderCreate):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Order | Problem]
    """

    kwargs = _get_kwargs(
        body=body,
        idempotency_key=idempotency_key,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient | Client,
    body: OrderCreate,
    idempotency_key: str | Unset = UNSET,
) -> Order | Problem | None:
    """Place an order

     Creates a pending order with valid tickets: outright (`event_id`, `event_timeslot_id`, `tickets`),
    or from a hold (`hold_id`; `tickets` left out or naming exactly the held ticket types), which takes
    the held places and converts the hold. 409 `/problems/sold-out` when the timeslot has fewer places
    left than asked for; 409 `/problems/hold-unavailable` when the hold expired, was released or
    converted. Emits `order.created`.

    Scope: `orders.write`.

    Args:
        idempotency_key (str | Unset):
        body (OrderCreate):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Order | Problem
    """

    return sync_detailed(
        client=client,
        body=body,
        idempotency_key=idempotency_key,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient | Client,
    body: OrderCreate,
    idempotency_key: str | Unset = UNSET,
) -> Response[Order | Problem]:
    """Place an order

     Creates a pending order with valid tickets: outright (`event_id`, `event_timeslot_id`, `tickets`),
    or from a hold (`hold_id`; `tickets` left out or naming exactly the held ticket types), which takes
    the held places and converts the hold. 409 `/problems/sold-out` when the timeslot has fewer places
    left than asked for; 409 `/problems/hold-unavailable` when the hold expired, was released or
    converted. Emits `order.created`.

    Scope: `orders.write`.

    Args:
        idempotency_key (str | Unset):
        body (OrderCreate):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Order | Problem]
    """

    kwargs = _get_kwargs(
        body=body,
        idempotency_key=idempotency_key,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient | Client,
    body: OrderCreate,
    idempotency_key: str | Unset = UNSET,
) -> Order | Problem | None:
    """Place an order

     Creates a pending order with valid tickets: outright (`event_id`, `event_timeslot_id`, `tickets`),
    or from a hold (`hold_id`; `tickets` left out or naming exactly the held ticket types), which takes
    the held places and converts the hold. 409 `/problems/sold-out` when the timeslot has fewer places
    left than asked for; 409 `/problems/hold-unavailable` when the hold expired, was released or
    converted. Emits `order.created`.

    Scope: `orders.write`.

    Args:
        idempotency_key (str | Unset):
        body (OrderCreate):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Order | Problem
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
            idempotency_key=idempotency_key,
        )
    ).parsed
