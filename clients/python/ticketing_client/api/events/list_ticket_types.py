from http import HTTPStatus
from typing import Any
from urllib.parse import quote
from uuid import UUID

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.list_ticket_types_sort import ListTicketTypesSort
from ...models.problem import Problem
from ...models.ticket_type_page import TicketTypePage
from ...types import UNSET, Response, Unset


def _get_kwargs(
    event_id: UUID,
    *,
    limit: int | None | Unset = UNSET,
    offset: int | None | Unset = UNSET,
    sort: ListTicketTypesSort | Unset = UNSET,
    after: None | str | Unset = UNSET,
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

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/events/{event_id}/ticket_types".format(
            event_id=quote(str(event_id), safe=""),
        ),
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Problem | TicketTypePage | None:
    if response.status_code == 200:
        response_200 = TicketTypePage.from_dict(response.json())

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
) -> Response[Problem | TicketTypePage]:
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
    sort: ListTicketTypesSort | Unset = UNSET,
    after: None | str | Unset = UNSET,
) -> Response[Problem | TicketTypePage]:
    """List the ticket types of an event

     Scope: `events.read`.

    Args:
        event_id (UUID):
        limit (int | None | Unset): Results per page (default 25)
        offset (int | None | Unset): Results to skip (default 0)
        sort (ListTicketTypesSort | Unset): field:asc or field:desc (default created_at:desc)
        after (None | str | Unset): The pagination.next_after of the page before, with the same
            sort: this page starts after that page's last row (fast at any depth; not with offset, nor
            with a sort field that may be empty)

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | TicketTypePage]
    """

    kwargs = _get_kwargs(
        event_id=event_id,
        limit=limit,
        offset=offset,
        sort=sort,
        after=after,
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
    sort: ListTicketTypesSort | Unset = UNSET,
    after: None | str | Unset = UNSET,
) -> Problem | TicketTypePage | None:
    """List the ticket types of an event

     Scope: `events.read`.

    Args:
        event_id (UUID):
        limit (int | None | Unset): Results per page (default 25)
        offset (int | None | Unset): Results to skip (default 0)
        sort (ListTicketTypesSort | Unset): field:asc or field:desc (default created_at:desc)
        after (None | str | Unset): The pagination.next_after of the page before, with the same
            sort: this page starts after that page's last row (fast at any depth; not with offset, nor
            with a sort field that may be empty)

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | TicketTypePage
    """

    return sync_detailed(
        event_id=event_id,
        client=client,
        limit=limit,
        offset=offset,
        sort=sort,
        after=after,
    ).parsed


async def asyncio_detailed(
    event_id: UUID,
    *,
    client: AuthenticatedClient | Client,
    limit: int | None | Unset = UNSET,
    offset: int | None | Unset = UNSET,
    sort: ListTicketTypesSort | Unset = UNSET,
    after: None | str | Unset = UNSET,
) -> Response[Problem | TicketTypePage]:
    """List the ticket types of an event

     Scope: `events.read`.

    Args:
        event_id (UUID):
        limit (int | None | Unset): Results per page (default 25)
        offset (int | None | Unset): Results to skip (default 0)
        sort (ListTicketTypesSort | Unset): field:asc or field:desc (default created_at:desc)
        after (None | str | Unset): The pagination.next_after of the page before, with the same
            sort: this page starts after that page's last row (fast at any depth; not with offset, nor
            with a sort field that may be empty)

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | TicketTypePage]
    """

    kwargs = _get_kwargs(
        event_id=event_id,
        limit=limit,
        offset=offset,
        sort=sort,
        after=after,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    event_id: UUID,
    *,
    client: AuthenticatedClient | Client,
    limit: int | None | Unset = UNSET,
    offset: int | None | Unset = UNSET,
    sort: ListTicketTypesSort | Unset = UNSET,
    after: None | str | Unset = UNSET,
) -> Problem | TicketTypePage | None:
    """List the ticket types of an event

     Scope: `events.read`.

    Args:
        event_id (UUID):
        limit (int | None | Unset): Results per page (default 25)
        offset (int | None | Unset): Results to skip (default 0)
        sort (ListTicketTypesSort | Unset): field:asc or field:desc (default created_at:desc)
        after (None | str | Unset): The pagination.next_after of the page before, with the same
            sort: this page starts after that page's last row (fast at any depth; not with offset, nor
            with a sort field that may be empty)

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | TicketTypePage
    """

    return (
        await asyncio_detailed(
            event_id=event_id,
            client=client,
            limit=limit,
            offset=offset,
            sort=sort,
            after=after,
        )
    ).parsed
