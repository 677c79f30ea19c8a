"""The services under the dashboard's pages, against the run's PostgreSQL: the audit log (who did
what, through the dashboard, the API or the command line, never a secret), the overview's sales
and admissions, the event's timeslot sales, the ticket search, and the OAuth applications with
the authorizations users gave them."""

from __future__ import annotations

import getpass
import uuid
from datetime import timedelta
from typing import Any

import msgspec
import pytest
from httpx import AsyncClient

from app.errors import Forbidden, InvalidInput, NotFound
from app.principal import Principal
from app.schemas.oauth import OAuthApplicationCreate
from app.schemas.scanners import ScannerCreate, ScannerUpdate
from app.services import audit, orders, overview, scanners, ticket_search
from app.services.oauth import applications, grants
from app.services.oauth.clients import create_client
from app.services.organizations import role_of
from app.timeutil import utcnow
from db.tables import OAuthClient, OAuthRefreshToken
from tests.dates import YEAR
from tests.processes import ticketing
from tests.support import (
    Tenant,
    create_event,
    create_venue,
    ok,
    open_door,
    order_tickets,
    place_order,
    problem,
)


def admin(tenant: Tenant) -> Principal:
    return Principal.for_session(tenant.org_id, tenant.user_id, "admin", uuid.uuid4())


def member(tenant: Tenant) -> Principal:
    return Principal.for_session(tenant.org_id, tenant.user_id, "member", uuid.uuid4())


async def api_key(tenant: Tenant) -> Principal:
    from app.services.api_keys import authenticate_api_key

    return await authenticate_api_key(tenant.key)


async def entries(tenant: Tenant) -> list[dict[str, Any]]:
    page = await audit.audit_log(admin(tenant), limit=100)
    return [msgspec.to_builtins(entry) for entry in page.data]


async def test_admin_actions_through_the_api_are_recorded_without_their_secrets(
    client: AsyncClient, tenant: Tenant, other_tenant: Tenant
) -> None:
    body = {
        "url": "http://127.0.0.1:9/hook?token=receiver-secret",
        "event_types": ["order.created"],
    }
    created = ok(await client.post("/webhooks", json=body, headers=tenant.headers), 201)
    hook = f"/webhooks/{created['id']}"
    ok(await client.patch(hook, json={"description": "CRM"}, headers=tenant.headers))
    rotated = ok(await client.post(f"{hook}/rotate-secret", headers=tenant.headers))
    ok(await client.post(f"{hook}/test", headers=tenant.headers), 202)
    ok(await client.delete(hook, headers=tenant.headers))
    problem(await client.delete(hook, headers=tenant.headers), 404)

    log = await entries(tenant)
    assert [entry["action"] for entry in log] == [
        "webhook.delete",
        "webhook.test",
        "webhook.rotate_secret",
        "webhook.update",
        "webhook.create",
        "api_key.create",
        "member.add",
    ]  # newest first; the refused second delete left nothing
    newest = log[0]
    assert newest["actor_via"] == "api_key"
    assert newest["actor_email"] == tenant.email
    assert newest["actor_user_id"] == str(tenant.user_id)
    assert newest["actor_detail"].startswith("tests (tk_live_")
    assert newest["target_type"] == "webhook"
    assert newest["target_id"] == created["id"]
    assert newest["target_label"] == "http://127.0.0.1:9/hook"
    assert log[3]["details"] == {"description": "CRM"}
    assert log[4]["details"]["event_types"] == ["order.created"]
    text = msgspec.json.encode(log).decode()
    for secret in (created["secret"], rotated["secret"], "receiver-secret", tenant.key):
        assert secret not in text
    assert [e["action"] for e in await entries(other_tenant)] == ["api_key.create", "member.add"]
    assert log[-1]["details"] == {"role": "admin"} and log[-1]["target_label"] == tenant.email


async def test_the_command_line_is_recorded_as_the_operator(
    client: AsyncClient, tenant: Tenant
) -> None:
    created = (
        await ticketing(
            "api-key", "create", "--org", str(tenant.org_id), "--user-email", tenant.email,
            "--scopes", "events.read", "--name", "reporting",
        )
    ).json()  # fmt: skip
    await ticketing("api-key", "revoke", created["id"])
    app = (
        await ticketing(
            "oauth-client", "create", "--org", str(tenant.org_id), "--user-email", tenant.email,
            "--name", "Box office", "--redirect-uri", "https://box.example/cb",
        )
    ).json()  # fmt: skip

    log = await entries(tenant)
    assert [e["action"] for e in log[:3]] == [
        "oauth_application.create",
        "api_key.revoke",
        "api_key.create",
    ]
    for entry in log[:3]:
        assert entry["actor_via"] == "cli"
        assert entry["actor_detail"] == getpass.getuser()
        assert entry["actor_user_id"] is None
    assert log[0]["target_id"] == app["client_id"]
    assert log[0]["target_label"] == "Box office"
    assert log[1]["target_id"] == created["id"]
    assert log[1]["target_label"].startswith("reporting (tk_live_")
    assert log[2]["details"] == {"scopes": ["events.read"], "user_email": tenant.email}
    text = msgspec.json.encode(log).decode()
    assert created["key"] not in text and app["client_secret"] not in text


async def test_a_role_changed_at_the_command_line_is_recorded(tenant: Tenant) -> None:
    changed = (
        await ticketing(
            "user", "set-role", "--org", str(tenant.org_id), "--email", tenant.email.upper(),
            "--role", "member",
        )
    ).json()  # fmt: skip
    assert changed["role"] == "member" and changed["email"] == tenant.email
    assert await role_of(tenant.org_id, tenant.user_id) == "member"
    await ticketing(
        "user", "set-role", "--org", str(tenant.org_id), "--email", tenant.email, "--role", "member"
    )  # unchanged: nothing recorded
    log = await entries(tenant)
    assert [(e["action"], e["details"], e["actor_via"]) for e in log[:2]] == [
        ("member.role", {"role": "member", "was": "admin"}, "cli"),
        ("api_key.create", {"scopes": log[1]["details"]["scopes"], "user_email": tenant.email},
         "cli"),
    ]  # fmt: skip
    unknown = await ticketing(
        "user", "set-role", "--org", str(tenant.org_id), "--email", "nobody@example.com",
        "--role", "admin",
    )  # fmt: skip
    assert "No member nobody@example.com" in unknown.failure()


async def test_people_read_the_audit_log_and_credentials_do_not(tenant: Tenant) -> None:
    page = await audit.audit_log(member(tenant))
    assert [entry.action for entry in page.data] == ["api_key.create", "member.add"]
    with pytest.raises(Forbidden):
        await audit.audit_log(await api_key(tenant))


async def test_orders_confirmed_and_cancelled_by_a_person_are_recorded(
    client: AsyncClient, tenant: Tenant
) -> None:
    venue = await create_venue(client, tenant)
    ids = (venue.event["id"], venue.timeslot["id"], [venue.ticket_type["id"]])
    by_api = await place_order(client, tenant, *ids, confirm=True)
    ok(await client.post(f"/orders/{by_api['id']}/cancel", headers=tenant.headers))
    in_dashboard = await place_order(client, tenant, *ids, buyer_name="Grace Hopper")
    order_id = uuid.UUID(in_dashboard["id"])

    await orders.confirm_order(admin(tenant), order_id)
    await orders.confirm_order(admin(tenant), order_id)  # idempotent: nothing more recorded
    await orders.cancel_order(admin(tenant), order_id)
    with pytest.raises(Forbidden):
        await orders.cancel_order(member(tenant), order_id)

    log = await entries(tenant)
    assert [(e["action"], e["actor_via"]) for e in log] == [
        ("order.cancel", "dashboard"),
        ("order.confirm", "dashboard"),
        ("api_key.create", "cli"),
        ("member.add", "cli"),
    ]
    assert log[0]["target_label"] == "Grace Hopper"
    assert log[0]["target_id"] == str(order_id)


async def test_scanner_changes_are_recorded_and_members_cannot_make_them(
    tenant: Tenant,
) -> None:
    scanner = await scanners.create_scanner(admin(tenant), ScannerCreate(name="North door"))
    await scanners.update_scanner(admin(tenant), scanner.id, ScannerUpdate(active=False))
    with pytest.raises(Forbidden):
        await scanners.create_scanner(member(tenant), ScannerCreate(name="Side door"))
    log = await entries(tenant)
    assert [(e["action"], e["target_label"], e["details"]) for e in log[:2]] == [
        ("scanner.update", "North door", {"active": False}),
        ("scanner.create", "North door", {"active": True, "profile_id": None}),
    ]


async def test_the_overview_counts_capacity_sales_and_admissions(
    client: AsyncClient, tenant: Tenant, other_tenant: Tenant
) -> None:
    soon = (utcnow() + timedelta(days=2)).isoformat()
    door = await open_door(client, tenant, tickets=3, title="Door night", starts_at=soon)
    venue = door.venue
    await create_event(client, tenant, title="Long ago", starts_at="2020-01-01T18:00:00Z")
    started = (utcnow() - timedelta(hours=2)).isoformat()
    await create_event(client, tenant, title="Tonight", starts_at=started)
    before = (utcnow() - timedelta(days=2)).isoformat()
    ended = (utcnow() - timedelta(days=1)).isoformat()
    await create_event(client, tenant, title="Yesterday", starts_at=before, ends_at=ended)
    await place_order(
        client, tenant, venue.event["id"], venue.timeslot["id"], [venue.ticket_type["id"]] * 2
    )
    cancelled = await place_order(
        client, tenant, venue.event["id"], venue.timeslot["id"], [venue.ticket_type["id"]]
    )
    ok(await client.post(f"/orders/{cancelled['id']}/cancel", headers=tenant.headers))
    for ticket in door.tickets[:2]:
        scan = {"scannable_code": ticket["scannable_code"], "scanner_id": door.scanner["id"]}
        assert (
            ok(await client.post("/scans", json=scan, headers=tenant.headers))["status"] == "valid"
        )
    await open_door(client, other_tenant, tickets=1, title="Elsewhere")

    events = await overview.upcoming_events(member(tenant))
    assert [(e.title, e.capacity, e.sold, e.admitted) for e in events] == [
        ("Tonight", 0, 0, 0),
        ("Door night", 100, 5, 2),
    ]
    one = await overview.event_overview(member(tenant), uuid.UUID(venue.event["id"]))
    assert (one.title, one.sold, one.admitted) == ("Door night", 5, 2)
    with pytest.raises(NotFound):
        await overview.event_overview(admin(other_tenant), uuid.UUID(venue.event["id"]))

    second = ok(
        await client.post(
            f"/events/{venue.event['id']}/timeslots",
            json={"title": "Matinee", "starts_at": f"{YEAR}-06-01T12:00:00Z",
                  "ends_at": f"{YEAR}-06-01T15:00:00Z", "total_available": 40},
            headers=tenant.headers,
        ),
        201,
    )  # fmt: skip
    sales = await overview.timeslot_sales(member(tenant), uuid.UUID(venue.event["id"]))
    assert [(t.title, t.total_available, t.sold) for t in sales.data] == [
        ("Matinee", 40, 0),
        ("Evening", 100, 5),
    ]
    assert second["id"] == str(sales.data[0].id)


async def test_the_ticket_search_finds_by_name_start_email_or_code(
    client: AsyncClient, tenant: Tenant, other_tenant: Tenant
) -> None:
    venue = await create_venue(client, tenant)
    ids = (venue.event["id"], venue.timeslot["id"], [venue.ticket_type["id"]])
    ada = await place_order(
        client, tenant, *ids, buyer_name="Ada Lovelace", buyer_email="ada@example.com"
    )
    await place_order(client, tenant, *ids, buyer_name="Adam Smith", buyer_email="adam@example.com")
    await place_order(
        client, tenant, *ids, buyer_name="Grace Hopper", buyer_email="grace@example.com"
    )
    code = (await order_tickets(client, tenant, ada))[0]["scannable_code"]
    event_id = uuid.UUID(venue.event["id"])

    async def names(query: str, principal: Principal | None = None) -> list[str]:
        page = await ticket_search.search_tickets(principal or member(tenant), event_id, query)
        return [ticket.owner_name for ticket in page.data]

    assert await names("ada") == ["Ada Lovelace", "Adam Smith"]
    assert await names("  ADA   l") == ["Ada Lovelace"]
    assert await names("Ada@Example.com") == ["Ada Lovelace"]
    assert await names(f"{code[:5].lower()}-{code[5:]}") == ["Ada Lovelace"]
    assert await names("hopper") == []
    assert await names("%") == []
    with pytest.raises(InvalidInput):
        await names("   ")
    with pytest.raises(NotFound):
        await names("ada", admin(other_tenant))


async def test_oauth_applications_secret_once_authorizations_and_revocation(
    client: AsyncClient, tenant: Tenant, other_tenant: Tenant
) -> None:
    data = OAuthApplicationCreate(
        name="Box office", redirect_uris=["https://box.example/cb"], scopes=["orders.read"]
    )
    with pytest.raises(Forbidden):
        await applications.register_application(member(tenant), data)
    with pytest.raises(Forbidden):
        await applications.register_application(await api_key(tenant), data)
    created = await applications.register_application(admin(tenant), data)
    assert created.client_secret is not None and created.client_secret.startswith("cs_")
    listed = await applications.list_applications(member(tenant))
    assert [(a.client_id, a.name, a.scopes) for a in listed.data] == [
        (created.client_id, "Box office", ["orders.read"])
    ]
    assert created.client_secret not in msgspec.json.encode(listed).decode()
    assert (await applications.list_applications(admin(other_tenant))).data == []
    with pytest.raises(Forbidden):
        await applications.list_applications(await api_key(tenant))

    client_pk = (
        await OAuthClient.select(OAuthClient.id)
        .where(OAuthClient.client_id == created.client_id)
        .first()
    )["id"]
    granted = await grants.create_family(client_pk, tenant.org_id, tenant.user_id, "orders.read")
    await grants.save_refresh_token("rt_dashboard-test", granted, "orders.read")
    await grants.create_family(
        client_pk, tenant.org_id, tenant.user_id, "orders.read", "client_credentials"
    )
    page = await applications.list_authorizations(member(tenant))
    assert [
        (a.id, a.application_name, a.user_email, a.scopes, a.revoked_at) for a in page.data
    ] == [(granted, "Box office", tenant.email, ["orders.read"], None)]

    with pytest.raises(Forbidden):
        await applications.revoke_authorization(member(tenant), granted)
    with pytest.raises(NotFound):
        await applications.revoke_authorization(admin(other_tenant), granted)
    await applications.revoke_authorization(admin(tenant), granted)
    await applications.revoke_authorization(admin(tenant), granted)  # again: nothing more
    assert (await applications.list_authorizations(member(tenant))).data[0].revoked_at is not None
    refresh = await OAuthRefreshToken.select(OAuthRefreshToken.revoked_at).where(
        OAuthRefreshToken.grant_id == granted
    )
    assert refresh[0]["revoked_at"] is not None
    assert await grants.find_refresh_token("rt_dashboard-test") is None

    log = await entries(tenant)
    assert [(e["action"], e["actor_via"], e["target_label"]) for e in log[:2]] == [
        ("oauth_authorization.revoke", "dashboard", "Box office"),
        ("oauth_application.create", "dashboard", "Box office"),
    ]
    assert log[0]["details"] == {"user_email": tenant.email, "scopes": ["orders.read"]}
    assert created.client_secret not in msgspec.json.encode(log).decode()


async def test_a_cli_registered_client_gets_a_client_credentials_family(
    client: AsyncClient, tenant: Tenant
) -> None:
    """Tokens a client gets for itself are not users' authorizations: they are not listed."""
    created = await create_client(
        tenant.org_id, tenant.email, "Reporting", ["https://r.example/cb"], "events.read"
    )
    token = await client.post(
        "/oauth2/token",
        data={"grant_type": "client_credentials"},
        auth=(created.client_id, created.client_secret or ""),
    )
    assert token.status_code == 200, token.text
    assert (await applications.list_authorizations(admin(tenant))).data == []
