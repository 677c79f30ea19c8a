"""Holds: places of a timeslot kept for a buyer until they expire (CONTRACT.md section 16)."""

from __future__ import annotations

from litestar import Controller, delete, get, post
from litestar.di import NamedDependency
from litestar.params import JSONBody

from app.ids import parse_id
from app.principal import Principal
from app.schemas.holds import Hold, HoldCreate
from app.services import holds
from rest.docs import IdPath, operation


class HoldController(Controller):
    path = "/holds"
    tags = ["holds"]

    @post(
        "/",
        **operation(
            "Hold places",
            service=holds.create_hold,
            errors=(400, 403, 404, 409, 413, 415),
            text="Keeps places of a timeslot for `ttl_seconds` (60 to 1800, default 600): they "
            "count against its capacity until the hold is converted into an order "
            "(`POST /orders` with `hold_id`), released, or expires. 409 `/problems/sold-out` "
            "when fewer places are left than asked for.",
        ),
    )
    async def create_hold(
        self, principal: NamedDependency[Principal], data: JSONBody[HoldCreate]
    ) -> Hold:
        return await holds.create_hold(principal, data)

    @get(
        "/{hold_id:str}", **operation("Get a hold", service=holds.get_hold, errors=(400, 403, 404))
    )
    async def get_hold(self, principal: NamedDependency[Principal], hold_id: IdPath) -> Hold:
        return await holds.get_hold(principal, parse_id(hold_id, "hold_id"))

    @delete(
        "/{hold_id:str}",
        status_code=200,
        **operation(
            "Release a hold",
            service=holds.release_hold,
            errors=(400, 403, 404, 409),
            text="Gives the places back at once; releasing again answers the same. 409 "
            "`/problems/hold-unavailable` for a hold converted into an order.",
        ),
    )
    async def release_hold(self, principal: NamedDependency[Principal], hold_id: IdPath) -> Hold:
        return await holds.release_hold(principal, parse_id(hold_id, "hold_id"))
