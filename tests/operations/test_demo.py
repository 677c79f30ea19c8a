"""``ticketing demo`` on SQLite, as a new user runs it: no PostgreSQL, no Redis, a printed key."""

from __future__ import annotations

import asyncio
import os
import re
import socket
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

import httpx
import pytest

from tests.harness import free_port
from tests.processes import START_TIMEOUT_SECONDS, TICKETING, stop
from tests.support import ok

pytestmark = pytest.mark.slow

KEY_LINE = re.compile(r"^API key .*: (tk_live_[A-Za-z0-9]+)$", re.MULTILINE)
LAST_LINE = "Press Ctrl+C to stop."
ORGANIZATION_LINE = re.compile(r"seeded organization .* \(([0-9a-f-]{36})\)")


@dataclass(frozen=True)
class Demo:
    base_url: str
    key: str
    organization_id: str
    banner: str

    @property
    def headers(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.key}"}


def at(timestamp: str) -> datetime:
    return datetime.fromisoformat(timestamp)


def demo_environment() -> dict[str, str]:
    """The test run's environment without the settings that point at its PostgreSQL."""
    return {
        name: value
        for name, value in os.environ.items()
        if not name.startswith("TICKETING_") and name not in {"DATABASE_URL", "REDIS_URL"}
    }


async def read_banner(stdout: asyncio.StreamReader) -> str:
    """The demo's banner, read up to its last line (bounded)."""
    deadline = asyncio.get_running_loop().time() + START_TIMEOUT_SECONDS
    banner: list[str] = []
    while not banner or banner[-1].strip() != LAST_LINE:
        remaining = deadline - asyncio.get_running_loop().time()
        line = (await asyncio.wait_for(stdout.readline(), remaining)).decode()
        assert line, "the demo exited before printing its banner:\n" + "".join(banner)
        banner.append(line)
    return "".join(banner)


@asynccontextmanager
async def running_demo(database: Path, *extra: str) -> AsyncIterator[Demo]:
    """Start the demo and read its banner to its last line (no waiting after it: the banner is
    shown once the demo answers); stop it after."""
    port = free_port()
    process = await asyncio.create_subprocess_exec(
        TICKETING,
        "demo",
        "--port",
        str(port),
        "--database",
        str(database),
        *extra,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.DEVNULL,
        env=demo_environment(),
        cwd=database.parent,
    )
    try:
        assert process.stdout is not None
        text = await read_banner(process.stdout)
        key = KEY_LINE.search(text)
        organization = ORGANIZATION_LINE.search(text)
        assert key is not None and organization is not None, text
        yield Demo(f"http://127.0.0.1:{port}", key.group(1), organization.group(1), text)
    finally:
        await stop(process)


async def test_the_banners_first_command_answers_as_soon_as_it_is_shown(tmp_path: Path) -> None:
    """A new user pastes the printed `curl .../whoami` at once: the banner used to come before
    the server answered (by seconds on a busy machine), and that first try was refused."""
    async with (
        running_demo(tmp_path / "demo.sqlite3") as demo,
        httpx.AsyncClient(base_url=demo.base_url, timeout=10) as client,
    ):
        me = ok(await client.get("/whoami", headers=demo.headers))  # one try, no waiting
    assert me["email"] == "demo@example.com"


async def test_demo_serves_seeded_data_and_reuses_it_on_restart(tmp_path: Path) -> None:
    database = tmp_path / "demo.sqlite3"
    async with running_demo(database) as demo:
        assert f"{demo.base_url}/schema" in demo.banner
        assert f"{demo.base_url}/graphql" in demo.banner
        assert f'curl -H "Authorization: Bearer {demo.key}" {demo.base_url}/whoami' in demo.banner
        async with httpx.AsyncClient(base_url=demo.base_url, timeout=10) as client:
            me = ok(await client.get("/whoami", headers=demo.headers))
            assert me["email"] == "demo@example.com" and me["organization"]
            events = ok(
                await client.get("/events", params={"sort": "starts_at:asc"}, headers=demo.headers)
            )["data"]
            assert len(events) == 3
            statuses: set[str] = set()
            for event in events:
                orders = ok(
                    await client.get(
                        "/orders", params={"event_id": event["id"]}, headers=demo.headers
                    )
                )
                statuses |= {order["status"] for order in orders["data"]}
                tickets = ok(
                    await client.get(f"/events/{event['id']}/tickets", headers=demo.headers)
                )
                statuses |= {ticket["status"] for ticket in tickets["data"]}
            assert statuses >= {"pending", "confirmed", "cancelled", "valid", "scanned"}
            scanners = ok(await client.get("/scanners", headers=demo.headers))["data"]
            assert {scanner["profile_id"] is None for scanner in scanners} == {True, False}
            past, today, future = events
            now = datetime.now(UTC)
            assert at(past["starts_at"]) < now < at(future["starts_at"])
            slots = ok(await client.get(f"/events/{today['id']}/timeslots", headers=demo.headers))
            assert any(at(s["starts_at"]) <= now <= at(s["ends_at"]) for s in slots["data"])
        first = demo

    async with running_demo(database) as again:
        assert again.organization_id == first.organization_id
        assert again.key != first.key
        async with httpx.AsyncClient(base_url=again.base_url, timeout=10) as client:
            assert (
                ok(await client.get("/events", headers=again.headers))["pagination"]["total"] == 3
            )
            ok(await client.get("/whoami", headers=first.headers))


async def test_demo_takes_concurrent_writes_without_errors(tmp_path: Path) -> None:
    """SQLite serializes writers: concurrent orders, confirmations and scans must queue for the
    lock, not fail (deferred transactions deadlocked on the read-to-write upgrade)."""
    async with (
        running_demo(tmp_path / "demo.sqlite3") as demo,
        httpx.AsyncClient(base_url=demo.base_url, headers=demo.headers, timeout=60) as client,
    ):
        event = ok(await client.get("/events", params={"sort": "starts_at:desc"}))["data"][0]
        slots = ok(await client.get(f"/events/{event['id']}/timeslots"))["data"]
        slot = max(slots, key=lambda s: s["total_available"])
        body = {
            "event_id": event["id"],
            "event_timeslot_id": slot["id"],
            "buyer_name": "Burst Buyer",
            "buyer_email": "burst@example.com",
            "channel": "online",
            "payment_method": "card",
            "tickets": [{"ticket_type_id": slot["ticket_type_ids"][0]}],
        }

        async def order_and_confirm() -> list[int]:
            placed = await client.post("/orders", json=body)
            if placed.status_code != 201:
                return [placed.status_code]
            confirmed = await client.post(f"/orders/{placed.json()['id']}/confirm")
            return [placed.status_code, confirmed.status_code]

        outcomes = await asyncio.gather(*(order_and_confirm() for _ in range(20)))
        assert [code for codes in outcomes for code in codes] == [201, 200] * 20
        tickets = ok(
            await client.get(
                f"/events/{event['id']}/tickets", params={"sort": "created_at:desc", "limit": 20}
            )
        )["data"]
        scans = await asyncio.gather(
            *(client.post(f"/tickets/{ticket['id']}/scan") for ticket in tickets)
        )
        assert [scan.status_code for scan in scans] == [200] * 20
        assert {scan.json()["status"] for scan in scans} == {"valid"}


def relative_path(target: str, folder: Path) -> str:
    return os.path.relpath(target, folder)


def printed_commands(banner: str) -> list[str]:
    """The ``ticketing`` command lines of the banner (after any ``...: `` lead-in)."""
    return [
        line.split(": ", 1)[-1].strip()
        for line in banner.splitlines()
        if "dev-idp token" in line or "oauth-client create" in line
    ]


async def test_printed_commands_work_from_any_folder(tmp_path: Path) -> None:
    """Started as `scripts/demo` starts it (a relative program path, the default database in the
    current folder), the banner's follow-up commands must run from another folder."""
    project, elsewhere = tmp_path / "project", tmp_path / "somewhere" / "else"
    project.mkdir()
    elsewhere.mkdir(parents=True)
    process = await asyncio.create_subprocess_exec(
        relative_path(TICKETING, project),
        "demo",
        "--port",
        str(free_port()),
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.DEVNULL,
        env=demo_environment(),
        cwd=project,
    )
    try:
        assert process.stdout is not None
        banner = await read_banner(process.stdout)
    finally:
        await stop(process)
    commands = printed_commands(banner)
    assert len(commands) == 2, banner
    for command in commands:
        run = await asyncio.create_subprocess_shell(
            command,
            cwd=elsewhere,
            env=demo_environment(),
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
        )
        out, err = await asyncio.wait_for(run.communicate(), START_TIMEOUT_SECONDS)
        assert run.returncode == 0, (command, err.decode())
        assert b"Traceback" not in err and out.strip(), command
    assert list(elsewhere.iterdir()) == [], "a command wrote into the folder it was run from"


def test_the_readme_sets_the_key_before_the_commands_that_use_it() -> None:
    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text()
    lines = readme.splitlines()
    first_use = next(i for i, line in enumerate(lines) if "$KEY" in line)
    assert any(line.startswith("export KEY=") for line in lines[:first_use]), lines[first_use]


async def demo_refused(tmp_path: Path, *args: str) -> tuple[int, str, str]:
    """Run a demo that must stop at once: its exit status, stdout and stderr."""
    process = await asyncio.create_subprocess_exec(
        TICKETING, "demo", *args, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
        env=demo_environment(), cwd=tmp_path,
    )  # fmt: skip
    stdout, stderr = await asyncio.wait_for(process.communicate(), START_TIMEOUT_SECONDS)
    return process.returncode or 0, stdout.decode(), stderr.decode()


async def test_the_demo_on_a_busy_port_names_it_before_printing_a_key(tmp_path: Path) -> None:
    database = tmp_path / "demo.sqlite3"
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        code, stdout, stderr = await demo_refused(
            tmp_path, "--port", str(port), "--database", str(database)
        )
    assert code != 0 and stdout == "", stdout
    [line] = stderr.strip().splitlines()
    assert f"port {port} on 127.0.0.1 is not free" in line, line
    assert not database.exists()


async def test_the_demo_names_the_missing_directory_of_its_database(tmp_path: Path) -> None:
    missing = tmp_path / "not-made-yet"
    code, stdout, stderr = await demo_refused(
        tmp_path, "--port", str(free_port()), "--database", str(missing / "demo.sqlite3")
    )
    assert code != 0 and stdout == "", stdout
    [line] = stderr.strip().splitlines()
    assert f"{str(missing)!r}, a directory that does not exist" in line, line
    assert not missing.exists()
