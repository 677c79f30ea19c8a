"""Webhook subscriptions and their delivery log."""

from __future__ import annotations

from litestar import Controller, delete, patch, post
from litestar.params import JSONBody

from app.ids import parse_id
from app.schemas.webhook_events import WebhookTest, data_shape
from app.schemas.webhooks import (
    Webhook,
    WebhookCreate,
    WebhookUpdate,
    WebhookWithSecret,
)
from app.services import webhooks
from rest.auth import Caller
from rest.docs import IdPath, operation
from rest.list_routes import list_route
from rest.service_routes import record_route, service_route


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
        self, request: Caller, data: JSONBody[WebhookCreate]
    ) -> WebhookWithSecret:
        settings = request.app.state["settings"]
        return await webhooks.create_webhook(request.user, data, settings)

    list_webhooks = list_route(
        webhooks.WEBHOOKS,
        "/",
        "list_webhooks",
        "List webhook subscriptions",
        text="Sort field: `created_at`.",
    )

    get_webhook = record_route(
        webhooks.WEBHOOKS, "/{webhook_id:str}", "get_webhook", "Get a webhook subscription"
    )

    @patch(
        "/{webhook_id:str}",
        **operation(
            "Update a webhook subscription",
            service=webhooks.update_webhook,
            errors=(400, 403, 404, 413, 415),
            text="Only the fields sent are changed. A new `url` is checked as at creation; "
            "`active: true` re-enables a subscription that a 410 answer disabled.",
        ),
    )
    async def update_webhook(
        self, request: Caller, webhook_id: IdPath, data: JSONBody[WebhookUpdate]
    ) -> Webhook:
        settings = request.app.state["settings"]
        return await webhooks.update_webhook(
            request.user, parse_id(webhook_id, "webhook_id"), data, settings
        )

    test_webhook = service_route(
        post,
        "/{webhook_id:str}/test",
        "test_webhook",
        webhooks.send_test_delivery,
        "Send a test event to a webhook subscription",
        status_code=202,
        errors=(409,),
        text=f"A `{WebhookTest.kind}` event `{{id, event_type, timestamp, data: "
        f"{data_shape(WebhookTest)}}}` to this subscription only, whatever its event "
        "types, signed like every delivery. "
        "It shows in the delivery log; 409 when the subscription is disabled.",
    )

    retry_webhook_delivery = service_route(
        post,
        "/{webhook_id:str}/deliveries/{delivery_id:str}/retry",
        "retry_webhook_delivery",
        webhooks.retry_delivery,
        "Retry a webhook delivery now",
        status_code=202,
        errors=(409,),
        text="A new attempt at once, whatever the delivery's status (failed and exhausted "
        "ones too), with the same `webhook-id`; it is logged like every attempt. 409 when "
        "the subscription is disabled or an attempt of the delivery is in flight.",
    )

    rotate_webhook_secret = service_route(
        post,
        "/{webhook_id:str}/rotate-secret",
        "rotate_webhook_secret",
        webhooks.rotate_secret,
        "Rotate the signing secret of a webhook subscription",
        status_code=200,
        errors=(409,),
        text="The new `secret` is shown only here. Until `previous_secret_expires_at` "
        "(24 hours) every delivery carries two signatures, the new secret's first.",
    )

    delete_webhook = service_route(
        delete,
        "/{webhook_id:str}",
        "delete_webhook",
        webhooks.delete_webhook,
        "Delete a webhook subscription",
        status_code=200,
        text="Its pending deliveries are dropped.",
    )

    list_webhook_deliveries = list_route(
        webhooks.DELIVERIES,
        "/{webhook_id:str}/deliveries",
        "list_webhook_deliveries",
        "List the deliveries of a webhook subscription",
        within="webhook_id",
        text="Each delivery with every attempt made. Sort field: `created_at`.",
    )
