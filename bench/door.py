"""A stadium's door, replayed: entries and exits of many tickets, retried and late, then attendance
checked against a recount of the scan log (issue 26 item 5).

Seeds one event of ``--tickets`` tickets and a scanner whose profile lets tickets back in
(``reentry``), starts ``ticketing serve`` and the reference floor (``bench/floor.py``) side by side,
and replays ``--scans`` scans: each ticket's visitor goes in and out in turn at increasing moments
(the device's ``scanned_at``, within the last two days), a share of the sends are retries of a scan
already sent (``--duplicates``, same nonce: nothing new may be counted), and a share of the scans
(``--late``) are held back and uploaded at the end in shuffled ``POST /scans/batch`` batches
(offline devices coming back, out of order). Online scans go to ``POST /scans`` from ``--clients``
connections for ``--single-seconds`` (the measured rate), then the rest of them in order as
``POST /scans/batch`` of ``--online-batch`` scans from the same connections (gates that sync every
few seconds), so that a million scans replay in minutes on a shared machine; ``--online-batch 1``
sends every online scan alone.

The single scans take turns with the floor's admission (``POST /write``, the least an admission
needs, from the same clients) in ``--rounds`` slices of each (floor, scans, floor, scans, ...:
``--floor-seconds`` and ``--single-seconds`` in all), as ``bench/run.py`` does, so that a change
in the machine's load weighs on both alike and the ratio compares figures taken seconds apart.
At the end it reads
``GET /events/{id}/attendance`` and recounts the scan log in SQL (admitted: tickets
with a valid entry; inside: tickets whose latest valid scan by ``scanned_at`` is an entry; entries
and exits: valid scans of each direction) and fails unless they are equal. It prints the single
scans per second, the floor's admissions per second and their ratio, the batched scans per
second, and the whole replay's scans per second.

    .venv/bin/python bench/door.py                                   # 1,000,000 over 100,000
    .venv/bin/python bench/door.py --tickets 5000 --scans 50000      # a smaller replay
    .venv/bin/python bench/door.py --online-batch 1                  # every online scan alone
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import itertools
import json
import os
import random
import sys
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path

import asyncpg
import httpx
from loadgen import HttpConnection, run_phase
from run import floor_counters, free_port, running, server_command
from seeding import seed, throwaway_database

BATCH = 500
RECOUNT = """
    WITH valid AS (
        SELECT s.ticket_id, s.direction, s.scanned_at FROM scans s
        JOIN tickets t ON t.id = s.ticket_id
        WHERE t.event_id = $1 AND s.status = 'valid'
    ), latest AS (
        SELECT DISTINCT ON (ticket_id) ticket_id, direction FROM valid
        ORDER BY ticket_id, scanned_at DESC
    )
    SELECT
        (SELECT COUNT(DISTINCT ticket_id) FROM valid WHERE direction = 'entry') AS admitted,
        (SELECT COUNT(*) FROM latest WHERE direction = 'entry') AS inside,
        (SELECT COUNT(*) FROM valid WHERE direction = 'entry') AS entries,
        (SELECT COUNT(*) FROM valid WHERE direction = 'exit') AS exits
"""


@dataclass(frozen=True)
class Scan:
    code: str
    nonce: str
    scanned_at: str
    direction: str

    def body(self, scanner_id: str) -> bytes:
        return json.dumps(
            {
                "scannable_code": self.code,
                "nonce": self.nonce,
                "scanned_at": self.scanned_at,
                "direction": self.direction,
                "scanner_id": scanner_id,
            }
        ).encode()

    def item(self) -> dict[str, str]:
        return {
            "scannable_code": self.code,
            "nonce": self.nonce,
            "scanned_at": self.scanned_at,
            "direction": self.direction,
        }


def replay(
    codes: list[str], scans: int, late: float, seed_value: int
) -> tuple[list[Scan], list[Scan]]:
    """(online, held back) scans: visitors in turn, each going in and out at increasing moments
    over the last two days; a ``late`` share of them held back for the batches."""
    rng = random.Random(seed_value)
    start = datetime.now(UTC) - timedelta(hours=47)
    step = timedelta(hours=46) / scans
    next_direction = dict.fromkeys(codes, "entry")
    online: list[Scan] = []
    held: list[Scan] = []
    for index in range(scans):
        code = codes[rng.randrange(len(codes))]
        direction = next_direction[code]
        next_direction[code] = "exit" if direction == "entry" else "entry"
        moment = (start + step * index).isoformat().replace("+00:00", "Z")
        scan = Scan(code, f"door-{index}", moment, direction)
        (held if rng.random() < late else online).append(scan)
    return online, held


def with_duplicates(scans: list[Scan], share: float, seed_value: int) -> list[Scan]:
    """The scans with a ``share`` of extra sends that repeat an earlier one (a device retrying)."""
    rng = random.Random(seed_value + 1)
    sent: list[Scan] = []
    for scan in scans:
        sent.append(scan)
        if rng.random() < share / (1 - share):
            sent.append(sent[rng.randrange(len(sent))])
    return sent


async def attendance_and_recount(base_url: str, key: str, event_id: str) -> tuple[dict, dict]:
    async with httpx.AsyncClient(base_url=base_url, timeout=60) as client:
        response = await client.get(
            f"/events/{event_id}/attendance", headers={"Authorization": f"Bearer {key}"}
        )
        response.raise_for_status()
        figures = response.json()
    connection = await asyncpg.connect(os.environ["DATABASE_URL"])
    try:
        row = await connection.fetchrow(RECOUNT, uuid.UUID(event_id))
    finally:
        await connection.close()
    counted = {name: figures[name] for name in ("admitted", "inside", "entries", "exits")}
    return counted, dict(row)


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tickets", type=int, default=100_000)
    parser.add_argument("--scans", type=int, default=1_000_000)
    parser.add_argument("--duplicates", type=float, default=0.20, help="share of sends retried")
    parser.add_argument("--late", type=float, default=0.10, help="share uploaded late in batches")
    parser.add_argument("--clients", type=int, default=32)
    parser.add_argument(
        "--single-seconds", type=float, default=60.0, help="online scans sent alone this long"
    )
    parser.add_argument(
        "--online-batch", type=int, default=100, help="then online scans per POST /scans/batch"
    )
    parser.add_argument("--workers", type=int, default=2, help="server processes of each")
    parser.add_argument("--floor-seconds", type=float, default=10.0)
    parser.add_argument(
        "--rounds", type=int, default=3, help="slices of the floor and of the single scans"
    )
    parser.add_argument("--seed", type=int, default=26)
    args = parser.parse_args()
    logs = Path(os.environ.get("TMPDIR", "/tmp"))
    async with throwaway_database("ticketing_door") as database_url:
        started = time.perf_counter()
        seeded = await seed(database_url, [args.tickets])
        event = seeded.events[0]
        print(f"seeded {args.tickets} tickets in {time.perf_counter() - started:.1f} s")
        online, held = replay(event.codes, args.scans, args.late, args.seed)
        sends = with_duplicates(online, args.duplicates, args.seed)
        ports = {"service": free_port(), "floor": free_port()}
        async with contextlib.AsyncExitStack() as servers:
            for role, port in ports.items():
                await servers.enter_async_context(
                    running(
                        server_command(role, port, args.workers),
                        port,
                        logs / f"bench-door-{role}-{port}.log",
                        access_log=False,
                    )
                )
            base_url = f"http://127.0.0.1:{ports['service']}"
            headers = {"Authorization": f"Bearer {seeded.key}"}
            async with httpx.AsyncClient(base_url=base_url, headers=headers, timeout=60) as http:
                profile = await http.post(
                    "/scanner_profiles", json={"name": "Gates", "entry_policy": "reentry"}
                )
                profile_id = profile.raise_for_status().json()["id"]
                scanner = await http.post(
                    "/scanners", json={"name": "Gate A", "profile_id": profile_id}
                )
                scanner_id = scanner.raise_for_status().json()["id"]
            counters = iter(await floor_counters(database_url, FLOOR_COUNTERS))
            replay_started = time.perf_counter()
            queue = iter(sends)
            single, floor, floor_seconds = Sent(), Sent(), 0.0
            for _ in range(args.rounds):
                floor_started = time.perf_counter()
                floor.add(await floor_slice(ports["floor"], headers, counters, args))
                floor_seconds += time.perf_counter() - floor_started
                single.add(await send_online(ports["service"], headers, queue, scanner_id, args, 1))
            rate, floor_rate = single.sent / single.seconds, floor.sent / floor.seconds
            print(
                f"{single.sent} online sends alone at {rate:.0f}/s, "
                f"{single.errors} unexpected answers",
                flush=True,
            )
            print(
                f"floor POST /write (admission) {floor_rate:.0f}/s, in turns with them "
                f"({args.rounds} slices of each); POST /scans x floor: {rate / floor_rate:.2f} "
                f"(load average {os.getloadavg()[0]:.1f})",
                flush=True,
            )
            batched = await send_online(
                ports["service"], headers, queue, scanner_id, args, args.online_batch
            )
            print(
                f"{batched.sent} online sends in ordered batches of {args.online_batch} at "
                f"{batched.sent / batched.seconds:.0f}/s, {batched.errors} unexpected answers; "
                f"{len(sends) - len(online)} of all {len(sends)} online sends were retries",
                flush=True,
            )
            started = time.perf_counter()
            await send_late(base_url, headers, held, scanner_id, args.seed)
            late_seconds = time.perf_counter() - started
            print(f"{len(held)} late scans in shuffled batches of {BATCH} in {late_seconds:.1f} s")
            replay_seconds = time.perf_counter() - replay_started - floor_seconds
            total = len(sends) + len(held)
            print(
                f"the replay: {total} sends in {replay_seconds:.0f} s, {total / replay_seconds:.0f}"
                f"/s (load average {os.getloadavg()[0]:.1f})"
            )
            counted, recounted = await attendance_and_recount(base_url, seeded.key, str(event.id))
            print(f"attendance {counted}\nrecount    {recounted}")
            if counted != recounted:
                raise SystemExit("attendance differs from the recount of the scan log")
            print("attendance equals the recount")


@dataclass
class Sent:
    sent: int = 0
    errors: int = 0
    seconds: float = 0.0

    def add(self, other: Sent) -> None:
        self.sent += other.sent
        self.errors += other.errors
        self.seconds += other.seconds


async def send_online(
    port: int,
    headers: dict[str, str],
    queue: Iterator[Scan],
    scanner_id: str,
    args: argparse.Namespace,
    batch: int,
) -> Sent:
    """Sends from ``queue`` in order, from ``args.clients`` connections taking the next in
    turn: alone (``batch`` 1) for one slice (``args.single_seconds / args.rounds``) at most, else
    ``batch`` at a time in ``POST /scans/batch`` until the queue is empty."""
    done = Sent()
    single = args.single_seconds / args.rounds if batch == 1 else float("inf")

    async def client(connection: HttpConnection) -> None:
        while time.perf_counter() < started + single:
            chunk = list(itertools.islice(queue, batch))
            if not chunk:
                return
            if batch == 1:
                status, _ = await connection.request("POST", "/scans", chunk[0].body(scanner_id))
            else:
                body = {"scanner_id": scanner_id, "scans": [scan.item() for scan in chunk]}
                status, _ = await connection.request(
                    "POST", "/scans/batch", json.dumps(body).encode()
                )
            done.sent += len(chunk)
            done.errors += len(chunk) if status != 200 else 0

    async with contextlib.AsyncExitStack() as stack:
        connections = [
            await stack.enter_async_context(HttpConnection("127.0.0.1", port, headers))
            for _ in range(args.clients)
        ]
        started = time.perf_counter()  # timed from the connections made, as the floor's slices
        await asyncio.gather(*(client(connection) for connection in connections))
        done.seconds = time.perf_counter() - started
    return done


async def send_late(
    base_url: str, headers: dict[str, str], held: list[Scan], scanner_id: str, seed_value: int
) -> None:
    """The held-back scans as offline devices upload them: shuffled, in batches, a few at once."""
    rng = random.Random(seed_value + 2)
    shuffled = held[:]
    rng.shuffle(shuffled)
    batches = [shuffled[i : i + BATCH] for i in range(0, len(shuffled), BATCH)]
    async with httpx.AsyncClient(base_url=base_url, headers=headers, timeout=120) as http:
        for start in range(0, len(batches), 4):
            answers = await asyncio.gather(
                *(
                    http.post(
                        "/scans/batch",
                        json={"scanner_id": scanner_id, "scans": [s.item() for s in batch]},
                    )
                    for batch in batches[start : start + 4]
                )
            )
            for answer in answers:
                answer.raise_for_status()


FLOOR_COUNTERS = 200_000
"""Counters of capacity 1 for the floor's admissions (more than its slices take)."""


async def floor_slice(
    port: int, headers: dict[str, str], counters: Iterator[uuid.UUID], args: argparse.Namespace
) -> Sent:
    """One slice (``args.floor_seconds / args.rounds``) of the floor's admissions with the same
    clients, each a counter of capacity 1 from ``counters``."""

    async def request(connection: HttpConnection) -> bool:
        status, _ = await connection.request("POST", f"/write/{next(counters)}", b"")
        return status == 201

    async with contextlib.AsyncExitStack() as stack:
        connections = [
            await stack.enter_async_context(HttpConnection("127.0.0.1", port, headers))
            for _ in range(args.clients)
        ]
        seconds = args.floor_seconds / args.rounds
        phase = await run_phase("floor admission", connections, seconds, request)
    return Sent(len(phase.latencies), phase.errors, phase.seconds)


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
