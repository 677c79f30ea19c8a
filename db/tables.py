"""The whole data model as Piccolo tables.

Every row that belongs to an organization carries ``organization_id`` itself (denormalized onto
child rows), so that each query scopes by organization with one indexed equality and another
organization's rows can never leak through a join. Lists of ids are link tables, because Piccolo's
SQLite engine cannot store an array of UUIDs. Composite indexes behind the list sorts, and the rules
that status and kind columns hold only the values the schemas list, are created by the migrations
(see ``db/migrations``).
"""

from __future__ import annotations

from decimal import Decimal

from piccolo.columns import (
    JSON,
    UUID,
    BigInt,
    Boolean,
    Bytea,
    ForeignKey,
    Integer,
    Numeric,
    Real,
    Text,
    Timestamptz,
    Varchar,
)
from piccolo.columns.base import OnDelete, OnUpdate
from piccolo.table import Table


class Organization(Table, tablename="organizations"):
    """A live organization, or the test twin of one (``live_organization_id`` set: CONTRACT.md
    section 18). A twin holds the test data: ``tk_test_`` keys belong to it, so every query's
    organization filter keeps test and live data apart (``app/services/test_mode.py``)."""

    id = UUID(primary_key=True)
    name = Varchar(length=200)
    currency = Varchar(length=3, default="EUR")
    created_at = Timestamptz()
    live_organization_id = UUID(null=True, default=None)
    timezone = Varchar(length=64, default="UTC")
    """An IANA time zone name: the dashboard shows times in it (the API answers in UTC)."""


class User(Table, tablename="users"):
    """A person; ``email`` is lower-cased. Linked to an identity provider on first sign-in."""

    id = UUID(primary_key=True)
    email = Varchar(length=320, unique=True)
    idp_issuer = Varchar(length=500, null=True, default=None)
    idp_subject = Varchar(length=255, null=True, default=None)
    created_at = Timestamptz()


class Membership(Table, tablename="memberships"):
    """A user's place in an organization: ``role`` is ``admin`` (reads and changes) or
    ``member`` (reads) in the dashboard (a database rule holds it to the two)."""

    id = UUID(primary_key=True)
    organization_id = ForeignKey(references=Organization, on_delete=OnDelete.cascade, index=True)
    user_id = ForeignKey(references=User, on_delete=OnDelete.cascade, index=True)
    role = Varchar(length=10, default="admin")
    created_at = Timestamptz()


class DashboardSession(Table, tablename="dashboard_sessions"):
    """A dashboard browser session; only ``token_hash`` (SHA-256 of the cookie's token) is kept.

    A row starts as a sign-in in progress (``user_id`` null; the OpenID Connect ``state``,
    ``nonce`` and PKCE verifier set) and becomes a signed-in session with a new token when the
    identity provider sends the user back. ``organization_id`` is the organization the user works
    in (null until picked, for a member of several). Deleting the row ends the session."""

    id = UUID(primary_key=True)
    token_hash = Varchar(length=64, unique=True)
    user_id = ForeignKey(references=User, on_delete=OnDelete.cascade, null=True, default=None)
    organization_id = ForeignKey(
        references=Organization, on_delete=OnDelete.cascade, null=True, default=None
    )
    oidc_state = Varchar(length=64, null=True, default=None)
    oidc_nonce = Varchar(length=64, null=True, default=None)
    oidc_verifier = Varchar(length=128, null=True, default=None)
    return_to = Varchar(length=500, null=True, default=None)
    created_at = Timestamptz()
    last_seen_at = Timestamptz(index=True)
    test_mode = Boolean(default=False)
    """The dashboard's live / test switch: while set, the session acts as the organization's
    test twin."""


class ApiKey(Table, tablename="api_keys"):
    """Only ``key_hash`` (SHA-256 of the key) is stored; ``key_prefix`` tells keys apart."""

    id = UUID(primary_key=True)
    organization_id = ForeignKey(references=Organization, on_delete=OnDelete.cascade, index=True)
    user_id = ForeignKey(references=User, on_delete=OnDelete.cascade)
    name = Varchar(length=200, default="")
    key_prefix = Varchar(length=16)
    key_hash = Varchar(length=64, unique=True)
    scopes = Text()
    created_at = Timestamptz()
    last_used_at = Timestamptz(null=True, default=None)
    revoked_at = Timestamptz(null=True, default=None)


class CredentialRevision(Table, tablename="credential_revisions"):
    """One row whose ``revision`` every revocation of an API key raises in its own transaction.

    Each server process keeps recent key lookups in memory and reads this number about once a
    second; when it has moved, the process forgets them (``app/services/api_keys.py``), so a
    revoked key stops working on every replica within a few seconds."""

    id = Integer(primary_key=True)
    revision = BigInt(default=0)


class OAuthClient(Table, tablename="oauth_clients"):
    id = UUID(primary_key=True)
    client_id = Varchar(length=64, unique=True)
    client_secret_hash = Varchar(length=128, null=True, default=None)
    organization_id = ForeignKey(references=Organization, on_delete=OnDelete.cascade, index=True)
    user_id = ForeignKey(references=User, on_delete=OnDelete.cascade)
    name = Varchar(length=200)
    redirect_uris = JSON(default=[])
    scopes = Text()
    public = Boolean(default=False)
    trusted = Boolean(default=False)
    created_at = Timestamptz()
    disabled_at = Timestamptz(null=True, default=None)
    """Set while an admin has the application disabled: no token is issued or accepted."""


class OAuthGrant(Table, tablename="oauth_grants"):
    """A grant family: everything issued from one authorization (codes, refresh and access tokens).

    Revoking the family (a replayed code or refresh token) invalidates every token of it; access
    tokens carry the family id so the resource side can check it on each request.
    """

    id = UUID(primary_key=True)
    client_id = ForeignKey(references=OAuthClient, on_delete=OnDelete.cascade, index=True)
    organization_id = ForeignKey(references=Organization, on_delete=OnDelete.cascade)
    user_id = ForeignKey(references=User, on_delete=OnDelete.cascade)
    scope = Text()
    kind = Varchar(length=20, default="authorization_code")
    """``authorization_code``: a user authorized the client; ``client_credentials``: the client
    got a token for itself (one family per token)."""
    created_at = Timestamptz()
    revoked_at = Timestamptz(null=True, default=None)


class OAuthAuthorizationCode(Table, tablename="oauth_authorization_codes"):
    id = UUID(primary_key=True)
    code_hash = Varchar(length=64, unique=True)
    grant_id = ForeignKey(references=OAuthGrant, on_delete=OnDelete.cascade, index=True)
    redirect_uri = Text()
    scope = Text()
    code_challenge = Varchar(length=128, null=True, default=None)
    code_challenge_method = Varchar(length=10, null=True, default=None)
    nonce = Varchar(length=255, null=True, default=None)
    expires_at = Timestamptz()
    used_at = Timestamptz(null=True, default=None)
    created_at = Timestamptz()


class OAuthRefreshToken(Table, tablename="oauth_refresh_tokens"):
    id = UUID(primary_key=True)
    token_hash = Varchar(length=64, unique=True)
    grant_id = ForeignKey(references=OAuthGrant, on_delete=OnDelete.cascade, index=True)
    scope = Text()
    expires_at = Timestamptz()
    rotated_at = Timestamptz(null=True, default=None)
    revoked_at = Timestamptz(null=True, default=None)
    created_at = Timestamptz()


class OAuthConsentTicket(Table, tablename="oauth_consent_tickets"):
    """A consent page not yet submitted: its ticket's ``jti``; deleted when the form comes back."""

    id = UUID(primary_key=True)
    expires_at = Timestamptz(index=True)


class SigningKey(Table, tablename="signing_keys"):
    """Asymmetric keys for access tokens; retired keys stay published until their tokens expire."""

    id = UUID(primary_key=True)
    kid = Varchar(length=64, unique=True)
    algorithm = Varchar(length=10, default="ES256")
    private_pem = Text()
    created_at = Timestamptz()
    retired_at = Timestamptz(null=True, default=None)


class Event(Table, tablename="events"):
    id = UUID(primary_key=True)
    organization_id = ForeignKey(references=Organization, on_delete=OnDelete.cascade)
    title = Varchar(length=200)
    description = Text(default="")
    location = Varchar(length=500, null=True, default=None)
    starts_at = Timestamptz()
    ends_at = Timestamptz(null=True, default=None)
    order_scanning_enabled = Boolean(default=False)
    created_at = Timestamptz()
    updated_at = Timestamptz()


class ScanKey(Table, tablename="scan_keys"):
    """An event's Ed25519 key for signed ticket codes (CONTRACT.md section 17,
    ``app/services/scan_keys.py``). ``current`` is true on the one key new codes use (a unique
    index on ``event_id`` where it is true) and null on the others. Retiring a key gives its row a
    new ``id``: the tickets' foreign key on ``id`` then refuses any ticket still naming the key
    (docs/decisions.md, "Signed codes: where the key is checked")."""

    id = UUID(primary_key=True)
    organization_id = ForeignKey(references=Organization, on_delete=OnDelete.cascade, null=False)
    event_id = ForeignKey(references=Event, on_delete=OnDelete.cascade, null=False)
    kid = Varchar(length=16)
    """base64url without padding of the key's 8-byte id."""
    public_key = Varchar(length=64)
    """base64url without padding of the raw 32-byte public key."""
    private_pem = Text()
    current = Boolean(null=True, default=None)
    created_at = Timestamptz()
    retired_at = Timestamptz(null=True, default=None)


class TicketType(Table, tablename="ticket_types"):
    id = UUID(primary_key=True)
    organization_id = ForeignKey(references=Organization, on_delete=OnDelete.cascade)
    event_id = ForeignKey(references=Event, on_delete=OnDelete.cascade)
    name = Varchar(length=200)
    price = Numeric(digits=(12, 2))
    swappable = Boolean(default=False)
    created_at = Timestamptz()


class Timeslot(Table, tablename="timeslots"):
    """``total_available`` is the capacity; ``sold`` counts live (not cancelled) tickets;
    ``held`` the places of holds whose row is ``active`` (``db/holds.py``)."""

    id = UUID(primary_key=True)
    organization_id = ForeignKey(references=Organization, on_delete=OnDelete.cascade)
    event_id = ForeignKey(references=Event, on_delete=OnDelete.cascade)
    title = Varchar(length=200)
    starts_at = Timestamptz()
    ends_at = Timestamptz()
    total_available = Integer()
    sold = Integer(default=0)
    held = Integer(default=0)
    created_at = Timestamptz()


class TimeslotTicketType(Table, tablename="timeslot_ticket_types"):
    id = UUID(primary_key=True)
    timeslot_id = ForeignKey(references=Timeslot, on_delete=OnDelete.cascade)
    ticket_type_id = ForeignKey(references=TicketType, on_delete=OnDelete.cascade, index=True)


class Order(Table, tablename="orders"):
    id = UUID(primary_key=True)
    organization_id = ForeignKey(references=Organization, on_delete=OnDelete.cascade)
    event_id = ForeignKey(references=Event, on_delete=OnDelete.cascade)
    event_timeslot_id = ForeignKey(references=Timeslot, on_delete=OnDelete.cascade, index=True)
    buyer_name = Varchar(length=200)
    buyer_email = Varchar(length=320)
    channel = Varchar(length=20)
    payment_method = Varchar(length=20)
    total_price = Numeric(digits=(12, 2))
    refunded = Numeric(digits=(12, 2), default=Decimal("0.00"))
    status = Varchar(length=10, default="pending")
    payed_at = Timestamptz(null=True, default=None)
    cancelled_at = Timestamptz(null=True, default=None)
    created_at = Timestamptz()
    updated_at = Timestamptz()
    """Set by every change of the order (sync: ``updated_since``)."""


class Hold(Table, tablename="holds"):
    """Places of a timeslot kept for a buyer until ``expires_at`` (CONTRACT.md section 16).
    ``status`` is as stored: an ``active`` row past ``expires_at`` reads ``expired``
    (``app/services/holds.py``). ``tickets`` lists the held ticket types, ``quantity`` their
    number."""

    id = UUID(primary_key=True)
    organization_id = ForeignKey(
        references=Organization, on_delete=OnDelete.cascade, null=False, index=True
    )
    event_id = ForeignKey(references=Event, on_delete=OnDelete.cascade, null=False, index=True)
    event_timeslot_id = ForeignKey(references=Timeslot, on_delete=OnDelete.cascade, null=False)
    status = Varchar(length=10, default="active")
    quantity = Integer()
    tickets = JSON(default=[])
    order_id = UUID(null=True, default=None, index=True)
    """The order the hold became (no foreign key: set before the order's row is written)."""
    expires_at = Timestamptz()
    created_at = Timestamptz()
    updated_at = Timestamptz()


class Ticket(Table, tablename="tickets"):
    id = UUID(primary_key=True)
    organization_id = ForeignKey(references=Organization, on_delete=OnDelete.cascade)
    event_id = ForeignKey(references=Event, on_delete=OnDelete.cascade)
    event_timeslot_id = ForeignKey(references=Timeslot, on_delete=OnDelete.cascade, index=True)
    ticket_type_id = ForeignKey(references=TicketType, on_delete=OnDelete.cascade, index=True)
    order_id = ForeignKey(references=Order, on_delete=OnDelete.cascade)
    """Indexed by ``tickets_order_sequence`` (order, sequence, id)."""
    scannable_code = Varchar(length=64)
    owner_name = Varchar(length=200, default="")
    owner_email = Varchar(length=320, default="")
    seat = Varchar(length=100, null=True, default=None)
    sequence = Integer()
    status = Varchar(length=10, default="valid")
    scanned_at = Timestamptz(null=True, default=None)
    cancelled_at = Timestamptz(null=True, default=None)
    swappable = Boolean(default=False)
    metadata = JSON(default={})
    metadata_fields = JSON(default=[])
    created_at = Timestamptz()
    updated_at = Timestamptz()
    """Set by every change of the ticket (sync: ``updated_since``)."""
    inside = Boolean(default=False)
    """Presence (CONTRACT.md section 17): the direction of the latest valid scan is ``entry``."""
    presence_at = Timestamptz(null=True, default=None)
    """The ``scanned_at`` of that latest valid scan (null while never admitted)."""
    signed_code = Varchar(length=186, null=True, default=None)
    """The signed code (CONTRACT.md section 17), made when the ticket is written; null only for a
    ticket an earlier release wrote, until it is read (``app/services/scan_keys.py``)."""
    scan_key_id = ForeignKey(
        references=ScanKey,
        null=True,
        default=None,
        on_delete=OnDelete.no_action,
        on_update=OnUpdate.no_action,
    )
    """The key that signed ``signed_code``; never a retired one (the foreign key sees to it)."""


class TicketRevocation(Table, tablename="ticket_revocations"):
    """A ticket cancelled, or whose signed code was replaced (its key retired): what a door
    device that verifies codes offline must refuse (``GET /events/{id}/revocations``)."""

    id = UUID(primary_key=True)
    organization_id = ForeignKey(references=Organization, on_delete=OnDelete.cascade, null=False)
    event_id = ForeignKey(references=Event, on_delete=OnDelete.cascade, null=False)
    ticket_id = ForeignKey(references=Ticket, on_delete=OnDelete.cascade, null=False)
    reason = Varchar(length=20)
    """``cancelled`` or ``code_replaced``."""
    kid = Varchar(length=16, null=True, default=None)
    """The retired key whose codes of the ticket are no longer good (``code_replaced``)."""
    revoked_at = Timestamptz()


class ScannerProfile(Table, tablename="scanner_profiles"):
    """Rules of a scanner. Empty target lists mean "all"; null window bounds mean "no bound"."""

    id = UUID(primary_key=True)
    organization_id = ForeignKey(references=Organization, on_delete=OnDelete.cascade)
    name = Varchar(length=200)
    opens_minutes_before_start = Integer(null=True, default=None)
    closes_minutes_after_end = Integer(null=True, default=None)
    valid_from = Timestamptz(null=True, default=None)
    valid_until = Timestamptz(null=True, default=None)
    created_at = Timestamptz()
    updated_at = Timestamptz()
    entry_policy = Varchar(length=10, default="single")
    """``single``, ``reentry`` or ``multiple`` (CONTRACT.md section 17)."""


class ScannerProfileTarget(Table, tablename="scanner_profile_targets"):
    """One allowed event, ticket type or timeslot of a profile: exactly one of the three foreign
    keys is set (a database rule), and deleting the row it names removes it from the profile.
    Each is unique per profile (an index that also serves the cascade; see ``db/migrations``)."""

    id = UUID(primary_key=True)
    profile_id = ForeignKey(references=ScannerProfile, on_delete=OnDelete.cascade, index=True)
    event_id = ForeignKey(references=Event, on_delete=OnDelete.cascade, null=True, default=None)
    ticket_type_id = ForeignKey(
        references=TicketType, on_delete=OnDelete.cascade, null=True, default=None
    )
    timeslot_id = ForeignKey(
        references=Timeslot, on_delete=OnDelete.cascade, null=True, default=None
    )


class Scanner(Table, tablename="scanners"):
    id = UUID(primary_key=True)
    organization_id = ForeignKey(references=Organization, on_delete=OnDelete.cascade)
    name = Varchar(length=200)
    active = Boolean(default=True)
    profile_id = ForeignKey(
        references=ScannerProfile, on_delete=OnDelete.set_null, null=True, default=None, index=True
    )
    created_at = Timestamptz()


class Scan(Table, tablename="scans"):
    """The scan log: one row per attempt, whatever its outcome. On PostgreSQL its references are
    not foreign-key constraints (migration 2026-11-27T01:20: each check key-share-locked the
    organization's and the scanner's row for every scan); SQLite keeps them."""

    id = UUID(primary_key=True)
    organization_id = ForeignKey(references=Organization, on_delete=OnDelete.cascade)
    ticket_id = ForeignKey(references=Ticket, on_delete=OnDelete.cascade)
    """Indexed by ``scans_ticket_created`` (ticket, created_at, id)."""
    scanner_id = ForeignKey(references=Scanner, on_delete=OnDelete.cascade)
    """Not indexed: nothing filters the log by scanner alone (migration 2026-11-27T05:00)."""
    status = Varchar(length=12)
    reason = Varchar(length=30, null=True, default=None)
    created_at = Timestamptz()
    """When the row was written: the moment the server received the attempt."""
    scanned_at = Timestamptz()
    """When the device scanned (its clock, CONTRACT.md section 11): the moment decided at."""
    received_at = Timestamptz()
    """When the server received the attempt (``created_at``; both kept for the contract)."""
    nonce = Varchar(length=64, null=True, default=None)
    """The device's id of the attempt, unique per organization (``scans_org_nonce_unique``)."""
    result_scanned_at = Timestamptz(null=True, default=None)
    """The ``scanned_at`` the answer carried, so that a repeated nonce answers the same."""
    direction = Varchar(length=5, default="entry")
    """``entry`` or ``exit``."""
    result_inside = Boolean(null=True, default=None)
    """The presence the answer carried (null before 2026-11-26T12:00: the ticket's then)."""


class Webhook(Table, tablename="webhooks"):
    """A subscription. ``secret`` signs deliveries, so it is kept readable (HMAC needs it); after
    a rotation ``previous_secret`` signs too, until ``previous_secret_expires_at``."""

    id = UUID(primary_key=True)
    organization_id = ForeignKey(references=Organization, on_delete=OnDelete.cascade)
    url = Text()
    event_types = JSON(default=[])
    description = Varchar(length=255, default="")
    secret = Varchar(length=100)
    previous_secret = Varchar(length=100, null=True, default=None)
    previous_secret_expires_at = Timestamptz(null=True, default=None)
    active = Boolean(default=True)
    disabled_reason = Varchar(length=200, null=True, default=None)
    created_at = Timestamptz()


class OutboxEvent(Table, tablename="outbox_events"):
    """A domain event, written in the transaction of the change that caused it. On PostgreSQL
    ``organization_id`` is not a foreign-key constraint (migration 2026-11-27T01:20)."""

    id = UUID(primary_key=True)
    organization_id = ForeignKey(references=Organization, on_delete=OnDelete.cascade)
    event_type = Varchar(length=40)
    payload = JSON(default={})
    created_at = Timestamptz()
    relayed_at = Timestamptz(null=True, default=None)
    """Indexed only while null (``outbox_unrelayed_since``, migration 2026-11-27T01:10)."""


class WebhookDelivery(Table, tablename="webhook_deliveries"):
    """One (event, subscription) pair; its attempts are in :class:`WebhookDeliveryAttempt`.

    ``next_attempt_at`` is when the pair is next taken up: its next try, or, while a try is
    queued or running, when it is taken up again should that try be lost. ``attempt_started_at``
    is set while an attempt is in flight. ``dispatched_at`` is set while the pair is handed out
    (queued or in flight), so that each subscription has at most its share handed out."""

    id = UUID(primary_key=True)
    organization_id = ForeignKey(references=Organization, on_delete=OnDelete.cascade)
    webhook_id = ForeignKey(references=Webhook, on_delete=OnDelete.cascade)
    event_id = ForeignKey(references=OutboxEvent, on_delete=OnDelete.cascade, index=True)
    status = Varchar(length=12, default="pending")
    attempts = Integer(default=0)
    last_status_code = Integer(null=True, default=None)
    last_error = Text(null=True, default=None)
    next_attempt_at = Timestamptz(null=True, default=None)
    attempt_started_at = Timestamptz(null=True, default=None)
    dispatched_at = Timestamptz(null=True, default=None)
    delivered_at = Timestamptz(null=True, default=None)
    created_at = Timestamptz()
    updated_at = Timestamptz()


class WebhookDeliveryAttempt(Table, tablename="webhook_delivery_attempts"):
    id = UUID(primary_key=True)
    delivery_id = ForeignKey(references=WebhookDelivery, on_delete=OnDelete.cascade, index=True)
    attempt = Integer()
    status_code = Integer(null=True, default=None)
    error = Text(null=True, default=None)
    duration_ms = Integer(default=0)
    started_at = Timestamptz()


class AuditEntry(Table, tablename="audit_log"):
    """One admin action: who (a user through the dashboard, an API key or an OAuth client, or an
    operator at the command line), what (``action`` on a target), when. ``actor_email`` is kept
    as it was then; ``details`` never holds a secret (``app/services/audit.py``)."""

    id = UUID(primary_key=True)
    organization_id = ForeignKey(references=Organization, on_delete=OnDelete.cascade, null=False)
    actor_user_id = ForeignKey(
        references=User, on_delete=OnDelete.set_null, null=True, default=None, index=True
    )
    actor_email = Varchar(length=320, null=True, default=None)
    actor_via = Varchar(length=20)
    actor_detail = Varchar(length=200, null=True, default=None)
    action = Varchar(length=60)
    target_type = Varchar(length=40)
    target_id = Varchar(length=100, null=True, default=None)
    target_label = Varchar(length=300, default="")
    details = JSON(default={})
    created_at = Timestamptz()


class TicketCount(Table, tablename="ticket_counts"):
    """An event's tickets by status, kept by triggers (migration 2026-11-23T01:17) and read with
    SQL of its own (``db/counts.py``), never through this class. Its key is (event_id, shard);
    Piccolo declares one primary-key column, so ``event_id`` stands for it here."""

    event_id = UUID(primary_key=True)
    organization_id = UUID(index=True)
    shard = Integer()
    valid = BigInt(default=0)
    scanned = BigInt(default=0)
    cancelled = BigInt(default=0)


class OrderCount(Table, tablename="order_counts"):
    """An event's orders by status: as :class:`TicketCount`."""

    event_id = UUID(primary_key=True)
    organization_id = UUID(index=True)
    shard = Integer()
    pending = BigInt(default=0)
    confirmed = BigInt(default=0)
    cancelled = BigInt(default=0)


class AttendanceCount(Table, tablename="attendance_counts"):
    """A timeslot's attendance (CONTRACT.md section 17), written by the scans' own statements
    (``db/scans.py``) and read with SQL of its own (``db/attendance.py``). Its key is
    (timeslot_id, shard); Piccolo declares one primary-key column, so ``timeslot_id`` stands for
    it here."""

    timeslot_id = UUID(primary_key=True)
    organization_id = UUID()
    event_id = UUID(index=True)
    shard = Integer()
    admitted = BigInt(default=0)
    inside = BigInt(default=0)
    entries = BigInt(default=0)
    exits = BigInt(default=0)


class IdempotencyKey(Table, tablename="idempotency_keys"):
    """The first answer to a request with an ``Idempotency-Key``, per credential, for 24 hours;
    read and written with SQL of its own (``db/idempotency.py``)."""

    id = UUID(primary_key=True)
    organization_id = ForeignKey(references=Organization, on_delete=OnDelete.cascade, null=False)
    credential = Varchar(length=200)
    key = Varchar(length=255)
    fingerprint = Varchar(length=64)
    status = Integer()
    content_type = Varchar(length=255, null=True, default=None)
    location = Text(null=True, default=None)
    body = Bytea()
    created_at = Timestamptz()
    expires_at = Timestamptz(index=True)


class RequestLogEntry(Table, tablename="request_log"):
    """One request of an API key or an OAuth token (CONTRACT.md section 18), written off the
    request path (``app/services/request_log.py``); never a body, a query value or a secret."""

    id = UUID(primary_key=True)
    organization_id = ForeignKey(
        references=Organization, on_delete=OnDelete.cascade, index=True, null=False
    )
    credential_id = UUID()
    method = Varchar(length=10)
    path = Varchar(length=500)
    status = Integer()
    duration_ms = Real()
    request_id = Varchar(length=200)
    idempotency_key = Varchar(length=255, null=True, default=None)
    created_at = Timestamptz()


TABLES: list[type[Table]] = [
    Organization,
    User,
    Membership,
    DashboardSession,
    ApiKey,
    CredentialRevision,
    OAuthClient,
    OAuthGrant,
    OAuthAuthorizationCode,
    OAuthRefreshToken,
    OAuthConsentTicket,
    SigningKey,
    Event,
    ScanKey,
    TicketType,
    Timeslot,
    TimeslotTicketType,
    Order,
    Hold,
    Ticket,
    TicketRevocation,
    ScannerProfile,
    ScannerProfileTarget,
    Scanner,
    Scan,
    Webhook,
    OutboxEvent,
    WebhookDelivery,
    WebhookDeliveryAttempt,
    AuditEntry,
    TicketCount,
    OrderCount,
    AttendanceCount,
    IdempotencyKey,
    RequestLogEntry,
]
