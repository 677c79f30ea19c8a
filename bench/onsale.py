"""The on-sale (issue 25 item 5): a rush on ONE timeslot next to the same load spread over 100,
in one run, with the capacity invariant sampled throughout and checked at the end.

Starts the reference floor (``bench/floor.py``) and ``ticketing serve`` (two processes each) on a
throw-away database, and through the API makes an event with one timeslot of ``--capacity``
places (the hot load) and an event with 100 timeslots sharing the same capacity (the spread
load). Each load is ``--demand`` times its capacity in places, asked for by buyers of 1 to 4
places: four in five hold their places and then place the order of the hold
(``POST /holds``, ``POST /orders`` with ``hold_id``), one in five orders outright. ``--clients``
keep-alive clients serve the buyers of one load at a time, in slices of ``--slice`` seconds taken
in turns (hot, spread, hot, ...) until both have served every buyer, so that the shared machine's
changing load weighs on both alike.

While they run, a sampler reads every timeslot's counters twice a second and counts the hot
timeslot's rows (tickets not cancelled of orders not cancelled, places of active holds) every few
seconds: ``sold + held <= capacity`` at every sample. At the end, for every timeslot, the
counters equal the rows, ``sold + held = capacity`` (demand exceeded it), no hold became two
orders and every order of a hold has the hold's tickets; answers other than 201 and 409, and
PostgreSQL's deadlock count, are reported (the goals are zero).

Every ``--vacuum-seconds`` (60) during the loads the tables they write are vacuumed and analyzed,
as autovacuum does on a server that runs it: this machine's PostgreSQL has it off, and a hot
timeslot's row updated 100,000 times without it is a chain of dead row versions that every
statement on it walks (a first run at capacity 50,000 without it: hot / spread 0.37).

Then one-ticket orders outright (on a timeslot that does not sell out) next to the floor's
``POST /write/{counter}`` (key lookup, conditional UPDATE ... RETURNING, INSERT, one
transaction) on one hot counter, in interleaved slices.

    .venv/bin/python bench/onsale.py                       # capacity 50,000, demand 5x
    .venv/bin/python bench/onsale.py --capacity 5000       # a quicker run

An A/B in one run: ``--b-tree DIR`` also serves the one-ticket orders from another checkout of
the project (e.g. ``git archive <commit> | tar -x -C DIR``), on the same database and this
checkout's environment, in turns with this one's and the floor's; it prints that checkout's
orders/s and this one's ratio to it.

Prints holds/s, orders/s, requests/s, p50/p99 of each load, the ratio hot/spread, and orders/s
next to the floor's writes/s.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import time
import uuid
from collections import Counter, deque
from dataclasses import dataclass, field
from pathlib import Path

import asyncpg
import httpx
from loadgen import HttpConnection, Phase, Request, run_phase
from run import figure, free_port, server_command, servers
from run import running as run_server
from seeding import seed, throwaway_database

SPREAD_TIMESLOTS = 100
HOLD_SHARE = 0.8
"""Buyers who hold first (the rest order outright)."""
MAX_PLACES = 4
SAMPLE_SECONDS = 0.5
COUNT_EVERY_SAMPLES = 10
BUYER = {
    "buyer_name": "Rush Buyer",
    "buyer_email": "rush@example.com",
    "channel": "online",
    "payment_method": "card",
}


@dataclass(frozen=True)
class Slot:
    event_id: str
    timeslot_id: str
    ticket_type_id: str


@dataclass
class Load:
    """One load: its timeslots, the buyers still to serve, and what they were answered."""

    name: str
    slots: list[Slot]
    capacity: int
    buyers: deque[tuple[Slot, int, bool]]
    latencies: list[float] = field(default_factory=list)
    answers: Counter[tuple[str, int]] = field(default_factory=Counter)
    seconds: float = 0.0

    def served(self, kind: str) -> int:
        return self.answers[(kind, 201)]

    def report(self) -> dict[str, float]:
        ordered = sorted(self.latencies) or [0.0]
        return {
            "requests/s": len(self.latencies) / self.seconds,
            "holds/s": self.served("hold") / self.seconds,
            "orders/s": (self.served("order") + self.served("direct")) / self.seconds,
            "p50 ms": ordered[len(ordered) // 2] * 1000,
            "p99 ms": ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))] * 1000,
        }


def demand(slots: list[Slot], capacity: int, times: float, rng: random.Random) -> deque:
    """Buyers asking for ``times`` the capacity in places, each at a random timeslot."""
    buyers: deque[tuple[Slot, int, bool]] = deque()
    asked = 0
    while asked < capacity * times:
        places = rng.randint(1, MAX_PLACES)
        buyers.append((rng.choice(slots), places, rng.random() >= HOLD_SHARE))
        asked += places
    return buyers


async def serve_buyers(load: Load, connections: list[HttpConnection], seconds: float) -> None:
    """The load's next buyers, on every connection at once, for ``seconds`` or until none is
    left."""
    deadline = time.perf_counter() + seconds

    async def ask(
        connection: HttpConnection, kind: str, method: str, path: str, body: dict
    ) -> tuple[int, bytes]:
        started = time.perf_counter()
        status, answer = await connection.request(method, path, json.dumps(body).encode())
        load.latencies.append(time.perf_counter() - started)
        load.answers[(kind, status)] += 1
        return status, answer

    async def client(connection: HttpConnection) -> None:
        while load.buyers and time.perf_counter() < deadline:
            slot, places, outright = load.buyers.popleft()
            tickets = [{"ticket_type_id": slot.ticket_type_id}] * places
            if outright:
                body = {**BUYER, "event_id": slot.event_id, "event_timeslot_id": slot.timeslot_id}
                await ask(connection, "direct", "POST", "/orders", {**body, "tickets": tickets})
                continue
            hold = {"event_id": slot.event_id, "event_timeslot_id": slot.timeslot_id}
            status, answer = await ask(
                connection, "hold", "POST", "/holds", {**hold, "tickets": tickets}
            )
            if status == 201:
                hold_id = json.loads(answer)["id"]
                await ask(connection, "order", "POST", "/orders", {**BUYER, "hold_id": hold_id})

    began = time.perf_counter()
    await asyncio.gather(*(client(connection) for connection in connections))
    load.seconds += time.perf_counter() - began


COUNTERS = "SELECT id, total_available, sold, held FROM timeslots WHERE id = ANY($1::uuid[])"
COUNTED = """
SELECT t.id, t.total_available AS total, t.sold AS sold_counter,
       t.held - (SELECT COALESCE(SUM(h.quantity), 0) FROM holds h WHERE h.event_timeslot_id = t.id
                 AND h.status = 'active' AND h.expires_at <= now()) AS held_counter,
       (SELECT COUNT(*) FROM tickets k JOIN orders o ON o.id = k.order_id
        WHERE k.event_timeslot_id = t.id AND k.status <> 'cancelled'
        AND o.status <> 'cancelled') AS sold,
       (SELECT COALESCE(SUM(h.quantity), 0) FROM holds h WHERE h.event_timeslot_id = t.id
        AND h.status = 'active' AND h.expires_at > now()) AS held
FROM timeslots t WHERE t.id = ANY($1::uuid[])
"""
SOLD_TWICE = """
SELECT
  (SELECT COUNT(*) FROM (SELECT order_id FROM holds WHERE status = 'converted'
     GROUP BY order_id HAVING COUNT(*) > 1) twice) AS orders_of_two_holds,
  (SELECT COUNT(*) FROM holds WHERE status = 'converted' AND order_id IS NULL) AS converted_blind,
  (SELECT COUNT(*) FROM holds h WHERE h.status = 'converted' AND h.quantity <>
     (SELECT COUNT(*) FROM tickets k WHERE k.order_id = h.order_id)) AS holds_misfilled
"""
DEADLOCKS = "SELECT deadlocks FROM pg_stat_database WHERE datname = current_database()"


@dataclass
class Samples:
    taken: int = 0
    broken: list[str] = field(default_factory=list)


async def sample(database_url: str, loads: list[Load], done: asyncio.Event) -> Samples:
    """The invariant at every sample: the counters of every timeslot, and every few samples the
    hot timeslot counted from its rows."""
    samples = Samples()
    ids = [slot.timeslot_id for load in loads for slot in load.slots]
    hot = [loads[0].slots[0].timeslot_id]
    connection = await asyncpg.connect(database_url)
    try:
        while not done.is_set():
            for row in await connection.fetch(COUNTERS, ids):
                if row["sold"] + row["held"] > row["total_available"]:
                    samples.broken.append(f"counters {dict(row)}")
            if samples.taken % COUNT_EVERY_SAMPLES == 0:
                for row in await connection.fetch(COUNTED, hot):
                    if row["sold"] + row["held"] > row["total"]:
                        samples.broken.append(f"rows {dict(row)}")
            samples.taken += 1
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(done.wait(), SAMPLE_SECONDS)
    finally:
        await connection.close()
    return samples


VACUUMED = "VACUUM (ANALYZE) timeslots, holds, ticket_types, orders, tickets, outbox_events"


async def vacuum(database_url: str, every: float, done: asyncio.Event) -> int:
    """``VACUUM (ANALYZE)`` of the tables the on-sale writes, every ``every`` seconds until
    ``done``: what autovacuum does on a server that runs it (at its default ``autovacuum_naptime``
    of one minute), for a server that does not (this machine's has it off). The number of runs."""
    runs = 0
    connection = await asyncpg.connect(database_url)
    try:
        while not done.is_set():
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(done.wait(), every)
            if not done.is_set():
                await connection.execute(VACUUMED)
                runs += 1
    finally:
        await connection.close()
    return runs


async def check_final(database_url: str, loads: list[Load]) -> list[str]:
    """What is wrong at the end (nothing, when the goals are met)."""
    problems = []
    connection = await asyncpg.connect(database_url)
    try:
        for load in loads:
            rows = await connection.fetch(COUNTED, [slot.timeslot_id for slot in load.slots])
            for row in rows:
                if (row["sold_counter"], row["held_counter"]) != (row["sold"], row["held"]):
                    problems.append(f"{load.name}: counters differ from rows {dict(row)}")
            taken = sum(row["sold"] + row["held"] for row in rows)
            if taken != load.capacity:
                problems.append(f"{load.name}: sold + held = {taken}, capacity {load.capacity}")
        twice = await connection.fetchrow(SOLD_TWICE)
        problems += [f"{name}: {value}" for name, value in twice.items() if value]
    finally:
        await connection.close()
    return problems


async def create_loads(base_url: str, key: str, capacity: int, times: float) -> list[Load]:
    """The hot event (one timeslot), the spread event (100 timeslots) and an event whose
    timeslot never sells out (for the orders next to the floor), made through the API."""
    rng = random.Random(25)
    headers = {"Authorization": f"Bearer {key}"}
    async with httpx.AsyncClient(base_url=base_url, headers=headers, timeout=60) as http:

        async def event(title: str, capacities: list[int]) -> list[Slot]:
            made = (
                await http.post(
                    "/events", json={"title": title, "starts_at": "2030-06-01T18:00:00Z"}
                )
            ).json()
            ticket_type = (
                await http.post(
                    f"/events/{made['id']}/ticket_types", json={"name": "Day", "price": 25}
                )
            ).json()
            slots = []
            for number, places in enumerate(capacities):
                timeslot = (
                    await http.post(
                        f"/events/{made['id']}/timeslots",
                        json={
                            "title": f"Slot {number}",
                            "starts_at": "2030-06-01T18:00:00Z",
                            "ends_at": "2030-06-01T23:00:00Z",
                            "total_available": places,
                            "ticket_type_ids": [ticket_type["id"]],
                        },
                    )
                ).json()
                slots.append(Slot(made["id"], timeslot["id"], ticket_type["id"]))
            return slots

        hot = await event("The rush", [capacity])
        share, left = divmod(capacity, SPREAD_TIMESLOTS)
        spread = await event(
            "The same, spread",
            [share + (1 if i < left else 0) for i in range(SPREAD_TIMESLOTS)],
        )
        ample = await event("Orders next to the floor", [10_000_000])
    return [
        Load("hot (1 timeslot)", hot, capacity, demand(hot, capacity, times, rng)),
        Load(
            f"spread ({SPREAD_TIMESLOTS} timeslots)",
            spread,
            capacity,
            demand(spread, capacity, times, rng),
        ),
        Load("ample", ample, 10_000_000, deque()),
    ]


def one_ticket_order(slot: Slot) -> Request:
    body = json.dumps(
        {
            **BUYER,
            "event_id": slot.event_id,
            "event_timeslot_id": slot.timeslot_id,
            "tickets": [{"ticket_type_id": slot.ticket_type_id}],
        }
    ).encode()

    async def request(connection: HttpConnection) -> bool:
        status, _ = await connection.request("POST", "/orders", body)
        return status == 201

    return request


def floor_write(counter_id: uuid.UUID) -> Request:
    async def request(connection: HttpConnection) -> bool:
        status, _ = await connection.request("POST", f"/write/{counter_id}")
        return status == 201

    return request


async def connections_to(
    stack: contextlib.AsyncExitStack, port: int, key: str, clients: int
) -> list[HttpConnection]:
    headers = {"Authorization": f"Bearer {key}"}
    return [
        await stack.enter_async_context(HttpConnection("127.0.0.1", port, headers))
        for _ in range(clients)
    ]


def print_loads(loads: list[Load]) -> None:
    hot, spread = (load.report() for load in loads[:2])
    print(f"\n{'load':<24}" + "".join(f"{name:>12}" for name in hot) + f"{'seconds':>10}")
    for load, figures in zip(loads[:2], (hot, spread), strict=True):
        print(
            f"{load.name:<24}"
            + "".join(f"{value:12.1f}" for value in figures.values())
            + f"{load.seconds:10.1f}"
        )
    print(f"{'hot / spread':<24}" + "".join(f"{hot[name] / spread[name]:12.2f}" for name in hot))
    for load in loads[:2]:
        print(f"{load.name}: answers {dict(sorted(load.answers.items()))}")


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--capacity", type=int, default=50_000)
    parser.add_argument("--demand", type=float, default=5.0, help="places asked / capacity")
    parser.add_argument("--clients", type=int, default=32)
    parser.add_argument("--slice", type=float, default=10.0, help="seconds per turn")
    parser.add_argument("--floor-seconds", type=float, default=15.0, help="orders vs floor")
    parser.add_argument("--rounds", type=int, default=3, help="slices of orders vs floor")
    parser.add_argument("--workers", type=int, default=2, help="server processes of each")
    parser.add_argument(
        "--vacuum-seconds",
        type=float,
        default=60.0,
        help="VACUUM (ANALYZE) the on-sale's tables this often during the loads, as autovacuum "
        "would (0: never)",
    )
    parser.add_argument(
        "--b-tree", type=Path, default=None, help="also serve the orders of this checkout (A/B)"
    )
    args = parser.parse_args()
    async with throwaway_database("ticketing_onsale") as database_url:
        seeded = await seed(database_url, [0])
        async with servers(args.workers) as running:
            service = running.ports["service"]
            loads = await create_loads(
                f"http://127.0.0.1:{service}", seeded.key, args.capacity, args.demand
            )
            counter = uuid.uuid4()
            admin = await asyncpg.connect(database_url)
            await admin.execute(
                "INSERT INTO floor_counters (id, capacity) VALUES ($1, 1000000000)", counter
            )
            deadlocks_before = await admin.fetchval(DEADLOCKS)
            print(
                f"capacity {args.capacity}, demand {args.demand}x, {args.clients} clients, "
                f"{args.workers} processes each, load average {os.getloadavg()[0]:.1f}"
            )
            done = asyncio.Event()
            sampler = asyncio.create_task(sample(database_url, loads[:2], done))
            vacuums = (
                asyncio.create_task(vacuum(database_url, args.vacuum_seconds, done))
                if args.vacuum_seconds > 0
                else None
            )
            async with contextlib.AsyncExitStack() as stack:
                connections = await connections_to(stack, service, seeded.key, args.clients)
                while any(load.buyers for load in loads[:2]):
                    for load in loads[:2]:
                        if load.buyers:
                            await serve_buyers(load, connections, args.slice)
            done.set()
            samples = await sampler
            vacuumed = await vacuums if vacuums is not None else 0
            problems = await check_final(database_url, loads[:2])
            print_loads(loads)
            print(
                f"invariant: {samples.taken} samples, {len(samples.broken)} broken"
                + (f" {samples.broken[:3]}" if samples.broken else "")
            )
            print("final checks:", problems or "all hold")
            print(f"VACUUM (ANALYZE) runs during the loads: {vacuumed}")

            phases: dict[str, list[Phase]] = {"floor": [], "orders": [], "orders (B)": []}
            slice_seconds = args.floor_seconds / args.rounds
            async with contextlib.AsyncExitStack() as stack:
                to_floor = await connections_to(
                    stack, running.ports["floor"], seeded.key, args.clients
                )
                to_service = await connections_to(stack, service, seeded.key, args.clients)
                to_b = []
                if args.b_tree is not None:
                    b_port = free_port()
                    b_log = Path(os.environ.get("TMPDIR", "/tmp")) / f"bench-b-{b_port}.log"
                    b_tree = str(args.b_tree.resolve())
                    await stack.enter_async_context(
                        run_server(
                            server_command("service", b_port, args.workers),
                            b_port,
                            b_log,
                            environment={"PYTHONPATH": b_tree},
                            cwd=args.b_tree.resolve(),
                        )
                    )
                    to_b = await connections_to(stack, b_port, seeded.key, args.clients)
                order = one_ticket_order(loads[2].slots[0])
                write = floor_write(counter)
                await run_phase("warm-up", to_floor, 1.0, write)
                await run_phase("warm-up", to_service, 1.0, order)
                if to_b:
                    await run_phase("warm-up", to_b, 1.0, order)
                for _ in range(args.rounds):
                    phases["floor"].append(await run_phase("floor", to_floor, slice_seconds, write))
                    phases["orders"].append(
                        await run_phase("orders", to_service, slice_seconds, order)
                    )
                    if to_b:
                        phases["orders (B)"].append(
                            await run_phase("orders (B)", to_b, slice_seconds, order)
                        )
            deadlocks = await admin.fetchval(DEADLOCKS) - deadlocks_before
            await admin.close()
        floor, orders, b_orders = (
            figure(
                Phase(
                    name,
                    [x for phase in found for x in phase.latencies],
                    sum(phase.errors for phase in found),
                    sum(phase.seconds for phase in found) or 1.0,
                )
            )
            for name, found in phases.items()
        )
        print(
            f"\nfloor POST /write (hot counter): {floor.rate:.0f}/s p50 {floor.p50_ms:.1f} ms "
            f"p99 {floor.p99_ms:.1f} ms, errors {floor.errors}"
        )
        print(
            f"one-ticket POST /orders:         {orders.rate:.0f}/s p50 {orders.p50_ms:.1f} ms "
            f"p99 {orders.p99_ms:.1f} ms, errors {orders.errors}; "
            f"x floor {orders.rate / floor.rate:.2f}"
        )
        if args.b_tree is not None:
            print(
                f"the same from {args.b_tree}: {b_orders.rate:.0f}/s p50 {b_orders.p50_ms:.1f} ms "
                f"p99 {b_orders.p99_ms:.1f} ms, errors {b_orders.errors}; "
                f"x floor {b_orders.rate / floor.rate:.2f}; this checkout / it "
                f"{orders.rate / b_orders.rate:.2f}"
            )
        errors = sum(
            count
            for load in loads[:2]
            for (_, status), count in load.answers.items()
            if status not in (201, 409)
        )
        print(
            f"answers other than 201/409: {errors}; deadlocks: {deadlocks}; "
            f"load average {os.getloadavg()[0]:.1f}"
        )
        log = Path(os.environ.get("TMPDIR", "/tmp")) / f"bench-service-{service}.log"
        text = await asyncio.to_thread(log.read_text, errors="replace")
        deadlock_lines = text.lower().count("deadlock")
        print(f"service log: {text.count('Traceback')} tracebacks, {deadlock_lines} deadlock lines")


if __name__ == "__main__":
    asyncio.run(main())
