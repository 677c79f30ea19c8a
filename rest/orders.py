"""Orders: list, read, place, confirm, cancel and refund."""

from __future__ import annotations

from litestar import Controller, post

from app.services import orders
from rest.list_routes import list_route
from rest.service_routes import record_route, service_route


class OrderController(Controller):
    path = "/orders"
    tags = ["orders"]

    list_orders = list_route(
        orders.ORDERS,
        "/",
        "list_orders",
        "List orders",
        text="The orders of the caller's organization. The filters combine (all must match). "
        "For sync, poll with `updated_since`. With `Accept: text/csv`: every matching order as "
        "a CSV attachment (no `limit`, `offset` or `after`).",
        export="orders.csv",
    )

    place_order = service_route(
        post,
        "/",
        "place_order",
        orders.place_order,
        "Place an order",
        errors=(404, 409),
        text="Creates a pending order with valid tickets: outright (`event_id`, "
        "`event_timeslot_id`, `tickets`), or from a hold (`hold_id`; `tickets` left out or "
        "naming exactly the held ticket types), which takes the held places and converts the "
        "hold. 409 `/problems/sold-out` when the timeslot has fewer places left than asked "
        "for; 409 `/problems/hold-unavailable` when the hold expired, was released or "
        "converted. Emits `order.created`.",
    )

    get_order = record_route(orders.ORDERS, "/{order_id:str}", "get_order", "Get an order")

    confirm_order = service_route(
        post,
        "/{order_id:str}/confirm",
        "confirm_order",
        orders.confirm_order,
        "Confirm payment of an order",
        status_code=200,
        errors=(409,),
        text="Sets payed_at and emits `order.confirmed` once; confirming again changes nothing.",
    )

    cancel_order = service_route(
        post,
        "/{order_id:str}/cancel",
        "cancel_order",
        orders.cancel_order,
        "Cancel an order and its tickets",
        status_code=200,
        text="Idempotent; emits `ticket.cancelled` per ticket.",
    )

    refund_order = service_route(
        post,
        "/{order_id:str}/refund",
        "refund_order",
        orders.refund_order,
        "Refund part of an order",
        status_code=200,
        errors=(409,),
        text="409 when the refunds would exceed total_price.",
    )
