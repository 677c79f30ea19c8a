"""The database settings of a deployment behind a pooler (docs/deployment.md): the listen URL, the
statement cache, several hosts; and the one line an operator reads when the database cannot
serve (``db/availability.py``)."""

from __future__ import annotations

import asyncpg
import pytest

from app.settings import SettingsError, load_settings
from db.availability import describe, place_of, unavailable
from db.engine import LazyPostgresEngine, create_engine

POOLERS = "postgresql://ticketing:secret@pgb-a:6432,pgb-b:6432/shop?target_session_attrs=read-write"


def test_behind_a_pooler_the_cache_is_off_and_listen_goes_around_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("DATABASE_URL", POOLERS)
    monkeypatch.setenv("TICKETING_DATABASE_STATEMENT_CACHE_SIZE", "0")
    monkeypatch.setenv("TICKETING_DATABASE_LISTEN_URL", "postgresql://ticketing@db-a,db-b/shop")
    settings = load_settings()
    assert settings.listen_url == "postgresql://ticketing@db-a,db-b/shop"
    engine = create_engine(settings)
    assert isinstance(engine, LazyPostgresEngine)
    assert engine.config["statement_cache_size"] == 0
    assert engine.config["dsn"] == POOLERS


def test_without_a_listen_url_the_worker_listens_on_the_database_url(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("DATABASE_URL", POOLERS)
    monkeypatch.delenv("TICKETING_DATABASE_LISTEN_URL", raising=False)
    monkeypatch.delenv("TICKETING_DATABASE_STATEMENT_CACHE_SIZE", raising=False)
    settings = load_settings()
    assert settings.listen_url == POOLERS
    assert settings.database_statement_cache_size == 100


@pytest.mark.parametrize(
    ("database_url", "listen_url"),
    [(POOLERS, "redis://cache:6379/0"), ("sqlite:///demo.sqlite3", "postgresql://db/shop")],
)
def test_a_listen_url_that_cannot_listen_stops_start_up(
    monkeypatch: pytest.MonkeyPatch, database_url: str, listen_url: str
) -> None:
    monkeypatch.setenv("DATABASE_URL", database_url)
    monkeypatch.setenv("TICKETING_DATABASE_LISTEN_URL", listen_url)
    with pytest.raises(SettingsError, match="TICKETING_DATABASE_LISTEN_URL"):
        load_settings()


def test_several_hosts_are_named_without_the_password() -> None:
    place = place_of(POOLERS)
    assert (place.hosts, place.database, place.user) == (
        "pgb-a:6432,pgb-b:6432",
        "shop",
        "ticketing",
    )
    assert place_of("postgresql://ops@db/").hosts == "db:5432"
    line = describe(asyncpg.InvalidCatalogNameError('database "shop" does not exist'), POOLERS)
    assert line.startswith('database "shop" at pgb-a:6432,pgb-b:6432 does not exist')
    assert "secret" not in line


def test_a_client_error_on_a_closed_connection_is_the_database_away_not_a_bug() -> None:
    try:
        try:
            raise asyncpg.ConnectionDoesNotExistError("server conn crashed?")
        except asyncpg.ConnectionDoesNotExistError:
            raise asyncpg.InterfaceError("cannot call Transaction.rollback(): busy") from None
    except asyncpg.InterfaceError as error:
        assert not unavailable(error)  # ``from None`` hides the cause: a bug of ours
    closed = asyncpg.InterfaceError("the underlying connection is closed")
    assert unavailable(closed)
    try:
        try:
            raise asyncpg.ConnectionDoesNotExistError("server conn crashed?")
        except asyncpg.ConnectionDoesNotExistError:
            raise asyncpg.InternalClientError("cannot switch to state 11")  # noqa: B904
    except asyncpg.InternalClientError as error:
        assert unavailable(error)
    assert not unavailable(asyncpg.InterfaceError("cannot perform operation: in progress"))
    confused = "cannot switch to state 15; another operation (2) is in progress"
    assert unavailable(asyncpg.InternalClientError(confused))  # seen on a COMMIT at a failover
