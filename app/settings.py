"""Every setting of the service, read once from the environment (CONTRACT.md section 9).

A bad value stops start-up with one clear line: :class:`SettingsError` carries that line and the
command line prints it.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from urllib.parse import urlsplit

from app.private_keys import UnusableKey, import_private_pem


class SettingsError(Exception):
    """A setting is missing or malformed; the message is the one line shown to the operator."""


@dataclass(frozen=True, slots=True)
class Settings:
    database_url: str
    redis_url: str | None
    public_url: str
    allow_private_webhooks: bool
    webhook_retry_base_seconds: float
    webhook_max_attempts: int
    queue_name: str
    idp_issuer: str | None
    idp_jwks_url: str | None
    idp_jwks_file: Path | None
    idp_audience: str | None
    signing_key_file: Path | None
    graphiql: bool
    log_level: str
    rate_limit_per_minute: int
    log_format: str = "text"
    access_log: bool = True
    metrics: bool = True
    gc_tuning: bool = True
    """Tune CPython's garbage collector for serving (``app.runtime.collector``) while it runs."""
    shutdown_timeout_seconds: float = 20.0
    database_pool_size: int = 20
    """PostgreSQL connections each server process may open (PostgreSQL's max_connections bounds
    the sum over processes and replicas)."""
    database_listen_url: str | None = None
    """A direct connection to the primary for ``LISTEN`` (a transaction pooler cannot carry one);
    unset: ``database_url``."""
    database_statement_cache_size: int = 100
    """asyncpg's prepared statements kept per connection; 0 through a pooler in transaction mode
    that cannot carry them (PgBouncer before 1.21)."""
    cors_origins: tuple[str, ...] = ()
    """Browser origins allowed to call the API (CONTRACT.md section 12); empty: no CORS."""
    dashboard_client_id: str | None = None
    """The dashboard's OpenID Connect client at the identity provider (CONTRACT.md section 15);
    unset: the dashboard says that sign-in is not configured."""
    dashboard_client_secret: str | None = None
    dev_idp_directory: Path | None = None
    offline_max_age_hours: float = 72.0
    """How old a door device's ``scanned_at`` may be when its scan arrives (CONTRACT.md section
    11): older is a 400, so a device cannot backdate into a window or validity long gone."""
    """The development identity provider's key directory: when set, this process serves that
    provider under ``/dev-idp`` (the demo; never in production)."""

    @property
    def dashboard_enabled(self) -> bool:
        return bool(self.idp_issuer and self.dashboard_client_id)

    @property
    def listen_url(self) -> str:
        """Where the worker ``LISTEN``s for the outbox's notifications."""
        return self.database_listen_url or self.database_url

    @property
    def is_sqlite(self) -> bool:
        return self.database_url.startswith("sqlite:")

    @property
    def sqlite_path(self) -> str:
        """The file of a ``sqlite:///path`` URL (three slashes, then the path)."""
        return self.database_url.removeprefix("sqlite:///")


DEFAULT_DATABASE_URL = "sqlite:///ticketing.sqlite3"
POSTGRES_SCHEMES = frozenset({"postgresql", "postgres"})
LOG_FORMATS = ("text", "json")


def _flag(name: str, default: bool) -> bool:
    raw = os.environ.get(name)
    if raw is None or raw == "":
        return default
    if raw in {"1", "true", "yes", "on"}:
        return True
    if raw in {"0", "false", "no", "off"}:
        return False
    raise SettingsError(f"{name} must be 1 or 0, got {raw!r}")


def _number(name: str, default: float, minimum: float) -> float:
    raw = os.environ.get(name)
    if raw is None or raw == "":
        return default
    try:
        value = float(raw)
    except ValueError:
        raise SettingsError(f"{name} must be a number, got {raw!r}") from None
    if value < minimum:
        raise SettingsError(f"{name} must be at least {minimum}, got {raw!r}")
    return value


def _optional(name: str) -> str | None:
    return os.environ.get(name) or None


def _database_url() -> str:
    url = os.environ.get("DATABASE_URL") or DEFAULT_DATABASE_URL
    scheme = urlsplit(url).scheme
    if scheme in POSTGRES_SCHEMES:
        return url
    if scheme == "sqlite" and url.startswith("sqlite:///") and len(url) > len("sqlite:///"):
        directory = Path(url.removeprefix("sqlite:///")).absolute().parent
        if not directory.is_dir():
            raise SettingsError(
                f"DATABASE_URL names a SQLite file in {str(directory)!r}, a directory that does "
                "not exist: create it first"
            )
        return url
    raise SettingsError(
        f"DATABASE_URL must be postgresql://user@host:port/db or sqlite:///path, got {url!r}"
    )


def _listen_url(database_url: str) -> str | None:
    """``TICKETING_DATABASE_LISTEN_URL``: PostgreSQL, and only beside a PostgreSQL DATABASE_URL."""
    url = _optional("TICKETING_DATABASE_LISTEN_URL")
    if url is None:
        return None
    if urlsplit(url).scheme not in POSTGRES_SCHEMES or urlsplit(database_url).scheme == "sqlite":
        raise SettingsError(
            "TICKETING_DATABASE_LISTEN_URL must be postgresql://user@host:port/db beside a "
            f"PostgreSQL DATABASE_URL, got {url!r}"
        )
    return url


def _url(name: str, default: str | None) -> str | None:
    url = os.environ.get(name) or default
    if url is None:
        return None
    parts = urlsplit(url)
    if parts.scheme not in {"http", "https"} or not parts.netloc:
        raise SettingsError(f"{name} must be an absolute http(s) URL, got {url!r}")
    return url.rstrip("/")


def _existing_file(name: str) -> Path | None:
    raw = _optional(name)
    if raw is None:
        return None
    path = Path(raw)
    if not path.is_file():
        raise SettingsError(f"{name} points to {raw!r}, which is not a readable file")
    return path


def _signing_key_file() -> Path | None:
    """The access-token key file, loaded exactly as the token signer loads it
    (:func:`app.private_keys.import_private_pem`), so a file that passes here signs tokens."""
    path = _existing_file("TICKETING_SIGNING_KEY_FILE")
    if path is None:
        return None
    try:
        import_private_pem(path.read_bytes())
    except UnusableKey as error:
        raise SettingsError(f"TICKETING_SIGNING_KEY_FILE {str(path)!r} {error}") from None
    return path


def _origins(name: str) -> tuple[str, ...]:
    """Comma-separated exact origins: ``scheme://host[:port]``, nothing after the authority."""
    origins = []
    for raw in (os.environ.get(name) or "").split(","):
        origin = raw.strip()
        if not origin:
            continue
        parts = urlsplit(origin)
        exact = f"{parts.scheme}://{parts.netloc}"
        if parts.scheme not in {"http", "https"} or not parts.hostname or origin != exact:
            raise SettingsError(
                f"{name} must list exact origins such as https://app.example.com "
                f"(scheme, host and port only), got {origin!r}"
            )
        if "*" in origin:
            raise SettingsError(f"{name} takes exact origins, not patterns, got {origin!r}")
        origins.append(origin)
    return tuple(origins)


def load_settings() -> Settings:
    """Read the environment; raise :class:`SettingsError` on the first bad value."""
    redis_url = _optional("REDIS_URL")
    if redis_url is not None and urlsplit(redis_url).scheme not in {"redis", "rediss", "unix"}:
        raise SettingsError(f"REDIS_URL must be redis://host:port/db, got {redis_url!r}")
    idp_issuer = _optional("TICKETING_IDP_ISSUER")
    idp_jwks_url = _url("TICKETING_IDP_JWKS_URL", None)
    idp_jwks_file = _existing_file("TICKETING_IDP_JWKS_FILE")
    if idp_jwks_url and idp_jwks_file:
        raise SettingsError("set only one of TICKETING_IDP_JWKS_URL and TICKETING_IDP_JWKS_FILE")
    if idp_issuer and not (idp_jwks_url or idp_jwks_file):
        raise SettingsError(
            "TICKETING_IDP_ISSUER needs TICKETING_IDP_JWKS_URL or TICKETING_IDP_JWKS_FILE"
        )
    if (idp_jwks_url or idp_jwks_file) and not idp_issuer:
        raise SettingsError("an identity provider's JWKS needs TICKETING_IDP_ISSUER too")
    log_level = os.environ.get("TICKETING_LOG_LEVEL", "INFO").upper()
    if log_level not in {"DEBUG", "INFO", "WARNING", "ERROR"}:
        raise SettingsError(
            f"TICKETING_LOG_LEVEL must be DEBUG, INFO, WARNING or ERROR, got {log_level!r}"
        )
    dashboard_client_id = _optional("TICKETING_DASHBOARD_CLIENT_ID")
    if dashboard_client_id and not idp_issuer:
        raise SettingsError("TICKETING_DASHBOARD_CLIENT_ID needs TICKETING_IDP_ISSUER too")
    dev_idp = _optional("TICKETING_DEV_IDP_DIR")
    log_format = (os.environ.get("TICKETING_LOG_FORMAT") or "text").lower()
    if log_format not in LOG_FORMATS:
        raise SettingsError(f"TICKETING_LOG_FORMAT must be text or json, got {log_format!r}")
    database_url = _database_url()
    return Settings(
        database_url=database_url,
        redis_url=redis_url,
        public_url=_url("TICKETING_PUBLIC_URL", "http://127.0.0.1:8000") or "",
        allow_private_webhooks=_flag("TICKETING_ALLOW_PRIVATE_WEBHOOKS", False),
        webhook_retry_base_seconds=_number("TICKETING_WEBHOOK_RETRY_BASE_SECONDS", 30.0, 0.0),
        webhook_max_attempts=int(_number("TICKETING_WEBHOOK_MAX_ATTEMPTS", 22, 1)),
        queue_name=os.environ.get("TICKETING_QUEUE_NAME") or "ticketing:queue",
        idp_issuer=idp_issuer,
        idp_jwks_url=idp_jwks_url,
        idp_jwks_file=idp_jwks_file,
        idp_audience=_optional("TICKETING_IDP_AUDIENCE"),
        signing_key_file=_signing_key_file(),
        graphiql=_flag("TICKETING_GRAPHIQL", True),
        log_level=log_level,
        rate_limit_per_minute=int(_number("TICKETING_RATE_LIMIT_PER_MINUTE", 6000, 0)),
        log_format=log_format,
        access_log=_flag("TICKETING_ACCESS_LOG", True),
        metrics=_flag("TICKETING_METRICS", True),
        gc_tuning=_flag("TICKETING_GC_TUNING", True),
        shutdown_timeout_seconds=_number("TICKETING_SHUTDOWN_TIMEOUT_SECONDS", 20.0, 1.0),
        database_pool_size=int(_number("TICKETING_DATABASE_POOL_SIZE", 20, 1)),
        database_listen_url=_listen_url(database_url),
        database_statement_cache_size=int(
            _number("TICKETING_DATABASE_STATEMENT_CACHE_SIZE", 100, 0)
        ),
        cors_origins=_origins("TICKETING_CORS_ORIGINS"),
        dashboard_client_id=dashboard_client_id,
        dashboard_client_secret=_optional("TICKETING_DASHBOARD_CLIENT_SECRET"),
        dev_idp_directory=Path(dev_idp) if dev_idp else None,
        offline_max_age_hours=_number("TICKETING_OFFLINE_MAX_AGE_HOURS", 72.0, 0.0),
    )


@lru_cache(maxsize=1)
def get_settings() -> Settings:
    return load_settings()
