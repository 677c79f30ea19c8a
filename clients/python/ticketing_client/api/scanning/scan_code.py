from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.code_scan import CodeScan
from ...models.problem import Problem
from ...models.scan_result import ScanResult
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    body: CodeScan,
    idempotency_key: str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(idempotency_key, Unset):
        headers["Idempotency-Key"] = idempotency_key

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/scans",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Problem | ScanResult | None:
    if response.status_code == 200:
        response_200 = ScanResult.from_dict(response.json())

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
) -> Response[Problem | ScanResult]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient | Client,
    body: CodeScan,
    idempotency_key: str | Unset = UNSET,
) -> Response[Problem | ScanResult]:
    """Scan a ticket by its scannable code or its signed code

     The ticket by exactly one of `scannable_code` and `signed_code` (a signed code's signature is
    checked before anything else, with its event's key named by the code; a bad signature, an unknown or
    retired key, or a code the ticket no longer has is a 404 like an unknown ticket (docs/signed-
    codes.md)). Every outcome is a 200 whose `status` (valid, scanned, cancelled, not_allowed) and
    `reason` tell the door what to do. Without `scanner_id` the organization's oldest active scanner is
    used (409 when there is none); a scanner of another organization is a 403. `direction`: `entry`
    (default) or `exit` (a ticket inside goes out; otherwise `not_inside`); a re-entry follows the
    scanner profile's `entry_policy`; `inside` is the ticket's presence after. An offline device sends
    `scanned_at` (when it scanned; windows are decided then; at most 5 minutes in the future, at most
    TICKETING_OFFLINE_MAX_AGE_HOURS old) and a `nonce` (1 to 64 characters, unique per organization): a
    repeated nonce answers the first result again (same status, reason and scanned_at) and records
    nothing new; a nonce used for another ticket is a 409 `/problems/nonce-reused`.

    Scope: `tickets.write`.

    Args:
        idempotency_key (str | Unset):
        body (CodeScan):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | ScanResult]
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
    body: CodeScan,
    idempotency_key: str | Unset = UNSET,
) -> Problem | ScanResult | None:
    """Scan a ticket by its scannable code or its signed code

     The ticket by exactly one of `scannable_code` and `signed_code` (a signed code's signature is
    checked before anything else, with its event's key named by the code; a bad signature, an unknown or
    retired key, or a code the ticket no longer has is a 404 like an unknown ticket (docs/signed-
    codes.md)). Every outcome is a 200 whose `status` (valid, scanned, cancelled, not_allowed) and
    `reason` tell the door what to do. Without `scanner_id` the organization's oldest active scanner is
    used (409 when there is none); a scanner of another organization is a 403. `direction`: `entry`
    (default) or `exit` (a ticket inside goes out; otherwise `not_inside`); a re-entry follows the
    scanner profile's `entry_policy`; `inside` is the ticket's presence after. An offline device sends
    `scanned_at` (when it scanned; windows are decided then; at most 5 minutes in the future, at most
    TICKETING_OFFLINE_MAX_AGE_HOURS old) and a `nonce` (1 to 64 characters, unique per organization): a
    repeated nonce answers the first result again (same status, reason and scanned_at) and records
    nothing new; a nonce used for another ticket is a 409 `/problems/nonce-reused`.

    Scope: `tickets.write`.

    Args:
        idempotency_key (str | Unset):
        body (CodeScan):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | ScanResult
    """

    return sync_detailed(
        client=client,
        body=body,
        idempotency_key=idempotency_key,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient | Client,
    body: CodeScan,
    idempotency_key: str | Unset = UNSET,
) -> Response[Problem | ScanResult]:
    """Scan a ticket by its scannable code or its signed code

     The ticket by exactly one of `scannable_code` and `signed_code` (a signed code's signature is
    checked before anything else, with its event's key named by the code; a bad signature, an unknown or
    retired key, or a code the ticket no longer has is a 404 like an unknown ticket (docs/signed-
    codes.md)). Every outcome is a 200 whose `status` (valid, scanned, cancelled, not_allowed) and
    `reason` tell the door what to do. Without `scanner_id` the organization's oldest active scanner is
    used (409 when there is none); a scanner of another organization is a 403. `direction`: `entry`
    (default) or `exit` (a ticket inside goes out; otherwise `not_inside`); a re-entry follows the
    scanner profile's `entry_policy`; `inside` is the ticket's presence after. An offline device sends
    `scanned_at` (when it scanned; windows are decided then; at most 5 minutes in the future, at most
    TICKETING_OFFLINE_MAX_AGE_HOURS old) and a `nonce` (1 to 64 characters, unique per organization): a
    repeated nonce answers the first result again (same status, reason and scanned_at) and records
    nothing new; a nonce used for another ticket is a 409 `/problems/nonce-reused`.

    Scope: `tickets.write`.

    Args:
        idempotency_key (str | Unset):
        body (CodeScan):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | ScanResult]
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
    body: CodeScan,
    idempotency_key: str | Unset = UNSET,
) -> Problem | ScanResult | None:
    """Scan a ticket by its scannable code or its signed code

     The ticket by exactly one of `scannable_code` and `signed_code` (a signed code's signature is
    checked before anything else, with its event's key named by the code; a bad signature, an unknown or
    retired key, or a code the ticket no longer has is a 404 like an unknown ticket (docs/signed-
    codes.md)). Every outcome is a 200 whose `status` (valid, scanned, cancelled, not_allowed) and
    `reason` tell the door what to do. Without `scanner_id` the organization's oldest active scanner is
    used (409 when there is none); a scanner of another organization is a 403. `direction`: `entry`
    (default) or `exit` (a ticket inside goes out; otherwise `not_inside`); a re-entry follows the
    scanner profile's `entry_policy`; `inside` is the ticket's presence after. An offline device sends
    `scanned_at` (when it scanned; windows are decided then; at most 5 minutes in the future, at most
    TICKETING_OFFLINE_MAX_AGE_HOURS old) and a `nonce` (1 to 64 characters, unique per organization): a
    repeated nonce answers the first result again (same status, reason and scanned_at) and records
    nothing new; a nonce used for another ticket is a 409 `/problems/nonce-reused`.

    Scope: `tickets.write`.

    Args:
        idempotency_key (str | Unset):
        body (CodeScan):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | ScanResult
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
            idempotency_key=idempotency_key,
        )
    ).parsed
