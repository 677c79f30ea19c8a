"""Consent tickets: one row per consent page shown, deleted when its form is submitted.

The consent page's ticket is a signed JWT; its ``jti`` is this row's id. Submitting the form deletes
the row in one conditional statement, so a ticket is redeemed at most once even when the form is
posted twice at the same moment. ``expires_at`` is indexed for pruning the pages never submitted.
"""

from piccolo.apps.migrations.auto.migration_manager import MigrationManager
from piccolo.columns.column_types import UUID, Timestamptz
from piccolo.columns.defaults.timestamptz import TimestamptzNow
from piccolo.columns.defaults.uuid import UUID4
from piccolo.columns.indexes import IndexMethod

ID = "2026-11-23T00:27:00:000000"
VERSION = "1.38.0"
DESCRIPTION = "single-use consent tickets"


async def forwards() -> MigrationManager:
    manager = MigrationManager(migration_id=ID, app_name="ticketing", description=DESCRIPTION)
    manager.add_table(
        class_name="OAuthConsentTicket",
        tablename="oauth_consent_tickets",
        schema=None,
        columns=None,
    )
    manager.add_column(
        table_class_name="OAuthConsentTicket",
        tablename="oauth_consent_tickets",
        column_name="id",
        db_column_name="id",
        column_class_name="UUID",
        column_class=UUID,
        params={
            "default": UUID4(),
            "null": False,
            "primary_key": True,
            "unique": False,
            "index": False,
            "index_method": IndexMethod.btree,
            "choices": None,
            "db_column_name": None,
            "secret": False,
        },
        schema=None,
    )
    manager.add_column(
        table_class_name="OAuthConsentTicket",
        tablename="oauth_consent_tickets",
        column_name="expires_at",
        db_column_name="expires_at",
        column_class_name="Timestamptz",
        column_class=Timestamptz,
        params={
            "default": TimestamptzNow(),
            "null": False,
            "primary_key": False,
            "unique": False,
            "index": True,
            "index_method": IndexMethod.btree,
            "choices": None,
            "db_column_name": None,
            "secret": False,
        },
        schema=None,
    )
    return manager
