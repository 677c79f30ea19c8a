"""The ``ticketing`` command line (CONTRACT.md section 9). Create commands print one JSON object."""

from __future__ import annotations

import argparse
import asyncio
import logging
import sys
from collections.abc import Awaitable, Callable, Coroutine, Sequence
from pathlib import Path
from typing import Any

import msgspec
from asyncpg.exceptions import InsufficientPrivilegeError

from app.errors import DomainError, Unavailable
from app.ids import parse_id
from app.principal import ROLES
from app.schemas.webhook_events import SUBSCRIBABLE
from app.settings import SettingsError, get_settings

ROLE_METAVAR = "{" + ",".join(ROLES) + "}"
"""``--role`` takes any text: the service refuses a role it does not know with the one-line error
every command prints, where argparse's ``choices`` would print its usage as well."""


def _print_json(value: Any) -> None:
    sys.stdout.write(msgspec.json.encode(value).decode() + "\n")
    sys.stdout.flush()


async def _with_database(work: Callable[[], Awaitable[Any]], *, migrated: bool = True) -> Any:
    """Run ``work`` with the database open; unless told otherwise, refuse (one line, non-zero
    exit) when the database has pending migrations. A database that cannot serve (missing, a
    role it refuses, down: ``db.availability``) is one line naming it and what to do."""
    from db.availability import describe, unavailable
    from db.engine import bind_engine, create_engine, start_engine, stop_engine
    from db.migrate import NOT_MIGRATED, pending_migrations

    settings = get_settings()
    engine = create_engine(settings)
    bind_engine(engine)
    await start_engine(engine)
    try:
        if migrated and await pending_migrations():
            raise Unavailable(NOT_MIGRATED)
        return await work()
    except Exception as error:
        if isinstance(error, InsufficientPrivilegeError) or unavailable(error):
            raise Unavailable(describe(error, settings.database_url)) from None
        raise
    finally:
        await stop_engine(engine)


class UUIDArgument(argparse.Action):
    """An option or argument that takes an id (``--org``, ``id``), checked as the services check
    one (``app.ids.parse_id``). argparse handles only its own errors (with its usage on top), so
    the ``InvalidInput`` of a malformed id reaches ``main``, which prints it as every command error
    is printed: ``ticketing: org: not a UUID: '...'``."""

    def __call__(
        self,
        parser: argparse.ArgumentParser,
        namespace: argparse.Namespace,
        values: str | Sequence[Any] | None,
        option_string: str | None = None,
    ) -> None:
        setattr(namespace, self.dest, parse_id(str(values), self.dest))


def cmd_migrate(_: argparse.Namespace) -> None:
    """Apply pending migrations and say which (or that there were none)."""
    from db.migrate import migrate

    applied = asyncio.run(_with_database(migrate, migrated=False))
    for migration in applied:
        sys.stdout.write(f"applied {migration.id}: {migration.description}\n")
    if not applied:
        sys.stdout.write("the database is current: no migration to apply\n")


async def _migration_warning() -> str | None:
    """Why the server will answer 503 at first, if it will: one bounded look at the database."""
    from app.runtime.readiness import CHECK_TIMEOUT_SECONDS
    from db.migrate import NOT_MIGRATED, pending_migrations

    async def pending() -> Any:
        async with asyncio.timeout(2 * CHECK_TIMEOUT_SECONDS):
            return await pending_migrations()

    try:
        if await _with_database(pending, migrated=False):
            return f"{NOT_MIGRATED}; until then requests get 503"
    except Unavailable as error:
        return f"{error.detail}; until then requests get 503 and /readyz says what is missing"
    except Exception as error:
        return f"the database did not answer ({type(error).__name__}); /readyz says when it does"
    return None


def cmd_serve(args: argparse.Namespace) -> None:
    """Serve the API; ``--workers`` runs that many processes on one port (PostgreSQL only: every
    rule that must hold across processes is enforced in the database). The server starts even when
    the database is not migrated or not reachable: it says so in one line, answers 503 meanwhile,
    and ``/readyz`` tells an orchestrator when it is ready."""
    from app.runtime.logging import configure_logging
    from ticketing.server import PortInUse, serve

    settings = get_settings()
    if args.workers > 1 and settings.is_sqlite:
        sys.exit("ticketing: --workers above 1 needs PostgreSQL (DATABASE_URL=postgresql://...)")
    configure_logging(settings.log_level, settings.log_format)
    warning = asyncio.run(_migration_warning())
    if warning is not None:
        logging.getLogger("ticketing.server").warning(warning)
    try:
        serve(host=args.host, port=args.port, workers=args.workers, settings=settings)
    except PortInUse as error:
        sys.exit(f"ticketing: {error}")


def cmd_worker(args: argparse.Namespace) -> None:
    from workers.arq_worker import main as run_worker

    settings = get_settings()
    if settings.redis_url is None:
        raise SettingsError(
            "ticketing worker needs REDIS_URL; without it, ticketing serve delivers webhooks itself"
        )
    asyncio.run(_with_database(_nothing))
    run_worker(settings, metrics_host=args.metrics_host, metrics_port=args.metrics_port)


async def _nothing() -> None:
    """The work of a command that only needs the database's migrations checked."""


def cmd_org_create(args: argparse.Namespace) -> None:
    from app.services.organizations import create_organization

    _print_json(
        asyncio.run(
            _with_database(lambda: create_organization(args.name, args.currency, args.timezone))
        )
    )


def cmd_org_set_timezone(args: argparse.Namespace) -> None:
    from app.services.organizations import set_timezone

    asyncio.run(_with_database(lambda: set_timezone(args.org, args.timezone)))
    _print_json({"id": str(args.org), "timezone": args.timezone})


def cmd_user_create(args: argparse.Namespace) -> None:
    from app.services.organizations import add_member

    _print_json(asyncio.run(_with_database(lambda: add_member(args.org, args.email, args.role))))


def cmd_user_set_role(args: argparse.Namespace) -> None:
    from app.services.organizations import set_role

    _print_json(asyncio.run(_with_database(lambda: set_role(args.org, args.email, args.role))))


def cmd_api_key_create(args: argparse.Namespace) -> None:
    from app.services.api_keys import create_api_key

    created = asyncio.run(
        _with_database(
            lambda: create_api_key(
                args.org, args.user_email, args.scopes, args.name, test=args.test
            )
        )
    )
    _print_json({"id": created.id, "key": created.key, "scopes": created.scopes})


def cmd_api_key_revoke(args: argparse.Namespace) -> None:
    from app.services.api_keys import revoke_api_key

    asyncio.run(_with_database(lambda: revoke_api_key(args.id)))
    _print_json({"id": args.id, "revoked": True})


def cmd_oauth_client_create(args: argparse.Namespace) -> None:
    from app.services.oauth.clients import create_client

    created = asyncio.run(
        _with_database(
            lambda: create_client(
                args.org,
                args.user_email,
                args.name,
                args.redirect_uri,
                args.scopes,
                public=args.public,
                trusted=args.trusted,
                test=args.test,
            )
        )
    )
    _print_json({"client_id": created.client_id, "client_secret": created.client_secret})


def cmd_oauth_client_disable(args: argparse.Namespace) -> None:
    from app.services.oauth.clients import set_disabled

    disabled = args.action == "disable"
    asyncio.run(_with_database(lambda: set_disabled(args.client_id, disabled)))
    _print_json({"client_id": args.client_id, "disabled": disabled})


def cmd_oauth_client_delete(args: argparse.Namespace) -> None:
    from app.services.oauth.clients import delete_client

    asyncio.run(_with_database(lambda: delete_client(args.client_id)))
    _print_json({"client_id": args.client_id, "deleted": True})


def cmd_oauth_client_rotate_secret(args: argparse.Namespace) -> None:
    from app.services.oauth.clients import rotate_secret

    secret = asyncio.run(_with_database(lambda: rotate_secret(args.client_id)))
    _print_json({"client_id": args.client_id, "client_secret": secret})


def cmd_signing_key_rotate(_: argparse.Namespace) -> None:
    from app.services.oauth.signing_keys import rotate

    kid = asyncio.run(_with_database(lambda: rotate(get_settings())))
    _print_json({"kid": kid, "algorithm": "ES256"})


def _dev_idp_directory(args: argparse.Namespace) -> Path:
    if args.dir:
        return Path(args.dir)
    jwks_file = get_settings().idp_jwks_file
    return jwks_file.parent if jwks_file is not None else Path(".dev-idp")


def cmd_dev_idp_init(args: argparse.Namespace) -> None:
    from app.services.oauth.dev_idp import DEV_AUDIENCE, ensure_dev_idp

    issuer, jwks_path = ensure_dev_idp(_dev_idp_directory(args))
    _print_json(
        {
            "TICKETING_IDP_ISSUER": issuer,
            "TICKETING_IDP_JWKS_FILE": str(jwks_path),
            "TICKETING_IDP_AUDIENCE": DEV_AUDIENCE,
        }
    )


def cmd_dev_idp_token(args: argparse.Namespace) -> None:
    from datetime import timedelta

    from app.services.oauth.dev_idp import DEV_AUDIENCE, DEV_ISSUER, mint_user_token

    token = mint_user_token(
        args.email,
        _dev_idp_directory(args),
        audience=get_settings().idp_audience or DEV_AUDIENCE,
        lifetime=timedelta(minutes=args.minutes),
        issuer=args.issuer or get_settings().idp_issuer or DEV_ISSUER,
    )
    sys.stdout.write(token + "\n")


def cmd_demo(args: argparse.Namespace) -> None:
    from ticketing.demo import run
    from ticketing.server import PortInUse

    try:
        run(args.database, args.reset, args.host, args.port)
    except PortInUse as error:
        sys.exit(f"ticketing: {error}")


def _api_key() -> str:
    import os

    from ticketing.devkit import DevkitError

    key = os.environ.get("TICKETING_API_KEY", "").strip()
    if not key:
        raise DevkitError("set TICKETING_API_KEY to an API key (tk_test_... or tk_live_...)")
    return key


def _devkit(work: Callable[[], Coroutine[Any, Any, Any]]) -> Any:
    from ticketing.devkit import DevkitError

    try:
        return asyncio.run(work())
    except DevkitError as error:
        sys.exit(f"ticketing: {error}")


def cmd_listen(args: argparse.Namespace) -> None:
    from ticketing.devkit import listen

    def say(line: str) -> None:
        sys.stdout.write(line + "\n")
        sys.stdout.flush()

    if args.print_secret:
        say(_devkit_secret())
        return
    if not args.forward_to:
        sys.exit("ticketing: listen needs --forward-to URL")
    api_url = args.api_url or get_settings().public_url
    _devkit(lambda: listen(api_url, _api_key(), args.forward_to, args.events, say=say))


def _devkit_secret() -> str:
    from ticketing.devkit import DevkitError, listen_secret

    try:
        return listen_secret(_api_key())
    except DevkitError as error:
        sys.exit(f"ticketing: {error}")


def cmd_trigger(args: argparse.Namespace) -> None:
    from ticketing.devkit import trigger

    api_url = args.api_url or get_settings().public_url
    _print_json(_devkit(lambda: trigger(api_url, _api_key(), args.event_type)))


API_URL_HELP = "the service's base URL (default: TICKETING_PUBLIC_URL)"
TEST_HELP = "of the organization's test twin (a tk_test_ key): sees and changes only test data"


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="ticketing", description="Event-ticketing API service")
    commands = parser.add_subparsers(dest="command", required=True)

    serve = commands.add_parser("serve", help="serve the HTTP API")
    serve.add_argument("--host", default="127.0.0.1")
    serve.add_argument("--port", type=int, default=8000)
    serve.add_argument("--workers", type=int, default=1, help="server processes (default 1)")
    serve.set_defaults(handler=cmd_serve)

    worker = commands.add_parser("worker", help="run the webhook worker (arq; needs REDIS_URL)")
    worker.add_argument(
        "--metrics-port", type=int, default=None, help="serve Prometheus metrics on this port"
    )
    worker.add_argument(
        "--metrics-host", default="127.0.0.1", help="address of the metrics port (127.0.0.1)"
    )
    worker.set_defaults(handler=cmd_worker)

    demo = commands.add_parser(
        "demo", help="seed a demo organization on SQLite and serve it (no other services needed)"
    )
    demo.add_argument("--host", default="127.0.0.1")
    demo.add_argument("--port", type=int, default=8000)
    demo.add_argument(
        "--database",
        default=None,
        help="SQLite file (default: DATABASE_URL if set, else ./ticketing-demo.sqlite3)",
    )
    demo.add_argument("--reset", action="store_true", help="delete the SQLite file and reseed")
    demo.set_defaults(handler=cmd_demo)

    commands.add_parser("migrate", help="apply database migrations").set_defaults(
        handler=cmd_migrate
    )

    org = commands.add_parser("org", help="organizations").add_subparsers(
        dest="action", required=True
    )
    org_create = org.add_parser("create", help="create an organization")
    org_create.add_argument("--name", required=True)
    org_create.add_argument("--currency", default="EUR")
    org_create.add_argument(
        "--timezone", default="UTC", help="IANA time zone the dashboard shows times in"
    )
    org_create.set_defaults(handler=cmd_org_create)
    org_zone = org.add_parser("set-timezone", help="the time zone the dashboard shows times in")
    org_zone.add_argument("--org", required=True, action=UUIDArgument)
    org_zone.add_argument("--timezone", required=True, help="IANA name, e.g. Europe/Amsterdam")
    org_zone.set_defaults(handler=cmd_org_set_timezone)

    user = commands.add_parser("user", help="users").add_subparsers(dest="action", required=True)
    user_create = user.add_parser("create", help="add a member to an organization")
    user_create.add_argument("--org", required=True, action=UUIDArgument)
    user_create.add_argument("--email", required=True)
    user_create.add_argument(
        "--role",
        metavar=ROLE_METAVAR,
        default="admin",
        help="dashboard role: admin reads and changes, member reads (default admin)",
    )
    user_create.set_defaults(handler=cmd_user_create)
    user_role = user.add_parser("set-role", help="make a member an admin or a reader")
    user_role.add_argument("--org", required=True, action=UUIDArgument)
    user_role.add_argument("--email", required=True)
    user_role.add_argument("--role", required=True, metavar=ROLE_METAVAR, help=" or ".join(ROLES))
    user_role.set_defaults(handler=cmd_user_set_role)

    key = commands.add_parser("api-key", help="API keys").add_subparsers(
        dest="action", required=True
    )
    key_create = key.add_parser("create", help="create an API key (shown once)")
    key_create.add_argument("--org", required=True, action=UUIDArgument)
    key_create.add_argument("--user-email", required=True)
    key_create.add_argument(
        "--scopes", required=True, help='space-separated, e.g. "events.read orders.read"'
    )
    key_create.add_argument("--name", default="")
    key_create.add_argument("--test", action="store_true", help=TEST_HELP)
    key_create.set_defaults(handler=cmd_api_key_create)
    key_revoke = key.add_parser("revoke", help="revoke an API key")
    key_revoke.add_argument("id", action=UUIDArgument)
    key_revoke.set_defaults(handler=cmd_api_key_revoke)

    oauth_client = commands.add_parser("oauth-client", help="OAuth clients").add_subparsers(
        dest="action", required=True
    )
    client_create = oauth_client.add_parser(
        "create", help="register an OAuth client (the secret is shown once)"
    )
    client_create.add_argument("--org", required=True, action=UUIDArgument)
    client_create.add_argument("--user-email", required=True)
    client_create.add_argument("--name", required=True)
    client_create.add_argument(
        "--redirect-uri", required=True, action="append", help="exact match; repeat for more"
    )
    client_create.add_argument("--scopes", default=None, help="space-separated; default: all")
    client_create.add_argument(
        "--public", action="store_true", help="no secret; PKCE (S256) required"
    )
    client_create.add_argument("--trusted", action="store_true", help="skip the consent page")
    client_create.add_argument("--test", action="store_true", help=TEST_HELP)
    client_create.set_defaults(handler=cmd_oauth_client_create)
    for action, handler, text in (
        ("disable", cmd_oauth_client_disable, "refuse the client's tokens and issue none"),
        ("enable", cmd_oauth_client_disable, "let a disabled client work again"),
        ("delete", cmd_oauth_client_delete, "delete the client; its tokens stop working"),
        ("rotate-secret", cmd_oauth_client_rotate_secret, "a new secret (shown once)"),
    ):
        changing = oauth_client.add_parser(action, help=text)
        changing.add_argument("client_id", help="the client_id printed by create")
        changing.set_defaults(handler=handler)

    listen = commands.add_parser(
        "listen",
        help="forward the organization's events to a local URL (key: TICKETING_API_KEY)",
    )
    listen.add_argument("--forward-to", default=None, help="the local URL to POST each event to")
    listen.add_argument(
        "--print-secret",
        action="store_true",
        help="print the signing secret of TICKETING_API_KEY and exit (the same on every start)",
    )
    listen.add_argument("--events", default="", help="comma-separated event types; default: all")
    listen.add_argument("--api-url", default=None, help=API_URL_HELP)
    listen.set_defaults(handler=cmd_listen)
    trigger = commands.add_parser(
        "trigger", help="cause a test event with fresh test data (a test key: TICKETING_API_KEY)"
    )
    trigger.add_argument("event_type", help=" or ".join(SUBSCRIBABLE))
    trigger.add_argument("--api-url", default=None, help=API_URL_HELP)
    trigger.set_defaults(handler=cmd_trigger)

    signing_key = commands.add_parser(
        "signing-key", help="the keys that sign OAuth access tokens"
    ).add_subparsers(dest="action", required=True)
    signing_key.add_parser(
        "rotate", help="sign with a new key; old ones stay valid for an hour"
    ).set_defaults(handler=cmd_signing_key_rotate)

    dev_idp = commands.add_parser(
        "dev-idp", help="the development identity provider (demo and local trials)"
    ).add_subparsers(dest="action", required=True)
    dev_idp_init = dev_idp.add_parser("init", help="create its key; print the settings to use")
    dev_idp_init.add_argument(
        "--dir", default=None, help="default: next to the JWKS file, or .dev-idp"
    )
    dev_idp_init.set_defaults(handler=cmd_dev_idp_init)
    dev_idp_token = dev_idp.add_parser("token", help="print a signed-in user's JWT")
    dev_idp_token.add_argument("--email", required=True)
    dev_idp_token.add_argument(
        "--dir", default=None, help="default: next to the JWKS file, or .dev-idp"
    )
    dev_idp_token.add_argument("--minutes", type=int, default=30, help="lifetime (default 30)")
    dev_idp_token.add_argument(
        "--issuer",
        default=None,
        help="the iss claim (default: TICKETING_IDP_ISSUER, else the dev provider's own name)",
    )
    dev_idp_token.set_defaults(handler=cmd_dev_idp_token)
    return parser


def main(argv: list[str] | None = None) -> None:
    try:
        args = build_parser().parse_args(argv)
        get_settings()
        args.handler(args)
    except SettingsError as error:
        sys.exit(f"ticketing: configuration error: {error}")
    except DomainError as error:
        sys.exit(f"ticketing: {error.detail}")
    except KeyboardInterrupt:
        pass
