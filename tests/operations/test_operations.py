"""Operations (CONTRACT.md section 13), checked the way an operator checks: health and readiness
(also against dependencies that hang), Prometheus metrics (one process, two server processes, the
worker's port), and the deployment files' health checks."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import signal
from collections.abc import AsyncIterator
from dataclasses import replace
from pathlib import Path

import httpx
import pytest
import yaml
from prometheus_client.parser import text_string_to_metric_families

from app.runtime import stopping
from app.settings import get_settings
from tests.harness import REDIS_URL, free_port
from tests.processes import RunningProcess, served, worker
from tests.support import Tenant, ok, open_door, problem
from tests.webhooks.support import Receiver, emit, settled_log, subscribe

ROOT = Path(__file__).resolve().parents[2]
PATIENT = 10.0
"""Client timeout for answers that must come (the service bounds its checks to about a second;
this only keeps a broken build from hanging the suite)."""


def samples(text: str, name: str, **labels: str) -> float:
    """The sum of the samples of ``name`` whose labels include ``labels``."""
    return sum(
        sample.value
        for family in text_string_to_metric_families(text)
        for sample in family.samples
        if sample.name == name and labels.items() <= sample.labels.items()
    )


@contextlib.asynccontextmanager
async def hanging_listener() -> AsyncIterator[int]:
    """A TCP port on 127.0.0.1 that accepts connections and never answers; its port."""
    release = asyncio.Event()

    async def hold(_: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await release.wait()
        writer.close()

    server = await asyncio.start_server(hold, "127.0.0.1", free_port())
    try:
        yield server.sockets[0].getsockname()[1]
    finally:
        release.set()
        server.close()
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(server.wait_closed(), 5)


async def test_health_and_readiness(client: httpx.AsyncClient) -> None:
    assert ok(await client.get("/healthz")) == {"status": "ok"}
    assert ok(await client.get("/readyz")) == {
        "status": "ready",
        "checks": {"database": "ok", "migrations": "ok"},
    }


async def test_a_process_told_to_stop_is_not_ready(
    client: httpx.AsyncClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """After SIGTERM (``app.runtime.stopping``) a load balancer's check on a connection still
    open hears 503, while the requests in flight finish."""
    monkeypatch.setattr(stopping, "is_stopping", lambda: True)
    not_ready = problem(await client.get("/readyz"), 503)
    assert not_ready["checks"] == {"database": "ok", "migrations": "ok", "process": "stopping"}
    assert ok(await client.get("/healthz")) == {"status": "ok"}


async def test_readiness_checks_redis_when_it_is_set(database: None) -> None:
    from ticketing.application import create_app

    app = create_app(replace(get_settings(), redis_url=REDIS_URL))
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url="http://ops.local") as client:
        ready = ok(await client.get("/readyz"))
    assert ready["checks"] == {"database": "ok", "migrations": "ok", "redis": "ok"}


@pytest.mark.slow
async def test_a_hung_database_makes_the_server_not_ready_quickly(database: None) -> None:
    async with hanging_listener() as port:
        hung = f"postgresql://postgres@127.0.0.1:{port}/ticketing"
        async with (
            served(DATABASE_URL=hung) as server,
            httpx.AsyncClient(base_url=server.url, timeout=PATIENT) as client,
        ):
            assert ok(await client.get("/healthz")) == {"status": "ok"}
            not_ready = problem(await client.get("/readyz"), 503)
            request = await client.get("/whoami", headers={"Authorization": "Bearer tk_live_x"})
    assert not_ready["checks"]["database"] == "no answer within 1 s"
    assert "database" in not_ready["detail"]
    problem(request, 503)
    assert "Traceback" not in server.log()


@pytest.mark.slow
async def test_a_hung_redis_makes_the_server_not_ready_quickly(database: None) -> None:
    async with (
        hanging_listener() as port,
        served(REDIS_URL=f"redis://127.0.0.1:{port}/0") as server,
        httpx.AsyncClient(base_url=server.url, timeout=PATIENT) as client,
    ):
        not_ready = problem(await client.get("/readyz"), 503)
    assert not_ready["checks"] == {
        "database": "ok",
        "migrations": "ok",
        "redis": "no answer within 1 s",
    }


async def test_metrics_count_requests_by_route_template_and_scans_by_outcome(
    client: httpx.AsyncClient, tenant: Tenant
) -> None:
    door = await open_door(client, tenant)
    ticket_id = door.tickets[0]["id"]
    route = {"route": "/tickets/{ticket_id}/scan", "method": "POST", "status": "200"}
    valid = {"status": "valid", "reason": "none"}
    again = {"status": "scanned", "reason": "already_scanned"}
    before = (await client.get("/metrics")).text
    for _ in range(2):
        ok(await client.post(f"/tickets/{ticket_id}/scan", json={}, headers=tenant.headers))
    response = await client.get("/metrics")
    assert response.headers["content-type"].startswith("text/plain")
    after = response.text
    assert ticket_id not in after
    assert samples(after, "ticketing_http_requests_total", **route) == (
        samples(before, "ticketing_http_requests_total", **route) + 2
    )
    assert (
        samples(after, "ticketing_http_request_duration_seconds_count", route=route["route"]) >= 2
    )
    assert samples(after, "ticketing_scans_total", **valid) == (
        samples(before, "ticketing_scans_total", **valid) + 1
    )
    assert samples(after, "ticketing_scans_total", **again) == (
        samples(before, "ticketing_scans_total", **again) + 1
    )
    families = {family.name for family in text_string_to_metric_families(after)}
    assert {
        "ticketing_outbox_backlog",
        "ticketing_outbox_oldest_age_seconds",
        "ticketing_db_pool_connections_in_use",
        "ticketing_webhook_delivery_attempts",
    } <= families


async def test_metrics_can_be_turned_off(database: None) -> None:
    from ticketing.application import create_app

    transport = httpx.ASGITransport(app=create_app(replace(get_settings(), metrics=False)))
    async with httpx.AsyncClient(transport=transport, base_url="http://ops.local") as client:
        problem(await client.get("/metrics"), 404)


@pytest.mark.slow
async def test_metrics_of_two_server_processes_add_up(database: None) -> None:
    """Requests on fresh connections until both processes have answered some (their access
    lines name their process), then every scrape, whichever process answers it, counts all."""
    async with served("--workers", "2", TICKETING_LOG_FORMAT="json") as server:
        no_reuse = httpx.Limits(max_keepalive_connections=0)
        async with httpx.AsyncClient(base_url=server.url, timeout=PATIENT, limits=no_reuse) as c:
            sent = await until_every_process_answered(server, c, 2)
            deadline = asyncio.get_running_loop().time() + 20
            while len(whoami_pids(server)) < sent:
                assert asyncio.get_running_loop().time() < deadline, server.log()[-2000:]
                await asyncio.sleep(0.1)
            scrapes = [(await c.get("/metrics")).text for _ in range(6)]
    counted = [
        samples(text, "ticketing_http_requests_total", route="/whoami", status="401")
        for text in scrapes
    ]
    assert counted == [sent] * 6


def whoami_pids(server: RunningProcess) -> list[int]:
    """The process of each ``GET /whoami`` in the server's JSON access log."""
    entries = [json.loads(line) for line in server.lines()]
    return [e["process"] for e in entries if e.get("route") == "/whoami"]


async def until_every_process_answered(
    server: RunningProcess, client: httpx.AsyncClient, processes: int
) -> int:
    """Send ``GET /whoami`` on fresh connections until ``processes`` processes have answered;
    the number sent. Each granian process listens on its own socket (``SO_REUSEPORT``) once it
    has started, and the port answers as soon as the first one does, so the others may still be
    starting when the server says it listens (a bounded wait, not a count, on a busy machine)."""
    sent = 0
    deadline = asyncio.get_running_loop().time() + 60
    while len(set(whoami_pids(server))) < processes:
        assert asyncio.get_running_loop().time() < deadline, "a server process never answered"
        await asyncio.gather(*(client.get("/whoami") for _ in range(10)))
        sent += 10
    return sent


def server_processes(pid: int) -> set[int]:
    """The processes serving requests under ``ticketing serve`` (not multiprocessing's helper)."""
    children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
    return {
        int(child)
        for child in children
        if "spawn_main" in Path(f"/proc/{child}/cmdline").read_text(errors="replace")
    }


def alive(pid: int) -> bool:
    return Path(f"/proc/{pid}").exists()


@pytest.mark.slow
async def test_a_server_process_that_dies_is_replaced(database: None) -> None:
    async with (
        served("--workers", "2", TICKETING_LOG_FORMAT="json") as server,
        httpx.AsyncClient(
            base_url=server.url,
            timeout=PATIENT,
            limits=httpx.Limits(max_keepalive_connections=0),
        ) as client,
    ):
        first = server_processes(server.process.pid)
        assert len(first) == 2, first
        await until_every_process_answered(server, client, 2)
        os.kill(min(first), signal.SIGKILL)
        deadline = asyncio.get_running_loop().time() + 60
        while len(server_processes(server.process.pid) - first) < 1:
            assert server.process.returncode is None, server.log()[-2000:]
            assert asyncio.get_running_loop().time() < deadline, server.log()[-2000:]
            await asyncio.sleep(0.2)
        assert server.process.returncode is None
        assert ok(await client.get("/healthz")) == {"status": "ok"}
    assert "Unexpected exit from worker" in server.log()


@pytest.mark.slow
async def test_a_killed_server_leaves_no_process_serving(database: None) -> None:
    """``kill -9`` of ``ticketing serve`` ends its server processes too, as it would a server of
    one process: nothing answers on the port any more."""
    async with served("--workers", "2") as server:
        processes = server_processes(server.process.pid)
        assert len(processes) == 2, processes
        server.process.kill()
        await server.process.wait()
        deadline = asyncio.get_running_loop().time() + 30
        while any(alive(pid) for pid in processes):
            assert asyncio.get_running_loop().time() < deadline, "a server process lives on"
            await asyncio.sleep(0.1)
        host, port = server.url.removeprefix("http://").split(":")
        with pytest.raises(ConnectionRefusedError):
            await asyncio.open_connection(host, int(port))


@pytest.mark.slow
async def test_the_worker_exposes_its_own_metrics(
    client: httpx.AsyncClient, tenant: Tenant
) -> None:
    port = free_port()
    async with Receiver() as receiver, worker(REDIS_URL, "--metrics-port", str(port)):
        hook = await subscribe(client, tenant, receiver.url, ["order.created"])
        await emit(tenant, "order.created")
        await receiver.wait_for(1, within=30)
        await settled_log(client, tenant, hook["id"])
        async with httpx.AsyncClient(timeout=PATIENT) as scraper:
            response = await scraper.get(f"http://127.0.0.1:{port}/metrics")
            missing = await scraper.get(f"http://127.0.0.1:{port}/other")
            alive = await scraper.get(f"http://127.0.0.1:{port}/healthz")
            ready = await scraper.get(f"http://127.0.0.1:{port}/readyz")
    assert response.status_code == 200 and missing.status_code == 404
    assert alive.json() == {"status": "ok"}
    assert ready.status_code == 200, ready.text
    assert ready.json()["checks"] == {"database": "ok", "migrations": "ok", "redis": "ok"}
    text = response.text
    assert samples(text, "ticketing_webhook_delivery_attempts_total", outcome="delivered") == 1
    assert samples(text, "ticketing_outbox_backlog") >= 0
    assert "ticketing_outbox_oldest_age_seconds" in text


def test_the_deployment_health_checks_ask_for_readiness() -> None:
    compose = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
    api_check = " ".join(compose["services"]["api"]["healthcheck"]["test"])
    assert "/readyz" in api_check
    worker_check = " ".join(compose["services"]["worker"]["healthcheck"]["test"])
    assert "/metrics" in worker_check
    assert "--metrics-port" in " ".join(compose["services"]["worker"]["command"])
    dockerfile = (ROOT / "Dockerfile").read_text()
    [healthcheck] = [
        line for line in dockerfile.splitlines() if line.strip().startswith("CMD python")
    ]
    assert "/readyz" in healthcheck
