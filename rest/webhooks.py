"""Webhook subscriptions and their delivery log."""

from __future__ import annotations

from typing import Any

from litestar import Controller, Request, delete, get, post
from litestar.di import NamedDependency
from litestar.params import FromPath, JSONBody

from app.ids import parse_id
from app.pagination import Page
from app.principal import Principal
from app.schemas.webhooks import Delivery, Webhook, WebhookCreate, WebhookDeleted, WebhookWithSecret
from app.services import webhooks
from rest.auth import SCOPE_OPT
from rest.docs import problems, scoped
from rest.lists import LIST_DEPENDENCIES, ListQuery


class WebhookController(Controller):
    path = "/webhooks"
    tags = ["webhooks"]
    dependencies = LIST_DEPENDENCIES

    @post(
        "/",
        summary="Create a webhook subscription",
        opt={SCOPE_OPT: "webhooks.write"},
        description=scoped(
            "webhooks.write",
            "`url` must be an https URL whose host resolves only to public addresses. "
            "The response carries the signing `secret`; it is shown only here.",
        ),
        responses=problems(400, 403, 413, 415),
    )
    async def create_webhook(
        self,
        principal: NamedDependency[Principal],
        data: JSONBody[WebhookCreate],
        request: Request[Any, Any, Any],
    ) -> WebhookWithSecret:
        settings = request.app.state["settings"]
        return await webhooks.create_webhook(principal, data, settings)

    @get(
        "/",
        summary="List webhook subscriptions",
        opt={SCOPE_OPT: "webhooks.read"},
        description=scoped("webhooks.read", "Sort field: `created_at`."),
        responses=problems(400, 403),
    )
    async def list_webhooks(
        self, principal: NamedDependency[Principal], listing: NamedDependency[ListQuery]
    ) -> Page[Webhook]:
        return await webhooks.list_webhooks(principal, **listing.as_kwargs())

    @get(
        "/{webhook_id:str}",
        summary="Get a webhook subscription",
        opt={SCOPE_OPT: "webhooks.read"},
        description=scoped("webhooks.read"),
        responses=problems(400, 403, 404),
    )
    async def get_webhook(
        self, principal: NamedDependency[Principal], webhook_id: FromPath[str]
    ) -> Webhook:
        return await webhooks.get_webhook(principal, parse_id(webhook_id, "webhook_id"))

    @delete(
        "/{webhook_id:str}",
        status_code=200,
        summary="Delete a webhook subscription",
        opt={SCOPE_OPT: "webhooks.write"},
        description=scoped("webhooks.write", "Its pending deliveries are dropped."),
        responses=problems(400, 403, 404),
    )
    async def delete_webhook(
        self, principal: NamedDependency[Principal], webhook_id: FromPath[str]
    ) -> WebhookDeleted:
        return await webhooks.delete_webhook(principal, parse_id(webhook_id, "webhook_id"))

    @get(
        "/{webhook_id:str}/deliveries",
        summary="List the deliveries of a webhook subscription",
        opt={SCOPE_OPT: "webhooks.read"},
        description=scoped(
            "webhooks.read", "Each delivery with every attempt made. Sort field: `created_at`."
        ),
        responses=problems(400, 403, 404),
    )
    async def list_deliveries(
        self,
        principal: NamedDependency[Principal],
        webhook_id: FromPath[str],
        listing: NamedDependency[ListQuery],
    ) -> Page[Delivery]:
        return await webhooks.list_deliveries(
            principal, parse_id(webhook_id, "webhook_id"), **listing.as_kwargs()
        )
