"""Webhook event kinds from the registry (issue 23 item 6): the rule on
``outbox_events.event_type`` lists the kinds of ``app.schemas.webhook_events.KINDS``
(``db/event_kinds.py``). It holds the same kinds as before; a later migration that allows new kinds
is this file again under its own ID.
"""

from __future__ import annotations

from piccolo.apps.migrations.auto.migration_manager import MigrationManager

from db.event_kinds import allow_registered_kinds

ID = "2026-11-26T09:00:00:000000"
VERSION = "1.38.0"
DESCRIPTION = "webhook event kinds: the outbox rule derived from the registry"


async def forwards() -> MigrationManager:
    return allow_registered_kinds(ID, DESCRIPTION)
