"""The reference topology on this machine (docs/deployment.md, CONTRACT.md section 19), each node
on its own loopback address:

=================  ==============  ==========================================================
127.0.0.11 to 13   serve-1 to 3    ``ticketing serve``
127.0.0.14, 15     worker-1, 2     ``ticketing worker`` (its metrics port on that address)
127.0.0.20         haproxy         the load balancer (deploy/haproxy/haproxy.cfg)
127.0.0.21         primary         PostgreSQL, and the PgBouncer in front of it
127.0.0.22         standby         PostgreSQL streaming from the primary (synchronous, hot),
                                   and the PgBouncer in front of it
127.0.0.23         redis           Redis
=================  ==============  ==========================================================

Ports are free ones picked at start (several topologies may run at once). PostgreSQL and
PgBouncer run as the ``postgres`` user when this runs as root (PostgreSQL refuses root), in a
directory of their own; nothing here touches another PostgreSQL or Redis.

``python -m deploy.local.topology up|down|status|start|stop|kill|promote [NAME] [--dir DIR]``;
``deploy/local/up`` and ``deploy/local/down`` are the first two. ``up`` prints, as its last line,
the JSON object of CONTRACT.md section 19. The drills (tests/deployment/) drive the same
:class:`Topology` from Python.
"""

from __future__ import annotations

import argparse
import contextlib
import glob
import json
import os
import pwd
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from string import Template
from typing import Any

REPOSITORY = Path(__file__).resolve().parents[2]
DEPLOY = REPOSITORY / "deploy"
DEFAULT_DIRECTORY = Path(tempfile.gettempdir()) / "ticketing-topology"
STATE = "topology.json"

SERVE_ADDRESSES = ("127.0.0.11", "127.0.0.12", "127.0.0.13")
WORKER_ADDRESSES = ("127.0.0.14", "127.0.0.15")
LB_ADDRESS = "127.0.0.20"
PRIMARY_ADDRESS = "127.0.0.21"
STANDBY_ADDRESS = "127.0.0.22"
REDIS_ADDRESS = "127.0.0.23"

DATABASE = "ticketing"
ROLE = "ticketing"
"""The service's role: owns the database (migrations create its tables), no superuser."""
SUPERUSER = "postgres"
NODE_POOL_SIZE = 10
"""TICKETING_DATABASE_POOL_SIZE of each node: 3 serve + 2 worker processes x 10 = 50 client
connections to the pooler, which holds at most 40 + 10 server connections."""
START_TIMEOUT_SECONDS = 120.0
STOP_TIMEOUT_SECONDS = 30.0


class TopologyError(Exception):
    """Something did not start or stop; the message says what and where its log is."""


@dataclass
class Process:
    """One process of the topology: how to find it again and to start it again."""

    name: str
    address: str
    port: int
    pid: int = 0
    log: str = ""
    marker: str = ""
    """Text its command line holds (its port, its directory): a pid the system gave to another
    process since is never signalled."""

    def alive(self) -> bool:
        """Whether ``pid`` is still this process, running."""
        if self.pid <= 0:
            return False
        child = _children.get(self.pid)
        if child is not None:  # started by this process: its own word
            return child.poll() is None
        try:
            cmdline = Path(f"/proc/{self.pid}/cmdline").read_bytes().replace(b"\0", b" ")
            state = Path(f"/proc/{self.pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
        except (OSError, IndexError):
            return False
        return state != "Z" and self.marker.encode() in cmdline


@dataclass
class Topology:
    """What runs where, kept in ``<directory>/topology.json`` between commands."""

    directory: str
    serve: list[Process] = field(default_factory=list)
    workers: list[Process] = field(default_factory=list)
    haproxy: Process | None = None
    primary: Process | None = None
    standby: Process | None = None
    pgbouncers: list[Process] = field(default_factory=list)
    """In front of the primary, then of the standby (same addresses as their servers)."""
    redis: Process | None = None
    environment: dict[str, str] = field(default_factory=dict)
    """What every ticketing node is started with (on top of the caller's environment)."""

    # --- where things are ------------------------------------------------------------------

    @property
    def root(self) -> Path:
        return Path(self.directory)

    @property
    def lb_url(self) -> str:
        assert self.haproxy is not None
        return f"http://{self.haproxy.address}:{self.haproxy.port}"

    @property
    def database_url(self) -> str:
        """Through the poolers: the one whose server is read-write."""
        hosts = ",".join(f"{p.address}:{p.port}" for p in self.pgbouncers)
        return f"postgresql://{ROLE}@{hosts}/{DATABASE}?target_session_attrs=read-write"

    @property
    def listen_url(self) -> str:
        """Around the poolers, to the servers themselves: the one that is read-write."""
        servers = [s for s in (self.primary, self.standby) if s is not None]
        hosts = ",".join(f"{s.address}:{s.port}" for s in servers)
        return f"postgresql://{ROLE}@{hosts}/{DATABASE}?target_session_attrs=read-write"

    def server_url(self, server: Process, database: str = DATABASE) -> str:
        return f"postgresql://{SUPERUSER}@{server.address}:{server.port}/{database}"

    @property
    def redis_url(self) -> str:
        assert self.redis is not None
        return f"redis://{self.redis.address}:{self.redis.port}/0"

    def node(self, name: str) -> Process:
        for process in self.processes():
            if process.name == name:
                return process
        raise TopologyError(f"no process named {name!r} in {self.directory}")

    def processes(self) -> list[Process]:
        singles = [self.haproxy, self.primary, self.standby, self.redis]
        return [*self.serve, *self.workers, *[p for p in singles if p], *self.pgbouncers]

    def summary(self) -> dict[str, object]:
        """CONTRACT.md section 19's object (and a little more: the poolers of both servers,
        the direct URL of the workers' LISTEN, the directory)."""
        assert self.primary and self.standby and self.redis and self.haproxy
        primary_pooler, standby_pooler = self.pgbouncers
        return {
            "lb_url": self.lb_url,
            "database_url": self.database_url,
            "serve": [
                {"name": p.name, "url": f"http://{p.address}:{p.port}", "pid": p.pid}
                for p in self.serve
            ],
            "workers": [{"name": p.name, "pid": p.pid} for p in self.workers],
            "pgbouncer": {"url": _pooler_url(primary_pooler), "pid": primary_pooler.pid},
            "primary": {"pid": self.primary.pid, "url": self.server_url(self.primary)},
            "standby": {
                "pid": self.standby.pid,
                "url": self.server_url(self.standby),
                "pgbouncer": {"url": _pooler_url(standby_pooler), "pid": standby_pooler.pid},
            },
            "redis": {"url": self.redis_url, "pid": self.redis.pid},
            "haproxy": {"pid": self.haproxy.pid, "stats_socket": self.stats_socket},
            "listen_url": self.listen_url,
            "dir": self.directory,
        }

    @property
    def stats_socket(self) -> str:
        return str(self.root / "haproxy.sock")

    # --- keeping state ---------------------------------------------------------------------

    def save(self) -> None:
        (self.root / STATE).write_text(json.dumps(asdict(self), indent=2))

    @classmethod
    def load(cls, directory: Path) -> Topology:
        path = directory / STATE
        if not path.is_file():
            raise TopologyError(f"no topology in {directory} (deploy/local/up starts one)")
        raw: dict[str, Any] = json.loads(path.read_text())

        def one(value: dict[str, Any] | None) -> Process | None:
            return Process(**value) if value else None

        return cls(
            directory=raw["directory"],
            serve=[Process(**p) for p in raw["serve"]],
            workers=[Process(**p) for p in raw["workers"]],
            haproxy=one(raw["haproxy"]),
            primary=one(raw["primary"]),
            standby=one(raw["standby"]),
            pgbouncers=[Process(**p) for p in raw["pgbouncers"]],
            redis=one(raw["redis"]),
            environment=raw["environment"],
        )

    # --- starting and stopping one process -------------------------------------------------

    def start(self, name: str, environment: dict[str, str] | None = None) -> Process:
        """Start ``name`` again (on its address and port) and wait until it serves."""
        process = self.node(name)
        if process.alive():
            raise TopologyError(f"{name} runs already (pid {process.pid})")
        if process in self.serve:
            _start_serve(self, process, environment)
        elif process in self.workers:
            _start_worker(self, process, environment)
        elif process is self.redis:
            _start_redis(self, process)
        elif process is self.haproxy:
            _start_haproxy(self, process)
        elif process in self.pgbouncers:
            _start_pgbouncer(self, process)
        else:
            _start_postgres(self, process)
        self.save()
        return process

    def stop(self, name: str, *, timeout: float = STOP_TIMEOUT_SECONDS) -> None:
        """Stop ``name`` gracefully (SIGTERM; PostgreSQL: a fast shutdown) and wait for it."""
        process = self.node(name)
        is_postgres = process in (self.primary, self.standby)
        _signal(process, signal.SIGINT if is_postgres else signal.SIGTERM)
        _wait_for_exit(process, timeout)

    def kill(self, name: str) -> None:
        """SIGKILL ``name``, as a machine dying would (no goodbye to anybody)."""
        process = self.node(name)
        _signal(process, signal.SIGKILL)
        _wait_for_exit(process, STOP_TIMEOUT_SECONDS)

    def restart(self, name: str, environment: dict[str, str] | None = None) -> Process:
        self.stop(name)
        return self.start(name, environment)

    def promote(self) -> None:
        """Fail over to the standby: the primary's host is gone (its PostgreSQL and its PgBouncer
        stopped, as when the machine dies or is fenced), the standby is promoted and its PgBouncer
        told to reconnect (PgBouncer 1.18 keeps telling new clients the ``in_hot_standby`` of its
        first server connection, and asyncpg would keep passing it by)."""
        assert self.primary is not None and self.standby is not None
        if self.primary.alive():
            self.stop(self.primary.name)
        primary_pooler, standby_pooler = self.pgbouncers
        if primary_pooler.alive():
            self.stop(primary_pooler.name)
        _psql(self.standby, "SELECT pg_promote(wait => true)")
        _psql(standby_pooler, "RECONNECT", database="pgbouncer")

    # --- the whole ---------------------------------------------------------------------------

    def down(self) -> None:
        """Stop everything (ticketing nodes first, the database last)."""
        order = [
            *self.serve,
            *self.workers,
            *[p for p in (self.haproxy, self.redis) if p],
            *self.pgbouncers,
            *[p for p in (self.standby, self.primary) if p],
        ]
        for process in order:
            if process.alive():
                is_postgres = process in (self.primary, self.standby)
                _signal(process, signal.SIGINT if is_postgres else signal.SIGTERM)
        for process in order:
            try:
                _wait_for_exit(process, STOP_TIMEOUT_SECONDS)
            except TopologyError:
                _signal(process, signal.SIGKILL)
                _wait_for_exit(process, STOP_TIMEOUT_SECONDS)


def haproxy_stats(topology: Topology) -> dict[tuple[str, str], dict[str, str]]:
    """HAProxy's counters (``show stat`` on its admin socket) by (proxy, server): ``req_tot``,
    ``hrsp_5xx``, ``wretr`` (retries), ``wredis`` (redispatches), ``status``..."""
    with socket.socket(socket.AF_UNIX) as admin:
        admin.connect(topology.stats_socket)
        admin.sendall(b"show stat\n")
        raw = b""
        while chunk := admin.recv(65536):
            raw += chunk
    header, *rows = raw.decode().strip().splitlines()
    names = header.lstrip("# ").split(",")
    table = [dict(zip(names, row.split(","), strict=False)) for row in rows]
    return {(row["pxname"], row["svname"]): row for row in table}


def _pooler_url(pooler: Process) -> str:
    return f"postgresql://{ROLE}@{pooler.address}:{pooler.port}/{DATABASE}"


# --- processes ---------------------------------------------------------------------------------


def _run_as() -> str | None:
    """The user PostgreSQL and PgBouncer run as: ``postgres`` when we are root."""
    return SUPERUSER if os.geteuid() == 0 else None


def _own(path: Path) -> None:
    user = _run_as()
    if user is not None:
        entry = pwd.getpwnam(user)
        os.chown(path, entry.pw_uid, entry.pw_gid)


def _free_port(address: str) -> int:
    with socket.socket() as probe:
        probe.bind((address, 0))
        return int(probe.getsockname()[1])


def _binary(name: str, *also: str) -> str:
    for candidate in (shutil.which(name), *also):
        if candidate and os.access(candidate, os.X_OK):
            return candidate
    raise TopologyError(f"{name} is not installed (scripts/bootstrap installs it as root)")


def _postgres_bin() -> Path:
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin"), key=lambda p: int(p.split("/")[4]))
    configured = os.environ.get("PG_BIN")
    if configured:
        return Path(configured)
    if not found:
        raise TopologyError("PostgreSQL's server programs are not installed (/usr/lib/postgresql)")
    return Path(found[-1])


def _ticketing() -> str:
    return str(Path(sys.executable).with_name("ticketing"))


_children: dict[int, subprocess.Popen[bytes]] = {}
"""The processes this one started and has not reaped yet."""


def _spawn(
    process: Process,
    command: list[str],
    log: Path,
    *,
    environment: dict[str, str] | None = None,
    user: str | None = None,
) -> None:
    """Start ``command`` in a session of its own (so that signals to us do not reach it)."""
    process.log = str(log)
    with log.open("ab") as output:
        child = subprocess.Popen(
            command,
            stdin=subprocess.DEVNULL,
            stdout=output,
            stderr=output,
            env=environment,
            user=user,
            start_new_session=True,
            cwd="/",
        )
    process.pid = child.pid
    _children[child.pid] = child


def _run(command: list[str], *, user: str | None = None, what: str) -> None:
    done = subprocess.run(command, capture_output=True, text=True, user=user, cwd="/")
    if done.returncode != 0:
        raise TopologyError(f"{what} failed: {(done.stderr or done.stdout).strip()}")


def _signal(process: Process, signum: signal.Signals) -> None:
    if process.alive():
        with contextlib.suppress(ProcessLookupError):
            os.kill(process.pid, signum)


def _wait_for_exit(process: Process, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while process.alive():
        child = _children.get(process.pid)
        if child is not None and child.poll() is not None:
            del _children[process.pid]
            return
        if time.monotonic() > deadline:
            raise TopologyError(f"{process.name} (pid {process.pid}) did not stop in {timeout} s")
        time.sleep(0.05)


def _wait_until(check: Callable[[], bool], what: str, process: Process, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while True:
        if check():
            return
        if process.pid and not process.alive():
            raise TopologyError(f"{what}: {process.name} exited; see {process.log}")
        if time.monotonic() > deadline:
            raise TopologyError(f"{what}: not within {timeout:g} s; see {process.log}")
        time.sleep(0.1)


def _answers(address: str, port: int) -> bool:
    try:
        socket.create_connection((address, port), timeout=1).close()
    except OSError:
        return False
    return True


def _http_ok(url: str) -> bool:
    try:
        with urllib.request.urlopen(url, timeout=2) as response:
            return bool(response.status == 200)
    except (OSError, urllib.error.URLError):
        return False


def _psql(server: Process, sql: str, *, database: str = "postgres", local: bool = False) -> str:
    """Run ``sql`` as the superuser; ``local``: its commit waits for no standby (the primary's
    own set-up, before the standby exists)."""
    environment = {**os.environ, "PGOPTIONS": "-c synchronous_commit=local"} if local else None
    command = [
        str(_postgres_bin() / "psql"), "-X", "-q", "-At", "-v", "ON_ERROR_STOP=1",
        "-h", server.address, "-p", str(server.port), "-U", SUPERUSER, "-d", database,
        "-c", sql,
    ]  # fmt: skip
    done = subprocess.run(
        command, capture_output=True, text=True, cwd="/", env=environment, timeout=60
    )
    if done.returncode != 0:
        raise TopologyError(f"{sql!r} on {server.name} failed: {done.stderr.strip()}")
    return done.stdout.strip()


# --- PostgreSQL --------------------------------------------------------------------------------


def _postgres_conf(topology: Topology, process: Process, role: str) -> str:
    return "\n".join(
        [
            f"include '{role}.conf'",
            f"listen_addresses = '{process.address}'",
            f"port = {process.port}",
            "unix_socket_directories = ''",
            "shared_buffers = 64MB",
            "logging_collector = off",
            "",
        ]
    )


def _data_directory(topology: Topology, process: Process) -> Path:
    return topology.root / process.name


def _start_postgres(topology: Topology, process: Process) -> None:
    data = _data_directory(topology, process)
    process.marker = str(data)
    _spawn(
        process,
        [str(_postgres_bin() / "postgres"), "-D", str(data)],
        topology.root / "logs" / f"{process.name}.log",
        user=_run_as(),
    )
    _wait_until(
        lambda: _answers(process.address, process.port) and _accepts_queries(process),
        f"PostgreSQL {process.name}",
        process,
        START_TIMEOUT_SECONDS,
    )


def _accepts_queries(process: Process) -> bool:
    try:
        _psql(process, "SELECT 1")
    except TopologyError:
        return False
    return True


def _init_primary(topology: Topology, primary: Process) -> None:
    data = _data_directory(topology, primary)
    _run(
        [str(_postgres_bin() / "initdb"), "-D", str(data), "-U", SUPERUSER, "--auth=trust",
         "-E", "UTF8", "--locale=C", "--no-sync"],
        user=_run_as(),
        what="initdb",
    )  # fmt: skip
    shutil.copy(DEPLOY / "postgresql" / "primary.conf", data / "primary.conf")
    _own(data / "primary.conf")
    with (data / "postgresql.conf").open("a") as conf:
        conf.write("\n# deploy/local/topology.py\n" + _postgres_conf(topology, primary, "primary"))
    with (data / "pg_hba.conf").open("a") as hba:
        hba.write("host all all 127.0.0.0/8 trust\nhost replication all 127.0.0.0/8 trust\n")
    _start_postgres(topology, primary)
    _psql(primary, f"CREATE ROLE {ROLE} LOGIN", local=True)
    _psql(primary, f"CREATE DATABASE {DATABASE} OWNER {ROLE}", local=True)


def _init_standby(topology: Topology, primary: Process, standby: Process) -> None:
    data = _data_directory(topology, standby)
    _run(
        [str(_postgres_bin() / "pg_basebackup"), "-h", primary.address, "-p", str(primary.port),
         "-U", SUPERUSER, "-D", str(data), "-R", "-X", "stream", "-C", "-S", "standby",
         "--checkpoint=fast", "--no-sync"],
        user=_run_as(),
        what="pg_basebackup",
    )  # fmt: skip
    shutil.copy(DEPLOY / "postgresql" / "standby.conf", data / "standby.conf")
    _own(data / "standby.conf")
    conninfo = (
        f"host={primary.address} port={primary.port} user={SUPERUSER} application_name=standby"
    )
    with (data / "postgresql.conf").open("a") as conf:
        conf.write(
            "\n# deploy/local/topology.py: the standby\n"
            + _postgres_conf(topology, standby, "standby")
        )
    with (data / "postgresql.auto.conf").open("a") as auto:
        auto.write(f"primary_conninfo = '{conninfo}'\n")
    _start_postgres(topology, standby)
    _wait_until(
        lambda: _psql(primary, "SELECT sync_state FROM pg_stat_replication") == "sync",
        "the standby streaming synchronously",
        standby,
        START_TIMEOUT_SECONDS,
    )


# --- PgBouncer, Redis, HAProxy -----------------------------------------------------------------


def _start_pgbouncer(topology: Topology, pooler: Process) -> None:
    server = topology.primary if pooler is topology.pgbouncers[0] else topology.standby
    assert server is not None
    directory = topology.root / pooler.name
    pid_file = directory / "pgbouncer.pid"
    settings = {
        "PGBOUNCER_DATABASE": DATABASE,
        "PGBOUNCER_SERVER_HOST": server.address,
        "PGBOUNCER_SERVER_PORT": str(server.port),
        "PGBOUNCER_LISTEN_ADDR": pooler.address,
        "PGBOUNCER_LISTEN_PORT": str(pooler.port),
        "PGBOUNCER_AUTH_TYPE": "trust",
        "PGBOUNCER_AUTH_FILE": str(directory / "users.txt"),
        "PGBOUNCER_ADMIN_USER": SUPERUSER,
        "PGBOUNCER_LOG_FILE": str(topology.root / "logs" / f"{pooler.name}.log"),
        "PGBOUNCER_PID_FILE": str(pid_file),
    }
    template = Template((DEPLOY / "pgbouncer" / "pgbouncer.ini").read_text())
    (directory / "pgbouncer.ini").write_text(template.substitute(settings))
    (directory / "users.txt").write_text(f'"{ROLE}" ""\n"{SUPERUSER}" ""\n')
    for path in (directory / "pgbouncer.ini", directory / "users.txt"):
        _own(path)
    pid_file.unlink(missing_ok=True)
    _run(
        [_binary("pgbouncer", "/usr/sbin/pgbouncer"), "-d", str(directory / "pgbouncer.ini")],
        user=_run_as(),
        what=f"{pooler.name}",
    )
    pooler.log = settings["PGBOUNCER_LOG_FILE"]
    pooler.marker = str(directory / "pgbouncer.ini")
    _wait_until(pid_file.exists, f"{pooler.name}'s pid file", pooler, START_TIMEOUT_SECONDS)
    pooler.pid = int(pid_file.read_text().split()[0])
    _wait_until(
        lambda: _answers(pooler.address, pooler.port),
        pooler.name,
        pooler,
        START_TIMEOUT_SECONDS,
    )


def _start_redis(topology: Topology, redis: Process) -> None:
    directory = topology.root / "redis"
    directory.mkdir(exist_ok=True)
    redis.marker = str(redis.port)  # Redis rewrites its command line to "redis-server ADDR:PORT"
    _spawn(
        redis,
        [_binary("redis-server"), "--bind", redis.address, "--port", str(redis.port),
         "--save", "", "--appendonly", "no", "--dir", str(directory)],
        topology.root / "logs" / "redis.log",
    )  # fmt: skip
    _wait_until(lambda: _answers(redis.address, redis.port), "Redis", redis, START_TIMEOUT_SECONDS)


def _haproxy_environment(topology: Topology) -> dict[str, str]:
    assert topology.haproxy is not None
    environment = {
        "HAPROXY_BIND": f"{topology.haproxy.address}:{topology.haproxy.port}",
        "HAPROXY_STATS_SOCKET": topology.stats_socket,
        "HAPROXY_ERRORS": str(DEPLOY / "haproxy" / "errors"),
        "PATH": os.environ.get("PATH", ""),
    }
    for index, node in enumerate(topology.serve, 1):
        environment[f"SERVE_{index}"] = f"{node.address}:{node.port}"
    return environment


def _start_haproxy(topology: Topology, haproxy: Process) -> None:
    haproxy.marker = str(topology.root / "haproxy.pid")
    _spawn(
        haproxy,
        [_binary("haproxy", "/usr/sbin/haproxy"), "-db", "-f",
         str(DEPLOY / "haproxy" / "haproxy.cfg"), "-p", haproxy.marker],
        topology.root / "logs" / "haproxy.log",
        environment=_haproxy_environment(topology),
    )  # fmt: skip
    _wait_until(
        lambda: _answers(haproxy.address, haproxy.port), "HAProxy", haproxy, START_TIMEOUT_SECONDS
    )


# --- the service's nodes -----------------------------------------------------------------------


def _node_environment(topology: Topology, extra: dict[str, str] | None) -> dict[str, str]:
    """The caller's environment (its ``TICKETING_*`` settings too), then the topology's own."""
    return {**os.environ, **topology.environment, **(extra or {})}


def _wait_for_http(node: Process, path: str, what: str) -> None:
    """Until ``path`` of the node answers 200 (a worker's port answers its probes too)."""
    url = f"http://{node.address}:{node.port}{path}"
    _wait_until(lambda: _http_ok(url), f"{node.name} {what}", node, START_TIMEOUT_SECONDS)


def _start_serve(topology: Topology, node: Process, extra: dict[str, str] | None) -> None:
    _spawn_only(topology, node, "serve", extra)
    _wait_for_http(node, "/readyz", "ready")


def _start_worker(topology: Topology, node: Process, extra: dict[str, str] | None) -> None:
    _spawn_only(topology, node, "worker", extra)
    _wait_for_http(node, "/readyz", "ready")


def migrate(topology: Topology, extra: dict[str, str] | None = None) -> str:
    """``ticketing migrate`` through the poolers, as a deploy job would; what it printed."""
    done = subprocess.run(
        [_ticketing(), "migrate"],
        capture_output=True,
        text=True,
        env=_node_environment(topology, extra),
        timeout=START_TIMEOUT_SECONDS,
    )
    if done.returncode != 0:
        raise TopologyError(f"ticketing migrate failed: {done.stderr.strip()}")
    return done.stdout


# --- up and down -------------------------------------------------------------------------------


def up(directory: Path = DEFAULT_DIRECTORY, settings: dict[str, str] | None = None) -> Topology:
    """Start the whole topology in ``directory`` (which must not hold a running one); every
    ticketing node gets the caller's ``TICKETING_*`` settings and ``settings`` on top of the
    topology's own."""
    if (directory / STATE).exists():
        running = Topology.load(directory)
        if any(process.alive() for process in running.processes()):
            raise TopologyError(f"a topology runs in {directory}: deploy/local/down first")
        shutil.rmtree(directory)
    directory.mkdir(parents=True, exist_ok=True)
    directory.chmod(0o755)
    _own(directory)
    (directory / "logs").mkdir()
    (directory / "logs").chmod(0o777)
    topology = Topology(
        directory=str(directory),
        serve=[Process(f"serve-{i}", a, _free_port(a)) for i, a in enumerate(SERVE_ADDRESSES, 1)],
        workers=[
            Process(f"worker-{i}", a, _free_port(a)) for i, a in enumerate(WORKER_ADDRESSES, 1)
        ],
        haproxy=Process("haproxy", LB_ADDRESS, _free_port(LB_ADDRESS)),
        primary=Process("primary", PRIMARY_ADDRESS, _free_port(PRIMARY_ADDRESS)),
        standby=Process("standby", STANDBY_ADDRESS, _free_port(STANDBY_ADDRESS)),
        pgbouncers=[
            Process("pgbouncer-primary", PRIMARY_ADDRESS, _free_port(PRIMARY_ADDRESS)),
            Process("pgbouncer-standby", STANDBY_ADDRESS, _free_port(STANDBY_ADDRESS)),
        ],
        redis=Process("redis", REDIS_ADDRESS, _free_port(REDIS_ADDRESS)),
    )
    for pooler in topology.pgbouncers:
        (directory / pooler.name).mkdir()
        _own(directory / pooler.name)
    topology.save()
    try:
        assert topology.primary and topology.standby and topology.redis and topology.haproxy
        _init_primary(topology, topology.primary)
        topology.save()
        _init_standby(topology, topology.primary, topology.standby)
        topology.save()
        for pooler in topology.pgbouncers:
            _start_pgbouncer(topology, pooler)
        _start_redis(topology, topology.redis)
        topology.save()
        # The caller's TICKETING_* settings are the nodes' (kept, so that a node started again
        # later gets the same), but for where things are.
        callers = {k: v for k, v in os.environ.items() if k.startswith("TICKETING_")}
        topology.environment = {
            "TICKETING_DATABASE_STATEMENT_CACHE_SIZE": "0",
            "TICKETING_DATABASE_POOL_SIZE": str(NODE_POOL_SIZE),
            **callers,
            "DATABASE_URL": topology.database_url,
            "TICKETING_DATABASE_LISTEN_URL": topology.listen_url,
            "REDIS_URL": topology.redis_url,
            "TICKETING_QUEUE_NAME": "ticketing:queue",
            "TICKETING_PUBLIC_URL": topology.lb_url,
            **(settings or {}),
        }
        migrate(topology)
        for node in topology.serve:
            _spawn_only(topology, node, "serve")
        for node in topology.workers:
            _spawn_only(topology, node, "worker")
        topology.save()
        for node in topology.serve:
            _wait_for_http(node, "/readyz", "ready")
        for node in topology.workers:
            _wait_for_http(node, "/readyz", "ready")
        _start_haproxy(topology, topology.haproxy)
        topology.save()
        _wait_until(
            lambda: _http_ok(f"{topology.lb_url}/readyz"),
            "the load balancer serving",
            topology.haproxy,
            START_TIMEOUT_SECONDS,
        )
    except BaseException:
        topology.down()
        raise
    return topology


def _spawn_only(
    topology: Topology, node: Process, command: str, extra: dict[str, str] | None = None
) -> None:
    """Start a ``ticketing`` node without waiting for it (``up`` starts them all, then waits)."""
    port = "--port" if command == "serve" else "--metrics-port"
    host = "--host" if command == "serve" else "--metrics-host"
    node.marker = f"{port} {node.port}"
    _spawn(
        node,
        [_ticketing(), command, host, node.address, port, str(node.port)],
        topology.root / "logs" / f"{node.name}.log",
        environment=_node_environment(topology, extra),
    )


def down(directory: Path = DEFAULT_DIRECTORY, *, keep: bool = False) -> None:
    """Stop the topology in ``directory`` and (unless ``keep``) delete it, logs and data."""
    Topology.load(directory).down()
    if not keep:
        shutil.rmtree(directory, ignore_errors=True)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="deploy/local/topology", description=__doc__)
    parser.add_argument(
        "command", choices=["up", "down", "status", "start", "stop", "kill", "promote"]
    )
    parser.add_argument("name", nargs="?", help="the process of start, stop and kill")
    parser.add_argument(
        "--dir",
        type=Path,
        default=Path(os.environ.get("TICKETING_TOPOLOGY_DIR") or DEFAULT_DIRECTORY),
        help=f"where it keeps its state, data and logs (default {DEFAULT_DIRECTORY})",
    )
    parser.add_argument("--keep", action="store_true", help="down: keep the logs and data")
    args = parser.parse_args(argv)
    directory = args.dir.resolve()
    try:
        if args.command == "up":
            topology = up(directory)
        elif args.command == "down":
            down(directory, keep=args.keep)
            return
        else:
            topology = Topology.load(directory)
            if args.command in {"start", "stop", "kill"}:
                if not args.name:
                    parser.error(f"{args.command} needs the NAME of a process")
                getattr(topology, args.command)(args.name)
            elif args.command == "promote":
                topology.promote()
    except TopologyError as error:
        sys.exit(f"deploy/local: {error}")
    sys.stdout.write(json.dumps(topology.summary()) + "\n")


if __name__ == "__main__":
    main()
