"""Scanners and scanner profiles."""

from __future__ import annotations

from litestar import Controller, patch, post

from app.services import scanners
from rest.list_routes import list_route
from rest.service_routes import service_route


class ScannerController(Controller):
    path = "/scanners"
    tags = ["scanners"]

    list_scanners = list_route(scanners.SCANNERS, "/", "list_scanners", "List scanners")

    create_scanner = service_route(
        post,
        "/",
        "create_scanner",
        scanners.create_scanner,
        "Register a scanner",
        errors=(404,),
        text="A scanner without a profile admits every ticket at any time.",
    )

    update_scanner = service_route(
        patch,
        "/{scanner_id:str}",
        "update_scanner",
        scanners.update_scanner,
        "Update a scanner",
        text="Only the fields sent are changed; `profile_id: null` detaches the profile.",
    )


class ScannerProfileController(Controller):
    path = "/scanner_profiles"
    tags = ["scanners"]

    list_scanner_profiles = list_route(
        scanners.PROFILES, "/", "list_scanner_profiles", "List scanner profiles"
    )

    create_scanner_profile = service_route(
        post,
        "/",
        "create_scanner_profile",
        scanners.create_profile,
        "Create a scanner profile",
        text="Empty `event_ids` / `ticket_type_ids` / `timeslot_ids` admit all; the minute "
        "offsets are relative to the ticket's timeslot, `valid_from` / `valid_until` are "
        "absolute; null means no bound.",
    )

    update_scanner_profile = service_route(
        patch,
        "/{profile_id:str}",
        "update_scanner_profile",
        scanners.update_profile,
        "Update a scanner profile",
        text="Only the fields sent are changed; a sent target list replaces the old one.",
    )
