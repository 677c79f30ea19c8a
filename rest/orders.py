"""Orders: list, read, place, confirm, cancel and refund."""

from __future__ import annotations

from typing import Annotated

from litestar import Controller, get, post
from litestar.di import NamedDependency
from litestar.params import FromPath, JSONBody, QueryParameter

from app.ids import parse_id
from app.pagination import Page
from app.principal import Principal
from app.schemas.orders import Order, OrderCreate, RefundCreate
from app.services import orders
from rest.auth import SCOPE_OPT
from rest.docs import problems, scoped
from rest.lists import LIST_DEPENDENCIES, ListQuery


class OrderController(Controller):
    path = "/orders"
    tags = ["orders"]
    dependencies = LIST_DEPENDENCIES

    @get(
        "/",
        summary="List orders",
        opt={SCOPE_OPT: "orders.read"},
        description=scoped("orders.read", "The orders of the caller's organization."),
        responses=problems(400, 403),
    )
    async def list_orders(
        self,
        principal: NamedDependency[Principal],
        listing: NamedDependency[ListQuery],
        event_id: Annotated[
            str | None, QueryParameter(description="Only orders of this event")
        ] = None,
    ) -> Page[Order]:
        return await orders.list_orders(
            principal,
            event_id=None if event_id is None else parse_id(event_id, "event_id"),
            **listing.as_kwargs(),
        )

    @post(
        "/",
        summary="Place an order",
        opt={SCOPE_OPT: "orders.write"},
        description=scoped(
            "orders.write",
            "Creates a pending order with valid tickets. 409 when the timeslot has fewer "
            "tickets left than asked for. Emits `order.created`.",
        ),
        responses=problems(400, 403, 404, 409, 413, 415),
    )
    async def place_order(
        self, principal: NamedDependency[Principal], data: JSONBody[OrderCreate]
    ) -> Order:
        return await orders.place_order(principal, data)

    @get(
        "/{order_id:str}",
        summary="Get an order",
        opt={SCOPE_OPT: "orders.read"},
        description=scoped("orders.read"),
        responses=problems(400, 403, 404),
    )
    async def get_order(
        self, principal: NamedDependency[Principal], order_id: FromPath[str]
    ) -> Order:
        return await orders.get_order(principal, parse_id(order_id, "order_id"))

    @post(
        "/{order_id:str}/confirm",
        status_code=200,
        summary="Confirm payment of an order",
        opt={SCOPE_OPT: "orders.write"},
        description=scoped(
            "orders.write",
            "Sets payed_at and emits `order.confirmed` once; confirming again changes nothing.",
        ),
        responses=problems(400, 403, 404, 409),
    )
    async def confirm_order(
        self, principal: NamedDependency[Principal], order_id: FromPath[str]
    ) -> Order:
        return await orders.confirm_order(principal, parse_id(order_id, "order_id"))

    @post(
        "/{order_id:str}/cancel",
        status_code=200,
        summary="Cancel an order and its tickets",
        opt={SCOPE_OPT: "orders.write"},
        description=scoped("orders.write", "Idempotent; emits `ticket.cancelled` per ticket."),
        responses=problems(400, 403, 404),
    )
    async def cancel_order(
        self, principal: NamedDependency[Principal], order_id: FromPath[str]
    ) -> Order:
        return await orders.cancel_order(principal, parse_id(order_id, "order_id"))

    @post(
        "/{order_id:str}/refund",
        status_code=200,
        summary="Refund part of an order",
        opt={SCOPE_OPT: "orders.write"},
        description=scoped("orders.write", "409 when the refunds would exceed total_price."),
        responses=problems(400, 403, 404, 409, 415),
    )
    async def refund_order(
        self,
        principal: NamedDependency[Principal],
        order_id: FromPath[str],
        data: JSONBody[RefundCreate],
    ) -> Order:
        return await orders.refund_order(principal, parse_id(order_id, "order_id"), data)
