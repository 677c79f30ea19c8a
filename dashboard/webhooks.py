"""Webhooks: the subscriptions, creating one (its signing secret shown once), editing, sending a
test event, rotating the secret (the new one shown once), deleting, and each subscription's
delivery log with a retry per delivery. Through ``app.services.webhooks``, as REST does."""

from __future__ import annotations

from typing import Any
from uuid import UUID

from litestar import Response, get, post
from litestar.response import Template

from app.schemas.decoding import convert
from app.schemas.webhook_events import BY_KIND, SUBSCRIBABLE
from app.schemas.webhooks import (
    WebhookCreate,
    WebhookSecretRotated,
    WebhookUpdate,
    WebhookWithSecret,
)
from app.services import webhooks
from app.services.webhooks import DELIVERIES, WEBHOOKS
from dashboard.forms import message, offset_of, pager, redirect, settings_of, submitted, text, texts
from dashboard.layout import PageRequest, PathId, page
from dashboard.security import principal_of

PATH = "/dashboard/webhooks"
EVENT_TYPES = [(kind, BY_KIND[kind].label) for kind in SUBSCRIBABLE]
"""The kinds a subscription can ask for, each with its label."""
MESSAGES = {
    "deleted": "The webhook was deleted; its pending deliveries are dropped.",
    "saved": "Saved.",
    "test": "A test event is on its way: it appears in the delivery log below.",
    "retried": "The delivery is being attempted again now.",
}


def _fields(form: Any) -> dict[str, Any]:
    return {
        "url": text(form, "url"),
        "event_types": texts(form, "event_types"),
        "description": text(form, "description"),
    }


async def _list_page(
    request: PageRequest,
    *,
    created: WebhookWithSecret | None = None,
    error: str = "",
    form: dict[str, Any] | None = None,
    status: int = 200,
) -> Template:
    found = await WEBHOOKS.page(principal_of(request), limit=100)
    return page(
        request,
        "webhooks.html",
        "Webhooks",
        status=status,
        hooks=found.data,
        created=created,
        error=error,
        message=message(request, MESSAGES),
        event_types=EVENT_TYPES,
        form=form or {"url": "", "event_types": [], "description": ""},
    )


@get(PATH)
async def webhooks_page(request: PageRequest) -> Template:
    return await _list_page(request)


@post(PATH, status_code=201)
async def create_webhook(request: PageRequest) -> Template:
    """Answers with the page itself (not a redirect): the secret is shown this once."""
    fields = _fields(await request.form())

    async def create() -> Template:
        created = await webhooks.create_webhook(
            principal_of(request), convert(fields, WebhookCreate), settings_of(request)
        )
        return await _list_page(request, created=created, status=201)

    return await submitted(
        create, lambda error: _list_page(request, error=error, form=fields, status=400)
    )


async def _webhook_page(
    request: PageRequest,
    webhook_id: UUID,
    *,
    rotated: WebhookSecretRotated | None = None,
    error: str = "",
    form: dict[str, Any] | None = None,
    status: int = 200,
) -> Template:
    principal = principal_of(request)
    hook = await WEBHOOKS.get(principal, webhook_id)
    deliveries = await DELIVERIES.page(
        principal, within=("webhook_id", webhook_id), offset=offset_of(request)
    )
    path = f"{PATH}/{webhook_id}"
    return page(
        request,
        "webhook.html",
        f"Webhook {hook.url}",
        status=status,
        hook=hook,
        rotated=rotated,
        error=error,
        message=message(request, MESSAGES),
        event_types=EVENT_TYPES,
        form=form
        or {"url": hook.url, "event_types": hook.event_types, "description": hook.description},
        deliveries=deliveries.data,
        pages=pager(path, deliveries.pagination, len(deliveries.data)),
        path=path,
    )


@get(f"{PATH}/{{webhook_id:uuid}}")
async def webhook_page(request: PageRequest, webhook_id: PathId) -> Template:
    return await _webhook_page(request, webhook_id)


@post(f"{PATH}/{{webhook_id:uuid}}", status_code=303)
async def update_webhook(request: PageRequest, webhook_id: PathId) -> Response[Any] | Template:
    form = await request.form()
    fields = {**_fields(form), "active": text(form, "active") == "on"}

    async def save() -> Response[Any]:
        data = convert(fields, WebhookUpdate)
        await webhooks.update_webhook(principal_of(request), webhook_id, data, settings_of(request))
        return redirect(f"{PATH}/{webhook_id}", "saved")

    return await submitted(
        save,
        lambda error: _webhook_page(request, webhook_id, error=error, form=fields, status=400),
    )


@post(f"{PATH}/{{webhook_id:uuid}}/test", status_code=303)
async def send_test(request: PageRequest, webhook_id: PathId) -> Response[Any]:
    await webhooks.send_test_delivery(principal_of(request), webhook_id)
    return redirect(f"{PATH}/{webhook_id}", "test")


@post(f"{PATH}/{{webhook_id:uuid}}/rotate-secret", status_code=200)
async def rotate_secret(request: PageRequest, webhook_id: PathId) -> Template:
    """Answers with the page itself: the new secret is shown this once."""
    rotated = await webhooks.rotate_secret(principal_of(request), webhook_id)
    return await _webhook_page(request, webhook_id, rotated=rotated)


@post(f"{PATH}/{{webhook_id:uuid}}/delete", status_code=303)
async def delete_webhook(request: PageRequest, webhook_id: PathId) -> Response[Any]:
    await webhooks.delete_webhook(principal_of(request), webhook_id)
    return redirect(PATH, "deleted")


@post(f"{PATH}/{{webhook_id:uuid}}/deliveries/{{delivery_id:uuid}}/retry", status_code=303)
async def retry_delivery(
    request: PageRequest,
    webhook_id: PathId,
    delivery_id: PathId,
) -> Response[Any]:
    await webhooks.retry_delivery(principal_of(request), webhook_id, delivery_id)
    return redirect(f"{PATH}/{webhook_id}", "retried")


ROUTES = [
    webhooks_page,
    create_webhook,
    webhook_page,
    update_webhook,
    send_test,
    rotate_secret,
    delete_webhook,
    retry_delivery,
]
