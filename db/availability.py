"""Which failures of PostgreSQL mean "the database cannot serve now" (a 503 to the client, one
line for the operator, never a traceback), and that one line.

They are the failures of reaching it and of the session it gives: no answer, refused, closed in
the middle (a pooler giving up, a server shutting down), too many connections, a database or
role that does not exist, no read-write server among the hosts of ``DATABASE_URL`` (a failover
under way), a write that reached a read-only one. Everything else is a bug of ours or of the
request, and handled as such.
"""

from __future__ import annotations

import getpass
import os
from dataclasses import dataclass
from urllib.parse import unquote, urlsplit

from asyncpg import exceptions as pg

UNAVAILABLE: tuple[type[Exception], ...] = (
    OSError,
    pg.PostgresConnectionError,
    pg.CannotConnectNowError,
    pg.AdminShutdownError,
    pg.CrashShutdownError,
    pg.TooManyConnectionsError,
    pg.InvalidCatalogNameError,
    pg.InvalidAuthorizationSpecificationError,
    pg.ReadOnlySQLTransactionError,
    pg.TargetServerAttributeNotMatched,
)
"""The database cannot serve now; the same request may succeed later (``OSError`` includes
``TimeoutError`` and every refused or reset connection)."""
CLOSED = ("connection is closed", "connection was closed")
"""What asyncpg's client-side errors say when the connection went away under them: a server
connection that PgBouncer lost mid-transaction ("server conn crashed?") leaves asyncpg's
protocol confused, and the rollback that follows fails on the closed connection."""


def unavailable(error: BaseException) -> bool:
    """Whether ``error``, or one it was raised while handling, is the database unable to serve
    (an asyncpg client error on a connection that closed counts: its cause came first). An
    ``InternalClientError`` always counts: it is asyncpg's protocol state confused, which the
    connection's loss leaves behind (a failover drill saw "cannot switch to state 15; another
    operation (2) is in progress" on the COMMIT of a connection PgBouncer had just lost, with no
    cause attached), and the request is safe to retry with its idempotency key."""
    seen: set[int] = set()
    current: BaseException | None = error
    while current is not None and id(current) not in seen:
        seen.add(id(current))
        if isinstance(current, UNAVAILABLE):
            return True
        if isinstance(current, pg.InternalClientError):
            return True
        if isinstance(current, pg.InterfaceError) and any(text in str(current) for text in CLOSED):
            return True
        suppressed = current.__suppress_context__
        current = current.__cause__ or (None if suppressed else current.__context__)
    return False


@dataclass(frozen=True, slots=True)
class Place:
    """Where a PostgreSQL URL points, without its password."""

    hosts: str
    """``host:port``, comma-separated when the URL lists several."""
    database: str
    user: str


def place_of(url: str) -> Place:
    """The hosts, database and user of a ``postgresql://`` URL (several hosts allowed), with the
    defaults asyncpg applies: port 5432, ``PGUSER`` or the system user, a database named after the
    user."""
    parts = urlsplit(url)
    userinfo, _, hosts = parts.netloc.rpartition("@")
    user = unquote(userinfo.partition(":")[0]) or os.environ.get("PGUSER") or getpass.getuser()
    database = unquote(parts.path.lstrip("/")) or user
    named = [host if ":" in host.strip("[]") else f"{host}:5432" for host in hosts.split(",")]
    return Place(",".join(named), database, user)


def describe(error: BaseException, url: str) -> str:
    """One line for the operator: what is wrong with the database of ``url`` and what to do."""
    place = place_of(url)
    where = f'database "{place.database}" at {place.hosts}'
    reason = str(error).strip() or type(error).__name__
    if isinstance(error, pg.InvalidCatalogNameError):
        return (
            f"{where} does not exist: create it first "
            f'(createdb {place.database}, or CREATE DATABASE "{place.database}" as its '
            "owner), then run `ticketing migrate`"
        )
    if isinstance(error, pg.InvalidAuthorizationSpecificationError):
        return (
            f'{where} refused role "{place.user}" ({reason}): set a role that may connect '
            "to it, and its password, in DATABASE_URL"
        )
    if isinstance(error, pg.InsufficientPrivilegeError):
        return (
            f'role "{place.user}" may not do this in {where} ({reason}): run '
            "`ticketing migrate` as the database's owner, and grant the service's role what "
            "the migrations create"
        )
    if isinstance(error, pg.TargetServerAttributeNotMatched | pg.ReadOnlySQLTransactionError):
        return f"{where} has no read-write server now ({reason}): a failover may be under way"
    return f"{where} did not answer ({type(error).__name__}: {reason})"
