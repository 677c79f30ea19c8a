"""Holds: places of a timeslot kept for a buyer until they expire (CONTRACT.md section 16)."""

from __future__ import annotations

from litestar import Controller, delete, get, post

from app.services import holds
from rest.service_routes import service_route


class HoldController(Controller):
    path = "/holds"
    tags = ["holds"]

    create_hold = service_route(
        post,
        "/",
        "create_hold",
        holds.create_hold,
        "Hold places",
        errors=(404, 409),
        text="Keeps places of a timeslot for `ttl_seconds` (60 to 1800, default 600): they "
        "count against its capacity until the hold is converted into an order "
        "(`POST /orders` with `hold_id`), released, or expires. 409 `/problems/sold-out` "
        "when fewer places are left than asked for.",
    )

    get_hold = service_route(get, "/{hold_id:str}", "get_hold", holds.get_hold, "Get a hold")

    release_hold = service_route(
        delete,
        "/{hold_id:str}",
        "release_hold",
        holds.release_hold,
        "Release a hold",
        status_code=200,
        errors=(409,),
        text="Gives the places back at once; releasing again answers the same. 409 "
        "`/problems/hold-unavailable` for a hold converted into an order.",
    )
