"""The audit log: who did what, when, newest first (people in the dashboard, integrations through
the API, operators at the command line). Paged by cursor, so a long log pages at any depth."""

from __future__ import annotations

from urllib.parse import urlencode

from litestar import get
from litestar.response import Template

from app.errors import InvalidInput
from app.services import audit
from dashboard.layout import PageRequest, page
from dashboard.security import principal_of

PATH = "/dashboard/audit-log"
PAGE_SIZE = 50
ACTIONS = {
    "api_key.create": "created API key",
    "api_key.revoke": "revoked API key",
    "webhook.create": "created webhook",
    "webhook.update": "edited webhook",
    "webhook.delete": "deleted webhook",
    "webhook.test": "sent a test event to webhook",
    "webhook.retry_delivery": "retried a delivery of webhook",
    "webhook.rotate_secret": "rotated the secret of webhook",
    "oauth_application.create": "registered OAuth application",
    "oauth_application.disable": "disabled OAuth application",
    "oauth_application.enable": "enabled OAuth application",
    "oauth_application.delete": "deleted OAuth application",
    "oauth_application.rotate_secret": "rotated the secret of OAuth application",
    "oauth_authorization.revoke": "revoked a user's authorization of",
    "scanner.create": "added scanner",
    "scanner.update": "edited scanner",
    "scanner_profile.create": "added scanner profile",
    "scanner_profile.update": "edited scanner profile",
    "scan_key.rotate": "rotated the scan key of event",
    "scan_key.retire": "retired a scan key of event",
    "order.confirm": "confirmed the order of",
    "order.cancel": "cancelled the order of",
    "member.add": "added member",
    "member.role": "changed the role of",
    "organization.timezone": "set the time zone of",
}
VIA = {
    "dashboard": "in the dashboard",
    "api_key": "with an API key",
    "oauth": "through an OAuth application",
    "cli": "at the command line",
}


@get(PATH)
async def audit_log_page(request: PageRequest) -> Template:
    after = request.query_params.get("after") or None
    try:
        found = await audit.audit_log(principal_of(request), limit=PAGE_SIZE, after=after)
    except InvalidInput:  # a stale or mangled cursor: start from the newest
        found = await audit.audit_log(principal_of(request), limit=PAGE_SIZE)
        after = None
    next_after = found.pagination.next_after
    return page(
        request,
        "audit_log.html",
        "Audit log",
        entries=found.data,
        total=found.pagination.total,
        actions=ACTIONS,
        via=VIA,
        paged=after is not None,
        older=f"{PATH}?{urlencode({'after': next_after})}" if next_after else None,
    )


ROUTES = [audit_log_page]
