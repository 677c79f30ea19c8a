"""The CSV export of 100,000 tickets: time and the server's peak memory, next to two floors.

One throw-away database, one event with ``--tickets`` tickets copied in as confirmed orders of
four (``bench/seeding.py``), one ``ticketing serve`` process (one worker). After a warm-up (one
JSON page, one export that matches no row) the script reads the server's idle RSS
(``/proc/<pid>/status``), then, ``--repeat`` times in turns:

- the export: ``GET /events/{id}/tickets`` with ``Accept: text/csv``, read to the end by one
  client; its time, its rows (checked) and the server's peak RSS during it (``VmHWM``, started
  again from the current RSS before each export through ``/proc/<pid>/clear_refs``);
- floor 1, the database's own CSV: ``COPY (SELECT ... ORDER BY created_at DESC, id DESC) TO
  STDOUT WITH CSV HEADER`` of the same rows, read by this script over asyncpg;
- floor 2, what a client does without the export: every page of the JSON list, 100 at a time,
  following ``next_after``.

Then ``--concurrent`` exports at once and the server's peak RSS during them. Prints each figure
(median of the repeats), the ratios to the floors, and the machine's load average before and
after, since the machine may be shared.

    .venv/bin/python bench/csv_export.py                   # 100,000 tickets, about two minutes
    .venv/bin/python bench/csv_export.py --tickets 20000   # a quick look
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import tempfile
import time
from pathlib import Path

import asyncpg
import httpx
from run import free_port, running, server_command
from seeding import Seeded, seed, throwaway_database

MIB = 1024 * 1024


def status_kib(pid: int, field: str) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(f"{field}:"):
            return int(line.split()[1])
    raise SystemExit(f"no {field} in /proc/{pid}/status")


def reset_peak(pid: int) -> None:
    """``VmHWM`` starts again from the current RSS (Linux 4.0 and later)."""
    Path(f"/proc/{pid}/clear_refs").write_text("5")


async def export(client: httpx.AsyncClient, path: str) -> tuple[float, float, int, int]:
    """(seconds to the first byte, seconds to the end, rows, bytes) of one export."""
    started = time.perf_counter()
    first, lines, size = 0.0, 0, 0
    async with client.stream("GET", path, headers={"Accept": "text/csv"}) as response:
        if response.status_code != 200:
            raise SystemExit(f"export: {response.status_code} {(await response.aread())[:300]!r}")
        async for chunk in response.aiter_raw():
            if not first:
                first = time.perf_counter() - started
            lines += chunk.count(b"\r\n")
            size += len(chunk)
    return first, time.perf_counter() - started, lines - 1, size


async def copy_floor(database_url: str, event_id: str) -> tuple[float, int]:
    """(seconds, bytes) of PostgreSQL writing the same rows as CSV itself."""
    sink = bytearray()

    async def keep(data: bytes) -> None:
        sink.extend(data)

    connection = await asyncpg.connect(database_url)
    try:
        started = time.perf_counter()
        await connection.copy_from_query(
            "SELECT * FROM tickets WHERE event_id = $1 ORDER BY created_at DESC, id DESC",
            event_id,
            output=keep,
            format="csv",
            header=True,
        )
        return time.perf_counter() - started, len(sink)
    finally:
        await connection.close()


async def json_pages(client: httpx.AsyncClient, path: str) -> tuple[float, int]:
    """(seconds, rows) of reading the JSON list page by page (100 a page, by ``after``)."""
    started, rows, after = time.perf_counter(), 0, None
    while True:
        params = {"limit": 100, **({"after": after} if after else {})}
        response = await client.get(path, params=params)
        if response.status_code != 200:
            raise SystemExit(f"page: {response.status_code} {response.text[:300]}")
        page = response.json()
        rows += len(page["data"])
        after = page["pagination"]["next_after"]
        if not after:
            return time.perf_counter() - started, rows


def load() -> str:
    one, five, fifteen = os.getloadavg()
    return f"{one:.1f} / {five:.1f} / {fifteen:.1f} on {os.cpu_count()} cores"


async def main(args: argparse.Namespace) -> None:
    async with throwaway_database("ticketing_bench_csv") as database_url:
        print(f"seeding {args.tickets:,} tickets ...", flush=True)
        seeded: Seeded = await seed(database_url, [args.tickets], keep_codes=False)
        event_id = str(seeded.events[0].id)
        path = f"/events/{event_id}/tickets"
        port = free_port()
        print(f"load average before (1/5/15 min): {load()}", flush=True)
        with tempfile.TemporaryDirectory() as logs:
            command = server_command("service", port, 1)
            async with (
                running(command, port, Path(logs) / "serve.log") as pid,
                httpx.AsyncClient(
                    base_url=f"http://127.0.0.1:{port}",
                    headers={"Authorization": f"Bearer {seeded.key}"},
                    timeout=300,
                ) as client,
            ):
                (await client.get(path, params={"limit": 25})).raise_for_status()
                await export(client, f"{path}?status=scanned")
                idle = status_kib(pid, "VmRSS") * 1024
                exports, peaks, copies, pages = [], [], [], []
                for _ in range(args.repeat):
                    reset_peak(pid)
                    first, seconds, rows, size = await export(client, path)
                    if rows != args.tickets:
                        raise SystemExit(f"the export had {rows} rows, not {args.tickets}")
                    exports.append((first, seconds, size))
                    peaks.append(status_kib(pid, "VmHWM") * 1024)
                    copies.append(await copy_floor(database_url, event_id))
                    pages.append(await json_pages(client, path))
                reset_peak(pid)
                together = await asyncio.gather(
                    *(export(client, path) for _ in range(args.concurrent))
                )
                concurrent_peak = status_kib(pid, "VmHWM") * 1024
        print(f"load average after (1/5/15 min):  {load()}")

    seconds = statistics.median(s for _, s, _ in exports)
    first = statistics.median(f for f, _, _ in exports)
    size = exports[0][2]
    copy = statistics.median(s for s, _ in copies)
    paged = statistics.median(s for s, _ in pages)
    peak = max(peaks)
    slowest = max(s for _, s, _, _ in together)
    print(f"\n{args.tickets:,} tickets, {size / MIB:.1f} MiB of CSV; median of {args.repeat}:")
    print(f"  export (Accept: text/csv)    {seconds:6.2f} s  ({args.tickets / seconds:,.0f} rows/s,"
          f" first byte after {first * 1000:.0f} ms)")  # fmt: skip
    print(f"  floor: PostgreSQL COPY CSV   {copy:6.2f} s  -> export is {seconds / copy:.1f}x")
    print(f"  JSON pages of 100 by after   {paged:6.2f} s  -> export is {paged / seconds:.1f}x "
          "faster")  # fmt: skip
    print(f"  server RSS: idle {idle / MIB:.0f} MiB, peak during one export {peak / MIB:.0f} MiB"
          f" (+{(peak - idle) / MIB:.1f} MiB)")  # fmt: skip
    added = (concurrent_peak - idle) / MIB
    print(f"  {args.concurrent} exports at once: all done in {slowest:.2f} s, server peak "
          f"{concurrent_peak / MIB:.0f} MiB (+{added:.1f} MiB)")  # fmt: skip


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tickets", type=int, default=100_000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--concurrent", type=int, default=4)
    asyncio.run(main(parser.parse_args()))
