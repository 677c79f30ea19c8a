"""Scanners and their profiles: the lists, creating and editing both (through
``app.services.scanners``, as REST does). A profile is edited here by its events and its time
windows; its ticket type and timeslot lists, which the API sets, are kept as they are."""

from __future__ import annotations

from datetime import datetime
from typing import Any
from uuid import UUID

from litestar import Response, get, post
from litestar.datastructures import FormMultiDict
from litestar.response import Template

from app.schemas.decoding import convert
from app.schemas.scanners import (
    ScannerCreate,
    ScannerProfile,
    ScannerProfileCreate,
    ScannerProfileUpdate,
    ScannerUpdate,
)
from app.services import scanners
from app.services.events import EVENTS
from app.services.scanners import PROFILES, SCANNERS
from dashboard.forms import (
    local_input,
    message,
    optional_int,
    optional_utc,
    redirect,
    submitted,
    text,
    texts,
)
from dashboard.layout import PageRequest, PathId, page
from dashboard.security import principal_of

PATH = "/dashboard/scanners"
PROFILES_PATH = f"{PATH}/profiles"
ENTRY_POLICIES = {
    "single": "Once: one admission per ticket, ever",
    "reentry": "Re-entry: a ticket scanned out may come back in",
    "multiple": "Every entry: passes (each entry scan admits)",
}
"""The label of each entry policy (CONTRACT.md section 17), in the order the form offers them."""
MESSAGES = {
    "scanner-created": "Scanner created.",
    "scanner-saved": "Scanner saved.",
    "profile-created": "Profile created.",
    "profile-saved": "Profile saved.",
}


def _scanner_fields(form: FormMultiDict) -> dict[str, Any]:
    profile = text(form, "profile_id")
    return {
        "name": text(form, "name"),
        "active": text(form, "active") == "on",
        "profile_id": profile or None,
    }


def _profile_fields(form: FormMultiDict) -> dict[str, Any]:
    """The profile's fields as the services take them; :class:`InvalidInput` naming a bad one."""
    return {
        "name": text(form, "name"),
        "event_ids": texts(form, "event_ids"),
        "opens_minutes_before_start": optional_int(form, "opens_minutes_before_start"),
        "closes_minutes_after_end": optional_int(form, "closes_minutes_after_end"),
        "valid_from": optional_utc(form, "valid_from"),
        "valid_until": optional_utc(form, "valid_until"),
        "entry_policy": text(form, "entry_policy") or "single",
    }


PROFILE_INPUTS = (
    "name",
    "entry_policy",
    "opens_minutes_before_start",
    "closes_minutes_after_end",
    "valid_from",
    "valid_until",
)
"""The profile form's inputs that hold one value (``event_ids`` is the other), named after the
profile's fields."""


def _shown(value: Any) -> Any:
    """A profile's value as its input shows it."""
    if value is None:
        return ""
    return local_input(value) if isinstance(value, datetime) else value


def _profile_form(profile: ScannerProfile | None) -> dict[str, Any]:
    """The form's values: the profile's, or a new one's."""
    if profile is None:
        return {**dict.fromkeys(PROFILE_INPUTS, ""), "entry_policy": "single", "event_ids": []}
    return {
        **{name: _shown(getattr(profile, name)) for name in PROFILE_INPUTS},
        "event_ids": [str(event_id) for event_id in profile.event_ids],
    }


def _form_again(form: FormMultiDict) -> dict[str, Any]:
    """A submitted profile form, to show again with its error."""
    return {
        **{name: text(form, name) for name in PROFILE_INPUTS},
        "event_ids": texts(form, "event_ids"),
    }


async def _events(request: PageRequest) -> list[Any]:
    found = await EVENTS.page(principal_of(request), sort="starts_at:desc", limit=100)
    return found.data


async def _scanners_page(
    request: PageRequest,
    *,
    error: str = "",
    scanner_form: dict[str, Any] | None = None,
    profile_form: dict[str, Any] | None = None,
    status: int = 200,
) -> Template:
    principal = principal_of(request)
    found = await SCANNERS.page(principal, limit=100)
    profiles = await PROFILES.page(principal, limit=100)
    events = await _events(request)
    return page(
        request,
        "scanners.html",
        "Scanners",
        status=status,
        scanners=found.data,
        profiles=profiles.data,
        profile_names={profile.id: profile.name for profile in profiles.data},
        event_titles={event.id: event.title for event in events},
        events=events,
        error=error,
        message=message(request, MESSAGES),
        scanner_form=scanner_form or {"name": "", "active": True, "profile_id": None},
        profile_form=profile_form or _profile_form(None),
        entry_policies=ENTRY_POLICIES,
    )


@get(PATH)
async def scanners_page(request: PageRequest) -> Template:
    return await _scanners_page(request)


@post(PATH, status_code=303)
async def create_scanner(request: PageRequest) -> Response[Any] | Template:
    fields = _scanner_fields(await request.form())

    async def create() -> Response[Any]:
        await scanners.create_scanner(principal_of(request), convert(fields, ScannerCreate))
        return redirect(PATH, "scanner-created")

    return await submitted(
        create,
        lambda error: _scanners_page(request, error=error, scanner_form=fields, status=400),
    )


@get(f"{PATH}/{{scanner_id:uuid}}")
async def scanner_page(request: PageRequest, scanner_id: PathId) -> Template:
    principal = principal_of(request)
    scanner = await SCANNERS.get(principal, scanner_id)
    profiles = await PROFILES.page(principal, limit=100)
    return page(
        request, "scanner.html", scanner.name, scanner=scanner, profiles=profiles.data, error=""
    )


@post(f"{PATH}/{{scanner_id:uuid}}", status_code=303)
async def update_scanner(request: PageRequest, scanner_id: PathId) -> Response[Any]:
    fields = _scanner_fields(await request.form())
    await scanners.update_scanner(principal_of(request), scanner_id, convert(fields, ScannerUpdate))
    return redirect(PATH, "scanner-saved")


@post(PROFILES_PATH, status_code=303)
async def create_profile(request: PageRequest) -> Response[Any] | Template:
    form = await request.form()

    async def create() -> Response[Any]:
        data = convert(_profile_fields(form), ScannerProfileCreate)
        await scanners.create_profile(principal_of(request), data)
        return redirect(PATH, "profile-created")

    return await submitted(
        create,
        lambda error: _scanners_page(
            request, error=error, profile_form=_form_again(form), status=400
        ),
    )


async def _profile_page(
    request: PageRequest,
    profile_id: UUID,
    *,
    error: str = "",
    form: dict[str, Any] | None = None,
    status: int = 200,
) -> Template:
    profile = await PROFILES.get(principal_of(request), profile_id)
    return page(
        request,
        "scanner_profile.html",
        profile.name,
        status=status,
        profile=profile,
        events=await _events(request),
        profile_form=form or _profile_form(profile),
        entry_policies=ENTRY_POLICIES,
        error=error,
    )


@get(f"{PROFILES_PATH}/{{profile_id:uuid}}")
async def profile_page(request: PageRequest, profile_id: PathId) -> Template:
    return await _profile_page(request, profile_id)


@post(f"{PROFILES_PATH}/{{profile_id:uuid}}", status_code=303)
async def update_profile(request: PageRequest, profile_id: PathId) -> Response[Any] | Template:
    form = await request.form()

    async def save() -> Response[Any]:
        data = convert(_profile_fields(form), ScannerProfileUpdate)
        await scanners.update_profile(principal_of(request), profile_id, data)
        return redirect(PATH, "profile-saved")

    return await submitted(
        save,
        lambda error: _profile_page(
            request, profile_id, error=error, form=_form_again(form), status=400
        ),
    )


ROUTES = [
    scanners_page,
    create_scanner,
    scanner_page,
    update_scanner,
    create_profile,
    profile_page,
    update_profile,
]
