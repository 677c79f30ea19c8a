"""The live door view: an event's admitted against sold, and its scans as they happen.

The page lists the event's latest scans from the scan log (refusals too, with their scanner), so a
reload keeps them; without JavaScript that list and a refresh button are the page. With it,
``door.js`` follows ``/dashboard/door/{event}/stream``: server-sent events from the scans feed
of ``app.runtime.live`` (published after each scan commits, on every replica), each with the
ticket's owner and the event's new counts. A stream ends when the server starts to stop
(``app.runtime.stopping``), so that the graceful shutdown does not wait for it; the browser
reconnects to another replica (or to this one once it is back). It also ends, with a
``signed-out`` event, within seconds of the member signing out or the session being revoked
(``app.runtime.rechecks``): the browser then stops following it.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from datetime import datetime
from typing import Annotated, Any
from uuid import UUID

import msgspec
from litestar import Request, get
from litestar.params import PathParameter
from litestar.response import ServerSentEvent, ServerSentEventMessage, Template

from app.principal import Principal
from app.runtime import stopping
from app.runtime.live import SubscriberTooSlow
from app.runtime.rechecks import until_lapsed
from app.schemas.scanning import ScanNotice
from app.services import attendance, overview, scanning
from app.services.dashboard_sessions import load_session
from app.services.scanners import SCANNERS
from app.services.ticket_types import TICKET_TYPES
from app.services.tickets import TICKETS
from dashboard.layout import local_time, page
from dashboard.security import cookie_token, principal_of, session_of

PATH = "/dashboard/door"
RECENT = 25
HEARTBEAT_SECONDS = 15.0
"""A comment line this often keeps proxies from closing a quiet stream."""
RECONNECT_MS = 1000
OUTCOMES = {
    "valid": "Admitted",
    "scanned": "Already scanned",
    "cancelled": "Cancelled ticket",
    "not_allowed": "Refused",
}
REASONS = {
    "scanner_inactive": "scanner inactive",
    "event_not_allowed": "not for this door",
    "ticket_type_not_allowed": "ticket type not allowed here",
    "timeslot_not_allowed": "timeslot not allowed here",
    "too_early": "too early",
    "too_late": "too late",
    "order_not_confirmed": "order not paid",
    "cancelled": "cancelled",
    "already_scanned": "already scanned",
    "not_inside": "not inside",
    "already_inside": "already inside",
}


class ScanRow(msgspec.Struct):
    """One scan attempt as the door view lists it, on the page and as it streams in."""

    status: str
    headline: str
    """The outcome, with the reason of a refusal: "Refused: too early"."""
    at: str
    """When the device scanned, in the organization's time zone."""
    at_utc: str
    """The same in UTC (shown on hover)."""
    owner: str
    ticket_type: str
    scanner: str


class ScanLine(ScanRow):
    """A scan as it streams in: the row and the event's new counts."""

    admitted: int
    sold: int
    capacity: int
    inside: int
    """Tickets inside now (CONTRACT.md section 17)."""


def _row(
    status: str,
    reason: str | None,
    scanned_at: datetime,
    timezone: str,
    owner: str,
    ticket_type: str,
    scanner: str,
) -> dict[str, Any]:
    """The fields of a :class:`ScanRow`."""
    outcome = OUTCOMES.get(status, status)
    why = REASONS.get(reason or "", reason or "")
    at, at_utc = local_time(scanned_at, timezone, "%H:%M:%S")
    return {
        "status": status,
        "headline": f"{outcome}: {why}" if status == "not_allowed" and why else outcome,
        "at": at,
        "at_utc": at_utc,
        "owner": owner,
        "ticket_type": ticket_type,
        "scanner": scanner,
    }


@get(PATH)
async def door_index(request: Request[Any, Any, Any]) -> Template:
    events = await overview.upcoming_events(principal_of(request))
    return page(request, "door_index.html", "Door view", events=events)


@get(f"{PATH}/{{event_id:uuid}}")
async def door_page(
    request: Request[Any, Any, Any], event_id: Annotated[UUID, PathParameter()]
) -> Template:
    principal = principal_of(request)
    timezone = session_of(request).timezone
    event = await overview.event_overview(principal, event_id)
    latest = await overview.latest_scans(principal, event_id, limit=RECENT)
    scans = [
        ScanRow(
            **_row(
                scan.status,
                scan.reason,
                scan.scanned_at,
                timezone,
                scan.owner_name,
                scan.ticket_type,
                scan.scanner,
            )
        )
        for scan in latest
    ]
    present = await attendance.event_attendance(principal, event_id)
    return page(
        request,
        "door.html",
        f"Door: {event.title}",
        event=event,
        inside=present.inside,
        scans=scans,
    )


async def _type_names(principal: Principal, event_id: UUID) -> dict[UUID, str]:
    found = await TICKET_TYPES.page(principal, within=("event_id", event_id), limit=100)
    return {ticket_type.id: ticket_type.name for ticket_type in found.data}


@get(f"{PATH}/{{event_id:uuid}}/stream")
async def door_stream(
    request: Request[Any, Any, Any], event_id: Annotated[UUID, PathParameter()]
) -> ServerSentEvent:
    """The event's scans as they commit, each a ``scan`` event (JSON of :class:`ScanLine`),
    after a ``ready`` event once the feed is live, until the server starts to stop or the
    session ends (a last ``signed-out`` event). A viewer that cannot keep up is dropped (the
    browser reconnects)."""
    principal = principal_of(request)
    timezone = session_of(request).timezone
    token = cookie_token(request)
    assert token is not None  # a route that is not public has a session

    async def still_signed_in() -> bool:
        session = await load_session(token)
        acting = session.principal if session is not None else None
        return acting is not None and acting.organization_id == principal.organization_id

    await overview.event_overview(principal, event_id)  # a 404 before the stream starts
    types = await _type_names(principal, event_id)
    scanners = {
        scanner.id: scanner.name for scanner in (await SCANNERS.page(principal, limit=100)).data
    }

    async def lines() -> AsyncIterator[ServerSentEventMessage]:
        feed = await scanning.watch_scans(principal, event_id)
        signed_out = asyncio.Event()

        async def end_when_signed_out() -> None:
            await until_lapsed(still_signed_in)
            signed_out.set()
            feed.end()

        watcher = asyncio.create_task(end_when_signed_out())
        try:
            async with feed:
                with stopping.on_stop(feed.end):
                    yield ServerSentEventMessage(event="ready", data="live", retry=RECONNECT_MS)
                    while True:
                        try:
                            notice = await asyncio.wait_for(anext(feed), HEARTBEAT_SECONDS)
                        except TimeoutError:
                            yield ServerSentEventMessage(comment="still here", data=None)
                            continue
                        except (SubscriberTooSlow, StopAsyncIteration):
                            break
                        line = await _line(principal, notice, timezone, types, scanners)
                        yield ServerSentEventMessage(
                            event="scan", data=msgspec.json.encode(line).decode()
                        )
            if signed_out.is_set():
                yield ServerSentEventMessage(event="signed-out", data="signed out")
        finally:
            watcher.cancel()

    return ServerSentEvent(
        lines(), headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"}
    )


async def _line(
    principal: Principal,
    notice: ScanNotice,
    timezone: str,
    types: dict[UUID, str],
    scanners: dict[UUID, str],
) -> ScanLine:
    """The scan with its ticket's owner and the event's counts: four statements."""
    ticket = (await TICKETS.load(principal, [notice.ticket_id])).get(notice.ticket_id)
    counts = await overview.event_overview(principal, notice.event_id)
    present = await attendance.event_attendance(principal, notice.event_id)
    return ScanLine(
        **_row(
            notice.status,
            notice.reason,
            notice.scanned_at,
            timezone,
            ticket.owner_name if ticket else "",
            types.get(ticket.ticket_type_id, "") if ticket else "",
            scanners.get(notice.scanner_id, "Scanner"),
        ),
        admitted=counts.admitted,
        sold=counts.sold,
        capacity=counts.capacity,
        inside=present.inside,
    )


ROUTES = [door_index, door_page, door_stream]
