from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.list_orders_sort import ListOrdersSort
from ...models.order_page import OrderPage
from ...models.order_status import OrderStatus
from ...models.problem import Problem
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    limit: int | None | Unset = UNSET,
    offset: int | None | Unset = UNSET,
    sort: ListOrdersSort | Unset = UNSET,
    after: None | str | Unset = UNSET,
    event_id: None | str | Unset = UNSET,
    status: None | OrderStatus | Unset = UNSET,
    buyer_email: None | str | Unset = UNSET,
    created_since: None | str | Unset = UNSET,
    created_until: None | str | Unset = UNSET,
    updated_since: None | str | Unset = UNSET,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    json_limit: int | None | Unset
    if isinstance(limit, Unset):
        json_limit = UNSET
    else:
        json_limit = limit
    params["limit"] = json_limit

    json_offset: int | None | Unset
    if isinstance(offset, Unset):
        json_offset = UNSET
    else:
        json_offset = offset
    params["offset"] = json_offset

    json_sort: str | Unset = UNSET
    if not isinstance(sort, Unset):
        json_sort = sort.value

    params["sort"] = json_sort

    json_after: None | str | Unset
    if isinstance(after, Unset):
        json_after = UNSET
    else:
        json_after = after
    params["after"] = json_after

    json_event_id: None | str | Unset
    if isinstance(event_id, Unset):
        json_event_id = UNSET
    else:
        json_event_id = event_id
    params["event_id"] = json_event_id

    json_status: None | str | Unset
    if isinstance(status, Unset):
        json_status = UNSET
    elif isinstance(status, OrderStatus):
        json_status = status.value
    else:
        json_status = status
    params["status"] = json_status

    json_buyer_email: None | str | Unset
    if isinstance(buyer_email, Unset):
        json_buyer_email = UNSET
    else:
        json_buyer_email = buyer_email
    params["buyer_email"] = json_buyer_email

    json_created_since: None | str | Unset
    if isinstance(created_since, Unset):
        json_created_since = UNSET
    else:
        json_created_since = created_since
    params["created_since"] = json_created_since

    json_created_until: None | str | Unset
    if isinstance(created_until, Unset):
        json_created_until = UNSET
    else:
        json_created_until = created_until
    params["created_until"] = json_created_until

    json_updated_since: None | str | Unset
    if isinstance(updated_since, Unset):
        json_updated_since = UNSET
    else:
        json_updated_since = updated_since
    params["updated_since"] = json_updated_since

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/orders",
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> OrderPage | Problem | None:
    if response.status_code == 200:
        response_200 = OrderPage.from_dict(response.json())

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

    if response.status_code == 406:
        response_406 = Problem.from_dict(response.json())

        return response_406

    if response.status_code == 429:
        response_429 = Problem.from_dict(response.json())

        return response_429

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[OrderPage | Problem]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient | Client,
    limit: int | None | Unset = UNSET,
    offset: int | None | Unset = UNSET,
    sort: ListOrdersSort | Unset = UNSET,
    after: None | str | Unset = UNSET,
    event_id: None | str | Unset = UNSET,
    status: None | OrderStatus | Unset = UNSET,
    buyer_email: None | str | Unset = UNSET,
    created_since: None | str | Unset = UNSET,
    created_until: None | str | Unset = UNSET,
    updated_since: None | str | Unset = UNSET,
) -> Response[OrderPage | Problem]:
    """List orders

     The orders of the caller's organization. The filters combine (all must match). For sync, poll with
    `updated_since`. With `Accept: text/csv`: every matching order as a CSV attachment (no `limit`,
    `offset` or `after`).

    Scope: `orders.read`.

    Args:
        limit (int | None | Unset): Results per page (default 25)
        offset (int | None | Unset): Results to skip (default 0)
        sort (ListOrdersSort | Unset): field:asc or field:desc (default created_at:desc)
        after (None | str | Unset): The pagination.next_after of the page before, with the same
            sort: this page starts after that page's last row (fast at any depth; not with offset, nor
            with a sort field that may be empty)
        event_id (None | str | Unset): Only orders of this event
        status (None | OrderStatus | Unset): Only orders in this status
        buyer_email (None | str | Unset): Only orders of this buyer e-mail (case-insensitive)
        created_since (None | str | Unset): Only orders placed at or after this RFC 3339 timestamp
        created_until (None | str | Unset): Only orders placed before this RFC 3339 timestamp
        updated_since (None | str | Unset): Only orders changed at or after this RFC 3339
            timestamp (sync)

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[OrderPage | Problem]
    """

    kwargs = _get_kwargs(
        limit=limit,
        offset=offset,
        sort=sort,
        after=after,
        event_id=event_id,
        status=status,
        buyer_email=buyer_email,
        created_since=created_since,
        created_until=created_until,
        updated_since=updated_since,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient | Client,
    limit: int | None | Unset = UNSET,
    offset: int | None | Unset = UNSET,
    sort: ListOrdersSort | Unset = UNSET,
    after: None | str | Unset = UNSET,
    event_id: None | str | Unset = UNSET,
    status: None | OrderStatus | Unset = UNSET,
    buyer_email: None | str | Unset = UNSET,
    created_since: None | str | Unset = UNSET,
    created_until: None | str | Unset = UNSET,
    updated_since: None | str | Unset = UNSET,
) -> OrderPage | Problem | None:
    """List orders

     The orders of the caller's organization. The filters combine (all must match). For sync, poll with
    `updated_since`. With `Accept: text/csv`: every matching order as a CSV attachment (no `limit`,
    `offset` or `after`).

    Scope: `orders.read`.

    Args:
        limit (int | None | Unset): Results per page (default 25)
        offset (int | None | Unset): Results to skip (default 0)
        sort (ListOrdersSort | Unset): field:asc or field:desc (default created_at:desc)
        after (None | str | Unset): The pagination.next_after of the page before, with the same
            sort: this page starts after that page's last row (fast at any depth; not with offset, nor
            with a sort field that may be empty)
        event_id (None | str | Unset): Only orders of this event
        status (None | OrderStatus | Unset): Only orders in this status
        buyer_email (None | str | Unset): Only orders of this buyer e-mail (case-insensitive)
        created_since (None | str | Unset): Only orders placed at or after this RFC 3339 timestamp
        created_until (None | str | Unset): Only orders placed before this RFC 3339 timestamp
        updated_since (None | str | Unset): Only orders changed at or after this RFC 3339
            timestamp (sync)

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        OrderPage | Problem
    """

    return sync_detailed(
        client=client,
        limit=limit,
        offset=offset,
        sort=sort,
        after=after,
        event_id=event_id,
        status=status,
        buyer_email=buyer_email,
        created_since=created_since,
        created_until=created_until,
        updated_since=updated_since,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient | Client,
    limit: int | None | Unset = UNSET,
    offset: int | None | Unset = UNSET,
    sort: ListOrdersSort | Unset = UNSET,
    after: None | str | Unset = UNSET,
    event_id: None | str | Unset = UNSET,
    status: None | OrderStatus | Unset = UNSET,
    buyer_email: None | str | Unset = UNSET,
    created_since: None | str | Unset = UNSET,
    created_until: None | str | Unset = UNSET,
    updated_since: None | str | Unset = UNSET,
) -> Response[OrderPage | Problem]:
    """List orders

     The orders of the caller's organization. The filters combine (all must match). For sync, poll with
    `updated_since`. With `Accept: text/csv`: every matching order as a CSV attachment (no `limit`,
    `offset` or `after`).

    Scope: `orders.read`.

    Args:
        limit (int | None | Unset): Results per page (default 25)
        offset (int | None | Unset): Results to skip (default 0)
        sort (ListOrdersSort | Unset): field:asc or field:desc (default created_at:desc)
        after (None | str | Unset): The pagination.next_after of the page before, with the same
            sort: this page starts after that page's last row (fast at any depth; not with offset, nor
            with a sort field that may be empty)
        event_id (None | str | Unset): Only orders of this event
        status (None | OrderStatus | Unset): Only orders in this status
        buyer_email (None | str | Unset): Only orders of this buyer e-mail (case-insensitive)
        created_since (None | str | Unset): Only orders placed at or after this RFC 3339 timestamp
        created_until (None | str | Unset): Only orders placed before this RFC 3339 timestamp
        updated_since (None | str | Unset): Only orders changed at or after this RFC 3339
            timestamp (sync)

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[OrderPage | Problem]
    """

    kwargs = _get_kwargs(
        limit=limit,
        offset=offset,
        sort=sort,
        after=after,
        event_id=event_id,
        status=status,
        buyer_email=buyer_email,
        created_since=created_since,
        created_until=created_until,
        updated_since=updated_since,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient | Client,
    limit: int | None | Unset = UNSET,
    offset: int | None | Unset = UNSET,
    sort: ListOrdersSort | Unset = UNSET,
    after: None | str | Unset = UNSET,
    event_id: None | str | Unset = UNSET,
    status: None | OrderStatus | Unset = UNSET,
    buyer_email: None | str | Unset = UNSET,
    created_since: None | str | Unset = UNSET,
    created_until: None | str | Unset = UNSET,
    updated_since: None | str | Unset = UNSET,
) -> OrderPage | Problem | None:
    """List orders

     The orders of the caller's organization. The filters combine (all must match). For sync, poll with
    `updated_since`. With `Accept: text/csv`: every matching order as a CSV attachment (no `limit`,
    `offset` or `after`).

    Scope: `orders.read`.

    Args:
        limit (int | None | Unset): Results per page (default 25)
        offset (int | None | Unset): Results to skip (default 0)
        sort (ListOrdersSort | Unset): field:asc or field:desc (default created_at:desc)
        after (None | str | Unset): The pagination.next_after of the page before, with the same
            sort: this page starts after that page's last row (fast at any depth; not with offset, nor
            with a sort field that may be empty)
        event_id (None | str | Unset): Only orders of this event
        status (None | OrderStatus | Unset): Only orders in this status
        buyer_email (None | str | Unset): Only orders of this buyer e-mail (case-insensitive)
        created_since (None | str | Unset): Only orders placed at or after this RFC 3339 timestamp
        created_until (None | str | Unset): Only orders placed before this RFC 3339 timestamp
        updated_since (None | str | Unset): Only orders changed at or after this RFC 3339
            timestamp (sync)

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        OrderPage | Problem
    """

    return (
        await asyncio_detailed(
            client=client,
            limit=limit,
            offset=offset,
            sort=sort,
            after=after,
            event_id=event_id,
            status=status,
            buyer_email=buyer_email,
            created_since=created_since,
            created_until=created_until,
            updated_since=updated_since,
        )
    ).parsed
