"""The reference topology of deploy/local (one per module of drills), an organization on it, and
the drills' figures, printed at the end of the run and written to tests/artifacts/drills.json
(the topology's logs are kept in tests/artifacts/topology-logs/)."""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import sys
import tempfile
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from uuid import UUID

import httpx
import pytest

from app.principal import SCOPES
from deploy.local.topology import REPOSITORY, START_TIMEOUT_SECONDS, Topology
from tests.deployment.load import Shop
from tests.support import Tenant, create_venue

ARTIFACTS = Path(__file__).parents[1] / "artifacts"
FIGURES: dict[str, dict[str, Any]] = {}
PRINTED: dict[str, Any] = {}
"""The last line ``deploy/local/up`` printed."""
SETTINGS = {"TICKETING_RATE_LIMIT_PER_MINUTE": "1000000"}
"""The drills' clients share one key; the Redis drill reads the counts, not 429s."""
CLIENTS = 6


def record_figures(drill: str, figures: dict[str, Any]) -> None:
    FIGURES[drill] = figures


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    if not FIGURES:
        return
    terminalreporter.write_sep("-", "drills: what the clients and the load balancer saw")
    for drill, figures in FIGURES.items():
        terminalreporter.write_line(f"{drill}: {json.dumps(figures)}")
    ARTIFACTS.mkdir(exist_ok=True)
    (ARTIFACTS / "drills.json").write_text(json.dumps(FIGURES, indent=2) + "\n")


def _missing_programs() -> list[str]:
    wanted = {"haproxy": "/usr/sbin/haproxy", "pgbouncer": "/usr/sbin/pgbouncer"}
    return [
        name for name, path in wanted.items() if not (shutil.which(name) or Path(path).exists())
    ]


@pytest.fixture(scope="module")
async def topology() -> AsyncIterator[Topology]:
    """``deploy/local/up`` in a directory of its own (its last line kept in :data:`PRINTED`);
    ``deploy/local/down`` afterwards, its logs kept in tests/artifacts/topology-logs/."""
    missing = _missing_programs()
    assert not missing, f"{missing} not installed: scripts/test-tools installs them as root"
    directory = Path(tempfile.mkdtemp(prefix="ticketing-drills-"))
    started = await _script("up", directory)
    if started.returncode != 0:
        _show_logs(directory)
        shutil.rmtree(directory, ignore_errors=True)
    assert started.returncode == 0, started.stderr
    PRINTED.update(json.loads(started.stdout.splitlines()[-1]))
    try:
        yield Topology.load(directory)
    finally:
        stopped = await _script("down", directory, "--keep")
        kept = ARTIFACTS / "topology-logs"
        shutil.rmtree(kept, ignore_errors=True)
        shutil.copytree(directory / "logs", kept)
        shutil.rmtree(directory, ignore_errors=True)
        assert stopped.returncode == 0, stopped.stderr


@dataclass(frozen=True)
class Ran:
    returncode: int
    stdout: str
    stderr: str


async def _script(name: str, directory: Path, *args: str) -> Ran:
    process = await asyncio.create_subprocess_exec(
        str(REPOSITORY / "deploy" / "local" / name), "--dir", str(directory), *args,
        env={**os.environ, **SETTINGS},
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
    )  # fmt: skip
    stdout, stderr = await asyncio.wait_for(process.communicate(), START_TIMEOUT_SECONDS * 3)
    return Ran(process.returncode or 0, stdout.decode(), stderr.decode())


def _show_logs(directory: Path) -> None:
    for log in sorted((directory / "logs").glob("*.log")):
        sys.stderr.write(f"--- {log.name}\n{log.read_text(errors='replace')[-2000:]}\n")


async def ticketing(topology: Topology, *args: str) -> dict[str, Any]:
    """A ``ticketing`` command against the topology's database, as an operator would run it."""
    process = await asyncio.create_subprocess_exec(
        str(Path(sys.executable).with_name("ticketing")), *args,
        env={**os.environ, **topology.environment},
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
    )  # fmt: skip
    stdout, stderr = await asyncio.wait_for(process.communicate(), 120)
    assert process.returncode == 0, stderr.decode()
    value = json.loads(stdout)
    assert isinstance(value, dict)
    return value


@pytest.fixture(scope="module")
async def shop(topology: Topology) -> Shop:
    """An organization, its key, and an event with room for every order of the drills."""
    org = await ticketing(topology, "org", "create", "--name", "Drill Hall")
    email = "ops@example.com"
    user = await ticketing(topology, "user", "create", "--org", org["id"], "--email", email)
    key = await ticketing(
        topology, "api-key", "create", "--org", org["id"], "--user-email", email,
        "--scopes", " ".join(SCOPES),
    )  # fmt: skip
    tenant = Tenant(UUID(org["id"]), org["name"], UUID(user["id"]), email, key["key"], key["id"])
    async with httpx.AsyncClient(base_url=topology.lb_url, timeout=30) as client:
        venue = await create_venue(client, tenant, capacity=100_000, price=10.0)
    return Shop(
        topology.lb_url,
        [key["key"]] * CLIENTS,
        venue.event["id"],
        venue.timeslot["id"],
        venue.ticket_type["id"],
        tenant,
    )
