from http import HTTPStatus
from typing import Any
from urllib.parse import quote
from uuid import UUID

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.list_event_tickets_sort import ListEventTicketsSort
from ...models.problem import Problem
from ...models.ticket_page import TicketPage
from ...models.ticket_status import TicketStatus
from ...types import UNSET, Response, Unset


def _get_kwargs(
    event_id: UUID,
    *,
    limit: int | None | Unset = UNSET,
    offset: int | None | Unset = UNSET,
    sort: ListEventTicketsSort | Unset = UNSET,
    after: None | str | Unset = UNSET,
    order_id: None | str | Unset = UNSET,
    status: None | TicketStatus | Unset = UNSET,
    scannable_code: None | str | Unset = UNSET,
    owner_email: None | str | Unset = UNSET,
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

    json_order_id: None | str | Unset
    if isinstance(order_id, Unset):
        json_order_id = UNSET
    else:
        json_order_id = order_id
    params["order_id"] = json_order_id

    json_status: None | str | Unset
    if isinstance(status, Unset):
        json_status = UNSET
    elif isinstance(status, TicketStatus):
        json_status = status.value
    else:
        json_status = status
    params["status"] = json_status

    json_scannable_code: None | str | Unset
    if isinstance(scannable_code, Unset):
        json_scannable_code = UNSET
    else:
        json_scannable_code = scannable_code
    params["scannable_code"] = json_scannable_code

    json_owner_email: None | str | Unset
    if isinstance(owner_email, Unset):
        json_owner_email = UNSET
    else:
        json_owner_email = owner_email
    params["owner_email"] = json_owner_email

    json_updated_since: None | str | Unset
    if isinstance(updated_since, Unset):
        json_updated_since = UNSET
    else:
        json_updated_since = updated_since
    params["updated_since"] = json_updated_since

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/events/{event_id}/tickets".format(
            event_id=quote(str(event_id), safe=""),
        ),
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Problem | TicketPage | None:
    if response.status_code == 200:
        response_200 = TicketPage.from_dict(response.json())

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
) -> Response[Problem | TicketPage]:
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
    limit: int | None | Unset = UNSET,
    offset: int | None | Unset = UNSET,
    sort: ListEventTicketsSort | Unset = UNSET,
    after: None | str | Unset = UNSET,
    order_id: None | str | Unset = UNSET,
    status: None | TicketStatus | Unset = UNSET,
    scannable_code: None | str | Unset = UNSET,
    owner_email: None | str | Unset = UNSET,
    updated_since: None | str | Unset = UNSET,
) -> Response[Problem | TicketPage]:
    """List the tickets of an event

     The filters combine (all must match). For sync, poll with `updated_since`. With `Accept: text/csv`:
    every matching ticket as a CSV attachment (no `limit`, `offset` or `after`).

    Scope: `tickets.read`.

    Args:
        event_id (UUID):
        limit (int | None | Unset): Results per page (default 25)
        offset (int | None | Unset): Results to skip (default 0)
        sort (ListEventTicketsSort | Unset): field:asc or field:desc (default created_at:desc)
        after (None | str | Unset): The pagination.next_after of the page before, with the same
            sort: this page starts after that page's last row (fast at any depth; not with offset, nor
            with a sort field that may be empty)
        order_id (None | str | Unset): Only the tickets of this order
        status (None | TicketStatus | Unset): Only tickets in this status
        scannable_code (None | str | Unset): Only the ticket with this code
        owner_email (None | str | Unset): Only tickets of this owner e-mail (case-insensitive)
        updated_since (None | str | Unset): Only tickets changed at or after this RFC 3339
            timestamp (sync)

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | TicketPage]
    """

    kwargs = _get_kwargs(
        event_id=event_id,
        limit=limit,
        offset=offset,
        sort=sort,
        after=after,
        order_id=order_id,
        status=status,
        scannable_code=scannable_code,
        owner_email=owner_email,
        updated_since=updated_since,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    event_id: UUID,
    *,
    client: AuthenticatedClient | Client,
    limit: int | None | Unset = UNSET,
    offset: int | None | Unset = UNSET,
    sort: ListEventTicketsSort | Unset = UNSET,
    after: None | str | Unset = UNSET,
    order_id: None | str | Unset = UNSET,
    status: None | TicketStatus | Unset = UNSET,
    scannable_code: None | str | Unset = UNSET,
    owner_email: None | str | Unset = UNSET,
    updated_since: None | str | Unset = UNSET,
) -> Problem | TicketPage | None:
    """List the tickets of an event

     The filters combine (all must match). For sync, poll with `updated_since`. With `Accept: text/csv`:
    every matching ticket as a CSV attachment (no `limit`, `offset` or `after`).

    Scope: `tickets.read`.

    Args:
        event_id (UUID):
        limit (int | None | Unset): Results per page (default 25)
        offset (int | None | Unset): Results to skip (default 0)
        sort (ListEventTicketsSort | Unset): field:asc or field:desc (default created_at:desc)
        after (None | str | Unset): The pagination.next_after of the page before, with the same
            sort: this page starts after that page's last row (fast at any depth; not with offset, nor
            with a sort field that may be empty)
        order_id (None | str | Unset): Only the tickets of this order
        status (None | TicketStatus | Unset): Only tickets in this status
        scannable_code (None | str | Unset): Only the ticket with this code
        owner_email (None | str | Unset): Only tickets of this owner e-mail (case-insensitive)
        updated_since (None | str | Unset): Only tickets changed at or after this RFC 3339
            timestamp (sync)

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | TicketPage
    """

    return sync_detailed(
        event_id=event_id,
        client=client,
        limit=limit,
        offset=offset,
        sort=sort,
        after=after,
        order_id=order_id,
        status=status,
        scannable_code=scannable_code,
        owner_email=owner_email,
        updated_since=updated_since,
    ).parsed


async def asyncio_detailed(
    event_id: UUID,
    *,
    client: AuthenticatedClient | Client,
    limit: int | None | Unset = UNSET,
    offset: int | None | Unset = UNSET,
    sort: ListEventTicketsSort | Unset = UNSET,
    after: None | str | Unset = UNSET,
    order_id: None | str | Unset = UNSET,
    status: None | TicketStatus | Unset = UNSET,
    scannable_code: None | str | Unset = UNSET,
    owner_email: None | str | Unset = UNSET,
    updated_since: None | str | Unset = UNSET,
) -> Response[Problem | TicketPage]:
    """List the tickets of an event

     The filters combine (all must match). For sync, poll with `updated_since`. With `Accept: text/csv`:
    every matching ticket as a CSV attachment (no `limit`, `offset` or `after`).

    Scope: `tickets.read`.

    Args:
        event_id (UUID):
        limit (int | None | Unset): Results per page (default 25)
        offset (int | None | Unset): Results to skip (default 0)
        sort (ListEventTicketsSort | Unset): field:asc or field:desc (default created_at:desc)
        after (None | str | Unset): The pagination.next_after of the page before, with the same
            sort: this page starts after that page's last row (fast at any depth; not with offset, nor
            with a sort field that may be empty)
        order_id (None | str | Unset): Only the tickets of this order
        status (None | TicketStatus | Unset): Only tickets in this status
        scannable_code (None | str | Unset): Only the ticket with this code
        owner_email (None | str | Unset): Only tickets of this owner e-mail (case-insensitive)
        updated_since (None | str | Unset): Only tickets changed at or after this RFC 3339
            timestamp (sync)

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | TicketPage]
    """

    kwargs = _get_kwargs(
        event_id=event_id,
        limit=limit,
        offset=offset,
        sort=sort,
        after=after,
        order_id=order_id,
        status=status,
        scannable_code=scannable_code,
        owner_email=owner_email,
        updated_since=updated_since,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    event_id: UUID,
    *,
    client: AuthenticatedClient | Client,
    limit: int | None | Unset = UNSET,
    offset: int | None | Unset = UNSET,
    sort: ListEventTicketsSort | Unset = UNSET,
    after: None | str | Unset = UNSET,
    order_id: None | str | Unset = UNSET,
    status: None | TicketStatus | Unset = UNSET,
    scannable_code: None | str | Unset = UNSET,
    owner_email: None | str | Unset = UNSET,
    updated_since: None | str | Unset = UNSET,
) -> Problem | TicketPage | None:
    """List the tickets of an event

     The filters combine (all must match). For sync, poll with `updated_since`. With `Accept: text/csv`:
    every matching ticket as a CSV attachment (no `limit`, `offset` or `after`).

    Scope: `tickets.read`.

    Args:
        event_id (UUID):
        limit (int | None | Unset): Results per page (default 25)
        offset (int | None | Unset): Results to skip (default 0)
        sort (ListEventTicketsSort | Unset): field:asc or field:desc (default created_at:desc)
        after (None | str | Unset): The pagination.next_after of the page before, with the same
            sort: this page starts after that page's last row (fast at any depth; not with offset, nor
            with a sort field that may be empty)
        order_id (None | str | Unset): Only the tickets of this order
        status (None | TicketStatus | Unset): Only tickets in this status
        scannable_code (None | str | Unset): Only the ticket with this code
        owner_email (None | str | Unset): Only tickets of this owner e-mail (case-insensitive)
        updated_since (None | str | Unset): Only tickets changed at or after this RFC 3339
            timestamp (sync)

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | TicketPage
    """

    return (
        await asyncio_detailed(
            event_id=event_id,
            client=client,
            limit=limit,
            offset=offset,
            sort=sort,
            after=after,
            order_id=order_id,
            status=status,
            scannable_code=scannable_code,
            owner_email=owner_email,
            updated_since=updated_since,
        )
    ).parsed
