"""A first run as a new user meets it (issue 9, items 11, 12 and 15): commands and requests
against a database that is not migrated, three migrations started at once, and what ``serve``
prints (where it listens, a line per request)."""

from __future__ import annotations

import asyncio
import json
import socket
from typing import Any

import httpx
import pytest

from db.migrate import NOT_MIGRATED, known_migrations
from tests.harness import REDIS_URL, empty_database
from tests.processes import served, ticketing
from tests.support import problem

ONE_LINE = f"ticketing: {NOT_MIGRATED}"


async def test_commands_against_an_unmigrated_database_say_so_in_one_line() -> None:
    async with empty_database() as url:
        outcomes = await asyncio.gather(
            ticketing("org", "create", "--name", "First", DATABASE_URL=url),
            ticketing(
                "api-key", "revoke", "6d1f9c4e-0000-4000-8000-000000000000", DATABASE_URL=url
            ),
            ticketing("worker", DATABASE_URL=url, REDIS_URL=REDIS_URL),
        )
    assert [outcome.failure() for outcome in outcomes] == [ONE_LINE] * 3


async def readiness_once_the_database_answers(client: httpx.AsyncClient) -> dict[str, Any]:
    """The 503 of ``/readyz`` once its check reached the database (a busy shared PostgreSQL may
    refuse a connection now and then; then the gate lets requests meet that themselves)."""
    deadline = asyncio.get_running_loop().time() + 20
    while True:
        not_ready = problem(await client.get("/readyz"), 503)
        if not_ready["checks"]["database"] == "ok":
            return not_ready
        assert asyncio.get_running_loop().time() < deadline, not_ready
        await asyncio.sleep(0.2)


@pytest.mark.slow
async def test_requests_against_an_unmigrated_database_get_503_until_it_is_migrated() -> None:
    async with empty_database() as url, served(DATABASE_URL=url) as server:  # noqa: SIM117
        async with httpx.AsyncClient(base_url=server.url, timeout=10) as client:
            not_ready = await readiness_once_the_database_answers(client)
            assert NOT_MIGRATED in not_ready["checks"]["migrations"]
            refused = problem(
                await client.get("/whoami", headers={"Authorization": "Bearer x"}), 503
            )
            assert refused["detail"] == NOT_MIGRATED
            graphql = await client.post("/graphql", json={"query": "{ whoami { email } }"})
            assert problem(graphql, 503)["detail"] == NOT_MIGRATED

            migrated = await ticketing("migrate", DATABASE_URL=url)
            assert migrated.code == 0, migrated.stderr
            deadline = asyncio.get_running_loop().time() + 20
            while (await client.get("/readyz")).status_code != 200:
                assert asyncio.get_running_loop().time() < deadline, server.log()
                await asyncio.sleep(0.2)
            problem(await client.get("/whoami", headers={"Authorization": "Bearer x"}), 401)
    output = server.log()
    assert "Traceback" not in output, output
    assert output.count(NOT_MIGRATED) == 1, output


async def test_three_migrations_started_at_once_on_a_fresh_database_all_succeed() -> None:
    async with empty_database() as url:
        outcomes = await asyncio.gather(*[ticketing("migrate", DATABASE_URL=url) for _ in range(3)])
        again = await ticketing("migrate", DATABASE_URL=url)
    assert [outcome.code for outcome in outcomes] == [0, 0, 0], [o.stderr for o in outcomes]
    printed = "".join(outcome.stdout for outcome in outcomes)
    for migration in known_migrations():
        assert printed.count(f"applied {migration.id}: {migration.description}\n") == 1, printed
    assert printed.count("the database is current") == 2, printed
    assert "already complete" not in printed
    assert again.stdout == "the database is current: no migration to apply\n"


async def test_serve_says_where_it_listens_and_logs_each_request_without_its_query(
    database: None,
) -> None:
    request_id = "first-run-0001"
    async with served() as server:
        async with httpx.AsyncClient(base_url=server.url, timeout=10) as client:
            await client.get("/whoami?code=query-secret", headers={"X-Request-ID": request_id})
        await server.wait_for_log(request_id)
    port = server.url.rsplit(":", 1)[1]
    assert f"listening on http://127.0.0.1:{port} (1 process; granian, uvloop)" in server.log()
    [line] = [line for line in server.lines() if request_id in line]
    assert "GET /whoami 401" in line and " ms " in line, line
    assert "query-secret" not in server.log()


async def test_the_access_log_can_be_turned_off_and_written_as_json(database: None) -> None:
    async with served(TICKETING_ACCESS_LOG="0") as quiet, served(TICKETING_LOG_FORMAT="json") as js:
        for server in (quiet, js):
            async with httpx.AsyncClient(base_url=server.url, timeout=10) as client:
                await client.get("/whoami", headers={"X-Request-ID": "first-run-0002"})
        await js.wait_for_log("first-run-0002")
    assert "first-run-0002" not in quiet.log()
    entries = [json.loads(line) for line in js.lines()]
    [access] = [entry for entry in entries if entry.get("request_id") == "first-run-0002"]
    assert access["method"] == "GET" and access["route"] == "/whoami"
    assert access["status"] == 401 and access["duration_ms"] >= 0


@pytest.mark.parametrize("workers", ["1", "2"])
async def test_serve_on_port_0_names_the_real_port_once_it_answers(
    database: None, workers: str
) -> None:
    """Every process serves the one port printed, from the moment the line is printed (the
    health check below is the first request, not a poll)."""
    async with served("--port", "0", "--workers", workers, poll_health=False) as server:
        port = int(server.url.rsplit(":", 1)[1])
        async with httpx.AsyncClient(base_url=server.url, timeout=10) as client:
            assert (await client.get("/healthz")).status_code == 200
    assert port != 0


async def test_serve_on_a_busy_port_names_it_in_one_line(database: None) -> None:
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        outcome = await ticketing("serve", "--port", str(port))
    assert outcome.failure() == (
        f"ticketing: port {port} on 127.0.0.1 is not free (Address already in use): "
        "stop what listens there or pass another --port"
    )
