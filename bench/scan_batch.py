"""Scans per second uploaded as 500-item batches versus sent one by one, in the same run.

Creates a throw-away PostgreSQL database, seeds one event (orders of four, order scanning on, so
every scan also loads its related tickets), starts ``ticketing serve`` and alternates two kinds of
slices on the same server, each every scan a different ticket (so each is a full admission with
its scan log row, outbox row and related tickets), each with a nonce as an offline device sends:

- single: ``--clients`` keep-alive clients sending ``POST /scans`` back to back;
- batch: ``--batch-clients`` clients sending ``POST /scans/batch`` with ``--batch-size`` scans.

The slices interleave (single, batch, single, batch, ...) so that a change in the machine's load
(it is shared) weighs on both alike; the figure to quote is the ratio of the two rates, per pair
of neighbouring slices and over the whole run.

    .venv/bin/python bench/scan_batch.py --rounds 4 --seconds 5

Everything shares the machine's cores: the server, PostgreSQL and the load generator.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import statistics
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from loadgen import HttpConnection, Phase, run_phase
from run import free_port, running, server_command
from seeding import Seeded, seed, throwaway_database


@dataclass
class Slice:
    kind: str
    scans: int
    seconds: float
    phase: Phase

    @property
    def rate(self) -> float:
        return self.scans / self.seconds


class Codes:
    """Fresh tickets, each scanned once in the whole run."""

    def __init__(self, codes: list[str]) -> None:
        self._codes: Iterator[str] = iter(codes)

    def take(self, count: int) -> list[str]:
        taken = [code for _, code in zip(range(count), self._codes, strict=False)]
        if len(taken) < count:
            raise SystemExit("out of seeded tickets: raise --tickets")
        return taken


async def run_slice(
    kind: str,
    connections: list[HttpConnection],
    seconds: float,
    seeded: Seeded,
    codes: Codes,
    batch_size: int,
) -> Slice:
    admitted = 0

    async def single(connection: HttpConnection) -> bool:
        nonlocal admitted
        [code] = codes.take(1)
        body = {"scannable_code": code, "scanner_id": seeded.scanner_id, "nonce": code}
        status, answer = await connection.request("POST", "/scans", json.dumps(body).encode())
        good = status == 200 and json.loads(answer)["status"] == "valid"
        admitted += good
        return good

    async def batch(connection: HttpConnection) -> bool:
        nonlocal admitted
        scans = [{"scannable_code": code, "nonce": code} for code in codes.take(batch_size)]
        body = {"scanner_id": seeded.scanner_id, "scans": scans}
        status, answer = await connection.request("POST", "/scans/batch", json.dumps(body).encode())
        if status != 200:
            return False
        valid = sum(result["status"] == "valid" for result in json.loads(answer)["results"])
        admitted += valid
        return valid == batch_size

    request = single if kind == "single" else batch
    phase = await run_phase(kind, connections, seconds, request)
    return Slice(kind, admitted, phase.seconds, phase)


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=4, help="pairs of slices")
    parser.add_argument("--seconds", type=float, default=5.0, help="length of each slice")
    parser.add_argument("--clients", type=int, default=16, help="single-scan clients")
    parser.add_argument("--batch-clients", type=int, default=2)
    parser.add_argument("--batch-size", type=int, default=500)
    parser.add_argument("--tickets", type=int, default=100_000)
    args = parser.parse_args()
    async with throwaway_database("ticketing_bench_batch") as database_url:
        seeded = await seed(database_url, [args.tickets])
        codes = Codes(seeded.events[0].codes)
        port = free_port()
        log = Path(os.environ.get("TMPDIR", "/tmp")) / f"bench-scan-batch-{port}.log"
        command = server_command("service", port, 1)
        async with running(command, port, log, access_log=False):
            headers = {"Authorization": f"Bearer {seeded.key}"}

            async def timed(kind: str, clients: int, seconds: float) -> Slice:
                """A slice on fresh keep-alive connections (idle ones time out in between)."""
                async with contextlib.AsyncExitStack() as stack:
                    connections = [
                        await stack.enter_async_context(HttpConnection("127.0.0.1", port, headers))
                        for _ in range(clients)
                    ]
                    return await run_slice(
                        kind, connections, seconds, seeded, codes, args.batch_size
                    )

            await timed("single", 4, 1.0)  # warm-up
            slices: list[Slice] = []
            for _ in range(args.rounds):
                for kind, clients in (("single", args.clients), ("batch", args.batch_clients)):
                    done = await timed(kind, clients, args.seconds)
                    slices.append(done)
                    print(
                        f"{kind:<6} {done.rate:8.0f} scans/s  ({done.scans} scans in "
                        f"{len(done.phase.latencies)} requests, {done.phase.errors} errors, "
                        f"p50 {statistics.median(done.phase.latencies) * 1000:.1f} ms)"
                    )
    report(slices, args)


def report(slices: list[Slice], args: argparse.Namespace) -> None:
    singles = [s for s in slices if s.kind == "single"]
    batches = [s for s in slices if s.kind == "batch"]
    pairs = [b.rate / s.rate for s, b in zip(singles, batches, strict=True)]
    single_rate = sum(s.scans for s in singles) / sum(s.seconds for s in singles)
    batch_rate = sum(b.scans for b in batches) / sum(b.seconds for b in batches)
    print(
        f"\nsingle POST /scans ({args.clients} clients): {single_rate:.0f} scans/s\n"
        f"POST /scans/batch of {args.batch_size} ({args.batch_clients} clients): "
        f"{batch_rate:.0f} scans/s\n"
        f"ratio batch/single: {batch_rate / single_rate:.1f}x over the run; per neighbouring "
        f"pair {', '.join(f'{p:.1f}x' for p in pairs)} (median {statistics.median(pairs):.1f}x)"
    )


if __name__ == "__main__":
    asyncio.run(main())
