"""Webhook subscriptions and their delivery log."""

from __future__ import annotations

from typing import Any

from litestar import Controller, Request, delete, get, post
from litestar.di import NamedDependency
from litestar.params import JSONBody

from app.ids import parse_id
from app.pagination import Page
from app.principal import Principal
from app.schemas.webhooks import Delivery, Webhook, WebhookCreate, WebhookDeleted, WebhookWithSecret
from app.services import webhooks
from rest.docs import IdPath, operation
from rest.lists import ListQuery


class WebhookController(Controller):
    path = "/webhooks"
    tags = ["webhooks"]

    @post(
        "/",
        **operation(
            "Create a webhook subscription",
            service=webhooks.create_webhook,
            errors=(400, 403, 413, 415),
            text="`url` must be an https URL whose host resolves only to public addresses. "
            "The response carries the signing `secret`; it is shown only here.",
        ),
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
        **operation(
            "List webhook subscriptions",
            service=webhooks.WEBHOOKS,
            errors=(400, 403),
            text="Sort field: `created_at`.",
        ),
    )
    async def list_webhooks(
        self, principal: NamedDependency[Principal], listing: NamedDependency[ListQuery]
    ) -> Page[Webhook]:
        return await webhooks.WEBHOOKS.page(principal, **listing.as_kwargs())

    @get(
        "/{webhook_id:str}",
        **operation(
            "Get a webhook subscription", service=webhooks.WEBHOOKS, errors=(400, 403, 404)
        ),
    )
    async def get_webhook(
        self, principal: NamedDependency[Principal], webhook_id: IdPath
    ) -> Webhook:
        return await webhooks.WEBHOOKS.get(principal, parse_id(webhook_id, "webhook_id"))

    @delete(
        "/{webhook_id:str}",
        status_code=200,
        **operation(
            "Delete a webhook subscription",
            service=webhooks.delete_webhook,
            errors=(400, 403, 404),
            text="Its pending deliveries are dropped.",
        ),
    )
    async def delete_webhook(
        self, principal: NamedDependency[Principal], webhook_id: IdPath
    ) -> WebhookDeleted:
        return await webhooks.delete_webhook(principal, parse_id(webhook_id, "webhook_id"))

    @get(
        "/{webhook_id:str}/deliveries",
        **operation(
            "List the deliveries of a webhook subscription",
            service=webhooks.DELIVERIES,
            errors=(400, 403, 404),
            text="Each delivery with every attempt made. Sort field: `created_at`.",
        ),
    )
    async def list_deliveries(
        self,
        principal: NamedDependency[Principal],
        webhook_id: IdPath,
        listing: NamedDependency[ListQuery],
    ) -> Page[Delivery]:
        return await webhooks.DELIVERIES.page(
            principal,
            within=("webhook_id", parse_id(webhook_id, "webhook_id")),
            **listing.as_kwargs(),
        )
