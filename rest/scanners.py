"""Scanners and scanner profiles."""

from __future__ import annotations

from litestar import Controller, patch, post
from litestar.di import NamedDependency
from litestar.params import JSONBody

from app.ids import parse_id
from app.principal import Principal
from app.schemas.scanners import (
    Scanner,
    ScannerCreate,
    ScannerProfile,
    ScannerProfileCreate,
    ScannerProfileUpdate,
    ScannerUpdate,
)
from app.services import scanners
from rest.docs import IdPath, operation
from rest.list_routes import list_route


class ScannerController(Controller):
    path = "/scanners"
    tags = ["scanners"]

    list_scanners = list_route(scanners.SCANNERS, "/", "list_scanners", "List scanners")

    @post(
        "/",
        **operation(
            "Register a scanner",
            service=scanners.create_scanner,
            errors=(400, 403, 404, 413, 415),
            text="A scanner without a profile admits every ticket at any time.",
        ),
    )
    async def create_scanner(
        self, principal: NamedDependency[Principal], data: JSONBody[ScannerCreate]
    ) -> Scanner:
        return await scanners.create_scanner(principal, data)

    @patch(
        "/{scanner_id:str}",
        **operation(
            "Update a scanner",
            service=scanners.update_scanner,
            errors=(400, 403, 404, 413, 415),
            text="Only the fields sent are changed; `profile_id: null` detaches the profile.",
        ),
    )
    async def update_scanner(
        self,
        principal: NamedDependency[Principal],
        scanner_id: IdPath,
        data: JSONBody[ScannerUpdate],
    ) -> Scanner:
        return await scanners.update_scanner(principal, parse_id(scanner_id, "scanner_id"), data)


class ScannerProfileController(Controller):
    path = "/scanner_profiles"
    tags = ["scanners"]

    list_scanner_profiles = list_route(
        scanners.PROFILES, "/", "list_scanner_profiles", "List scanner profiles"
    )

    @post(
        "/",
        **operation(
            "Create a scanner profile",
            service=scanners.create_profile,
            errors=(400, 403, 413, 415),
            text="Empty `event_ids` / `ticket_type_ids` / `timeslot_ids` admit all; the minute "
            "offsets are relative to the ticket's timeslot, `valid_from` / `valid_until` are "
            "absolute; null means no bound.",
        ),
    )
    async def create_scanner_profile(
        self, principal: NamedDependency[Principal], data: JSONBody[ScannerProfileCreate]
    ) -> ScannerProfile:
        return await scanners.create_profile(principal, data)

    @patch(
        "/{profile_id:str}",
        **operation(
            "Update a scanner profile",
            service=scanners.update_profile,
            errors=(400, 403, 404, 413, 415),
            text="Only the fields sent are changed; a sent target list replaces the old one.",
        ),
    )
    async def update_scanner_profile(
        self,
        principal: NamedDependency[Principal],
        profile_id: IdPath,
        data: JSONBody[ScannerProfileUpdate],
    ) -> ScannerProfile:
        return await scanners.update_profile(principal, parse_id(profile_id, "profile_id"), data)
