"""Failure drills on the reference topology (CONTRACT.md section 19, docs/deployment.md): each
takes one part away under load, through the load balancer, and checks what the clients and the
data say afterwards. They run in this order on one topology; the failover is last.

Each drill's figures (requests, attempts, retries, failures, the load balancer's own counts) are
printed at the end of the run and kept in tests/artifacts/drills.json.
"""

from __future__ import annotations

import asyncio
import shutil
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any

import asyncpg
import httpx
import pytest
import redis.asyncio as redis_asyncio

from app.services.webhook_delivery import DISPATCH_LEASE
from deploy.local.topology import REPOSITORY, Topology, haproxy_stats, migrate
from tests.deployment.conftest import PRINTED, record_figures
from tests.deployment.load import Figures, Shop, call, place_order, shop_and_browse
from tests.graphql.test_subscriptions import subscribed
from tests.support import create_venue, ok, operation
from tests.webhooks.support import Receiver

pytestmark = pytest.mark.drill

DRILL_SECONDS = 300
WORKER_RECOVERY_SECONDS = DISPATCH_LEASE.total_seconds() + 60
"""How long a killed worker's deliveries may take to be sent by the others (see the drill)."""
ORDER_CHANGES = operation("EventOrderChanges")
SHIPPED = ("ticketing", "app", "db", "rest", "graphql_api", "dashboard", "workers")
RELEASE_MIGRATION = '''"""The drill's release: one column old code does not know, with a default."""

from piccolo.apps.migrations.auto.migration_manager import MigrationManager

from db.tables import Order

ID = "2099-01-01T00:00:00:000000"
VERSION = "1.38.0"
DESCRIPTION = "drill: orders.drill_note"


async def forwards() -> MigrationManager:
    manager = MigrationManager(migration_id=ID, app_name="ticketing", description=DESCRIPTION)

    async def apply() -> None:
        await Order._meta.db.run_ddl(
            "ALTER TABLE orders ADD COLUMN drill_note VARCHAR(40) NOT NULL DEFAULT ''"
        )

    manager.add_raw(apply)
    return manager
'''


@pytest.fixture
async def venue_shop(shop: Shop) -> Shop:
    """The drill's own event (so that its orders can be counted alone)."""
    async with httpx.AsyncClient(base_url=shop.lb_url, timeout=30) as client:
        venue = await create_venue(client, shop.tenant, capacity=100_000, price=10.0)
    return Shop(
        shop.lb_url,
        shop.keys,
        venue.event["id"],
        venue.timeslot["id"],
        venue.ticket_type["id"],
        shop.tenant,
    )


async def until(condition: Callable[[], bool], within: float, what: str) -> None:
    deadline = asyncio.get_running_loop().time() + within
    while not condition():
        assert asyncio.get_running_loop().time() < deadline, f"not within {within} s: {what}"
        await asyncio.sleep(0.1)


async def orders_in_database(topology: Topology, event_id: str) -> list[str]:
    """Every order of the event, read on the read-write server (whichever it is now)."""
    connection = await asyncpg.connect(topology.listen_url)
    try:
        rows = await connection.fetch("SELECT id FROM orders WHERE event_id = $1", event_id)
    finally:
        await connection.close()
    return [str(row["id"]) for row in rows]


def node_pids(topology: Topology) -> dict[str, int]:
    return {node.name: node.pid for node in (*topology.serve, *topology.workers)}


def balancer(topology: Topology) -> dict[str, int]:
    """The load balancer's counts: requests, 5xx answered to clients, retries, redispatches."""
    stats = haproxy_stats(topology)
    front = stats[("api", "FRONTEND")]
    backends = [row for (_, server), row in stats.items() if server == "BACKEND"]
    return {
        "lb_requests": int(front["req_tot"] or 0),
        "lb_5xx": int(front["hrsp_5xx"] or 0),
        "lb_retries": sum(int(row["wretr"] or 0) for row in backends),
        "lb_redispatches": sum(int(row["wredis"] or 0) for row in backends),
    }


def since(before: dict[str, int], after: dict[str, int]) -> dict[str, int]:
    return {name: after[name] - before[name] for name in after}


def report(drill: str, figures: Figures, lb: dict[str, int], **more: Any) -> None:
    record_figures(drill, {**figures.report(), **lb, **more})


def assert_no_client_failed(figures: Figures) -> None:
    assert figures.failures == 0, figures.report()
    assert figures.unretryable == [], figures.unretryable[:3]
    assert figures.key_conflicts == [], figures.key_conflicts[:3]


async def test_deploy_local_up_printed_what_runs_where(topology: Topology) -> None:
    """CONTRACT.md section 19's object, and each process it names alive."""
    assert {
        "lb_url", "database_url", "serve", "workers", "pgbouncer", "primary", "standby", "redis",
    } <= PRINTED.keys()  # fmt: skip
    assert PRINTED["lb_url"] == topology.lb_url
    assert PRINTED["database_url"] == topology.environment["DATABASE_URL"]
    assert "target_session_attrs=read-write" in PRINTED["database_url"]
    assert [node["name"] for node in PRINTED["serve"]] == ["serve-1", "serve-2", "serve-3"]
    assert [node["name"] for node in PRINTED["workers"]] == ["worker-1", "worker-2"]
    addresses = {node["url"].split("//")[1].split(":")[0] for node in PRINTED["serve"]}
    assert len(addresses) == 3 and all(a.startswith("127.0.0.") for a in addresses)
    named = [*PRINTED["serve"], *PRINTED["workers"], PRINTED["pgbouncer"], PRINTED["primary"]]
    named += [PRINTED["standby"], PRINTED["redis"]]
    assert {entry["pid"] for entry in named} == {p.pid for p in topology.processes()} - {
        topology.haproxy.pid if topology.haproxy else 0,
        topology.pgbouncers[1].pid,
    }
    assert all(process.alive() for process in topology.processes())
    async with httpx.AsyncClient(base_url=PRINTED["lb_url"], timeout=10) as client:
        assert (await client.get("/readyz")).status_code == 200


async def test_a_serve_node_killed_under_load_loses_and_repeats_no_order(
    topology: Topology, venue_shop: Shop
) -> None:
    figures, before = Figures(), balancer(topology)
    async with asyncio.timeout(DRILL_SECONDS):
        load = asyncio.create_task(shop_and_browse(venue_shop, figures, orders=20, reads=5))
        await until(lambda: len(figures.orders) >= 20, 120, "the first orders")
        await asyncio.to_thread(topology.kill, "serve-2")
        await load
        await asyncio.to_thread(topology.start, "serve-2")
    lb = since(before, balancer(topology))
    in_database = await orders_in_database(topology, venue_shop.event_id)
    report("serve node SIGKILL", figures, lb, duplicates=len(in_database) - len(figures.orders))
    assert_no_client_failed(figures)
    assert len(figures.orders) == len(venue_shop.keys) * 20
    assert sorted(in_database) == sorted(figures.orders.values())


def new_release(directory: Path) -> dict[str, str]:
    """This code plus one additive migration, in a directory of its own: the environment that
    runs it (its packages come first on the path)."""
    for package in SHIPPED:
        shutil.copytree(
            REPOSITORY / package, directory / package, ignore=shutil.ignore_patterns("__pycache__")
        )
    (directory / "db" / "migrations" / "ticketing_2099_01_01t00_00_00_000000.py").write_text(
        RELEASE_MIGRATION
    )
    return {"PYTHONPATH": str(directory)}


async def test_a_rolling_restart_across_a_release_with_a_migration_fails_no_request(
    topology: Topology, venue_shop: Shop, tmp_path: Path
) -> None:
    release = new_release(tmp_path)
    figures, before, stop = Figures(), balancer(topology), asyncio.Event()
    async with asyncio.timeout(DRILL_SECONDS):
        load = asyncio.create_task(
            shop_and_browse(venue_shop, figures, orders=10_000, reads=10_000, stop=stop)
        )
        await until(lambda: figures.requests >= 30, 120, "the load under way")
        # The release's migration, while the old release serves (a Job, or the first new node).
        applied = await asyncio.to_thread(migrate, topology, release)
        assert "drill: orders.drill_note" in applied
        for node in topology.serve:
            requests = figures.requests
            await asyncio.to_thread(topology.stop, node.name)
            await asyncio.to_thread(topology.start, node.name, release)
            await until(
                lambda name=node.name: haproxy_stats(topology)[("ready", name)]["status"] == "UP",
                30,
                f"{node.name} back in the load balancer",
            )
            await until(lambda r=requests: figures.requests >= r + 20, 60, "requests served")
        stop.set()
        await load
    lb = since(before, balancer(topology))
    report("rolling restart with a migration", figures, lb)
    assert_no_client_failed(figures)
    assert figures.retries == 0 and figures.transport_errors == 0, figures.report()
    assert set(figures.statuses) <= {200, 201}, figures.report()
    assert lb["lb_5xx"] == 0, lb
    in_database = await orders_in_database(topology, venue_shop.event_id)
    assert sorted(in_database) == sorted(figures.orders.values())


async def test_a_worker_killed_during_a_burst_loses_no_webhook(
    topology: Topology, venue_shop: Shop
) -> None:
    figures, before, burst = Figures(), balancer(topology), 20
    headers = venue_shop.tenant.headers
    async with (
        asyncio.timeout(DRILL_SECONDS + WORKER_RECOVERY_SECONDS),
        Receiver() as receiver,
        httpx.AsyncClient(base_url=topology.lb_url, headers=headers, timeout=30) as client,
    ):
        body = {"url": receiver.url, "event_types": ["order.created"]}
        ok(await client.post("/webhooks", json=body), 201)
        await asyncio.gather(
            *(
                place_order(client, venue_shop, figures, f"burst-{uuid.uuid4()}")
                for _ in range(len(venue_shop.keys) * burst)
            )
        )
        await until(lambda: len(receiver.requests) >= 10, 120, "the first deliveries")
        await asyncio.to_thread(topology.kill, "worker-1")
        expected = len(figures.orders)
        distinct = lambda: {r.headers["webhook-id"] for r in receiver.requests}  # noqa: E731
        try:
            # A pair whose job the killed worker had taken but not yet claimed is handed out
            # again when its hand-out lease ends (DISPATCH_LEASE), not sooner.
            await until(lambda: len(distinct()) >= expected, WORKER_RECOVERY_SECONDS, "all sent")
        finally:
            await asyncio.to_thread(topology.start, "worker-1")
    received = len(receiver.requests)
    report(
        "worker SIGKILL during deliveries",
        figures,
        since(before, balancer(topology)),
        events=expected,
        deliveries_received=received,
        duplicates=received - len(distinct()),
    )
    assert_no_client_failed(figures)
    assert len(distinct()) == expected


async def _rate_counts(topology: Topology) -> int:
    """Requests the rate limiter counted in Redis (every window, every credential)."""
    client = redis_asyncio.Redis.from_url(topology.redis_url)
    try:
        keys = [key async for key in client.scan_iter(match="ticketing:queue:rate:*")]
        return sum(int(value or 0) for value in await client.mget(keys)) if keys else 0
    finally:
        await client.aclose()


async def test_redis_restarted_subscriptions_and_rate_limits_recover_without_a_restart(
    topology: Topology, venue_shop: Shop
) -> None:
    pids, figures, before = node_pids(topology), Figures(), balancer(topology)
    key = venue_shop.keys[0]
    variables = {"eventId": venue_shop.event_id}
    async with (
        asyncio.timeout(DRILL_SECONDS),
        httpx.AsyncClient(
            base_url=topology.lb_url, headers=venue_shop.tenant.headers, timeout=30
        ) as client,
        subscribed(topology.lb_url, key, ORDER_CHANGES, variables) as subscriber,
    ):

        async def heard_an_order(what: str) -> None:
            """Place orders until the subscriber hears one (it may miss those placed while its
            node was not listening yet)."""
            deadline = asyncio.get_running_loop().time() + 60
            while True:
                await place_order(client, venue_shop, figures, f"live-{uuid.uuid4()}")
                if await subscriber.maybe_next(within=1.0) is not None:
                    return
                assert asyncio.get_running_loop().time() < deadline, what

        await heard_an_order("a subscription live before the drill")
        await asyncio.to_thread(topology.stop, "redis")
        for _ in range(10):  # the API goes on without Redis
            await call(client, figures, "GET", f"/events/{venue_shop.event_id}")
        await asyncio.to_thread(topology.start, "redis")
        await heard_an_order("the subscription hearing orders again")
        counted_before = await _rate_counts(topology)
        for _ in range(10):
            await call(client, figures, "GET", f"/events/{venue_shop.event_id}")
        counted = await _rate_counts(topology) - counted_before
    report(
        "Redis restarted",
        figures,
        since(before, balancer(topology)),
        rate_limit_counted_after=counted,
    )
    assert_no_client_failed(figures)
    assert counted >= 10, "the rate limiter does not count in Redis again"
    assert node_pids(topology) == pids
    assert all(node.alive() for node in (*topology.serve, *topology.workers))


async def test_the_primary_stopped_and_the_standby_promoted_loses_no_committed_order(
    topology: Topology, venue_shop: Shop
) -> None:
    pids, figures, before = node_pids(topology), Figures(), balancer(topology)
    async with asyncio.timeout(DRILL_SECONDS):
        load = asyncio.create_task(shop_and_browse(venue_shop, figures, orders=25, reads=0))
        await until(lambda: len(figures.orders) >= 20, 120, "the first orders")
        await asyncio.to_thread(topology.promote)
        await load
    lb = since(before, balancer(topology))
    in_database = await orders_in_database(topology, venue_shop.event_id)
    report(
        "primary stopped, standby promoted",
        figures,
        lb,
        duplicates=len(in_database) - len(figures.orders),
    )
    assert_no_client_failed(figures)
    assert figures.statuses[503] > 0, "no 503 while the database failed over"
    assert len(figures.orders) == len(venue_shop.keys) * 25
    assert sorted(in_database) == sorted(figures.orders.values())
    assert node_pids(topology) == pids
    assert all(node.alive() for node in (*topology.serve, *topology.workers))
