from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.list_scanners_sort import ListScannersSort
from ...models.problem import Problem
from ...models.scanner_page import ScannerPage
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    limit: int | None | Unset = UNSET,
    offset: int | None | Unset = UNSET,
    sort: ListScannersSort | Unset = UNSET,
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
        "url": "/scanners",
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Problem | ScannerPage | None:
    if response.status_code == 200:
        response_200 = ScannerPage.from_dict(response.json())

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

    if response.status_code == 429:
        response_429 = Problem.from_dict(response.json())

        return response_429

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[Problem | ScannerPage]:
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
    sort: ListScannersSort | Unset = UNSET,
    after: None | str | Unset = UNSET,
) -> Response[Problem | ScannerPage]:
    """List scanners

     Scope: `scanners.read`.

    Args:
        limit (int | None | Unset): Results per page (default 25)
        offset (int | None | Unset): Results to skip (default 0)
        sort (ListScannersSort | Unset): field:asc or field:desc (default created_at:desc)
        after (None | str | Unset): The pagination.next_after of the page before, with the same
            sort: this page starts after that page's last row (fast at any depth; not with offset, nor
            with a sort field that may be empty)

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | ScannerPage]
    """

    kwargs = _get_kwargs(
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
    *,
    client: AuthenticatedClient | Client,
    limit: int | None | Unset = UNSET,
    offset: int | None | Unset = UNSET,
    sort: ListScannersSort | Unset = UNSET,
    after: None | str | Unset = UNSET,
) -> Problem | ScannerPage | None:
    """List scanners

     Scope: `scanners.read`.

    Args:
        limit (int | None | Unset): Results per page (default 25)
        offset (int | None | Unset): Results to skip (default 0)
        sort (ListScannersSort | Unset): field:asc or field:desc (default created_at:desc)
        after (None | str | Unset): The pagination.next_after of the page before, with the same
            sort: this page starts after that page's last row (fast at any depth; not with offset, nor
            with a sort field that may be empty)

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | ScannerPage
    """

    return sync_detailed(
        client=client,
        limit=limit,
        offset=offset,
        sort=sort,
        after=after,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient | Client,
    limit: int | None | Unset = UNSET,
    offset: int | None | Unset = UNSET,
    sort: ListScannersSort | Unset = UNSET,
    after: None | str | Unset = UNSET,
) -> Response[Problem | ScannerPage]:
    """List scanners

     Scope: `scanners.read`.

    Args:
        limit (int | None | Unset): Results per page (default 25)
        offset (int | None | Unset): Results to skip (default 0)
        sort (ListScannersSort | Unset): field:asc or field:desc (default created_at:desc)
        after (None | str | Unset): The pagination.next_after of the page before, with the same
            sort: this page starts after that page's last row (fast at any depth; not with offset, nor
            with a sort field that may be empty)

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | ScannerPage]
    """

    kwargs = _get_kwargs(
        limit=limit,
        offset=offset,
        sort=sort,
        after=after,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient | Client,
    limit: int | None | Unset = UNSET,
    offset: int | None | Unset = UNSET,
    sort: ListScannersSort | Unset = UNSET,
    after: None | str | Unset = UNSET,
) -> Problem | ScannerPage | None:
    """List scanners

     Scope: `scanners.read`.

    Args:
        limit (int | None | Unset): Results per page (default 25)
        offset (int | None | Unset): Results to skip (default 0)
        sort (ListScannersSort | Unset): field:asc or field:desc (default created_at:desc)
        after (None | str | Unset): The pagination.next_after of the page before, with the same
            sort: this page starts after that page's last row (fast at any depth; not with offset, nor
            with a sort field that may be empty)

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | ScannerPage
    """

    return (
        await asyncio_detailed(
            client=client,
            limit=limit,
            offset=offset,
            sort=sort,
            after=after,
        )
    ).parsed
