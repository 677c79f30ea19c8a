"""Where a loaded server process spends its time: py-spy samples one ``ticketing serve`` process
while the lean client loads one request, then the functions are ranked by the share of samples
they appear in (inclusive) and are on top of (self).

    .venv/bin/python bench/profile.py /whoami
    .venv/bin/python bench/profile.py "/events/{event}/tickets?limit=25" --top 40
    .venv/bin/python bench/profile.py /graphql --graphql TicketPage
    .venv/bin/python bench/profile.py /scans --scans   # every scan a full admission

``--graphql NAME`` POSTs the document ``graphql/operations/NAME.graphql`` with the variable
``id`` = the seeded event's id instead of GETting the path. ``--post BODY`` POSTs the JSON
``BODY`` to the path (201 expected), ``{event}``, ``{timeslot}`` and ``{ticket_type}`` replaced by
the seeded event's; the timeslot's capacity is raised so that orders never sell it out:

    .venv/bin/python bench/profile.py /orders --post '{"event_id": "{event}",
      "event_timeslot_id": "{timeslot}", "buyer_name": "A", "buyer_email": "a@example.com",
      "channel": "online", "payment_method": "card", "tickets": [{"ticket_type_id":
      "{ticket_type}"}]}'

``--scans`` POSTs ``{"scannable_code", "scanner_id"}`` to the path, each request a different
unscanned ticket (as ``bench/run.py`` does).

``{event}`` is replaced by the seeded event's id. Needs py-spy (``pip install py-spy``); it
attaches to the server with ptrace, which needs root or ``CAP_SYS_PTRACE``.
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import contextlib
import json
import shutil
import sys
import tempfile
import time
from pathlib import Path

import asyncpg
from loadgen import HttpConnection, run_phase
from run import free_port, running, server_command
from seeding import ROOT, seed, throwaway_database


def ranked(collapsed: str, top: int) -> str:
    """The ``top`` functions by inclusive and by self share of the samples."""
    inclusive: collections.Counter[str] = collections.Counter()
    own: collections.Counter[str] = collections.Counter()
    total = 0
    for line in collapsed.splitlines():
        stack, _, count = line.rpartition(" ")
        samples = int(count)
        frames = [frame.split(" (")[0] + " " + frame.rsplit("/", 1)[-1].rstrip(")")
                  for frame in stack.split(";")[1:]]  # fmt: skip
        total += samples
        for frame in set(frames):
            inclusive[frame] += samples
        if frames:
            own[frames[-1]] += samples
    lines = [f"{total} samples", "", "inclusive:"]
    lines += [f"{100 * n / total:5.1f}%  {frame}" for frame, n in inclusive.most_common(top)]
    lines += ["", "self:"]
    lines += [f"{100 * n / total:5.1f}%  {frame}" for frame, n in own.most_common(top)]
    return "\n".join(lines)


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("path")
    parser.add_argument("--clients", type=int, default=32)
    parser.add_argument("--seconds", type=float, default=15.0)
    parser.add_argument("--top", type=int, default=30)
    parser.add_argument("--graphql", metavar="NAME", help="POST graphql/operations/NAME.graphql")
    parser.add_argument("--post", metavar="BODY", help="POST this JSON to the path (201)")
    parser.add_argument("--scans", action="store_true", help="POST scans of unscanned tickets")
    parser.add_argument("--tickets", type=int, default=2_000)
    args = parser.parse_args()
    py_spy = shutil.which("py-spy") or str(Path(sys.executable).with_name("py-spy"))
    async with throwaway_database() as database_url:
        seeded = await seed(database_url, [args.tickets])
        path = args.path.replace("{event}", str(seeded.events[0].id))
        port = free_port()
        log = Path(tempfile.gettempdir()) / f"bench-profile-{port}.log"
        async with running(server_command("service", port, 1), port, log) as pid:
            headers = {"Authorization": f"Bearer {seeded.key}"}

            body = None
            expected = 200
            if args.post:
                event = seeded.events[0]
                for name, value in (
                    ("{event}", event.id),
                    ("{timeslot}", event.timeslot_id),
                    ("{ticket_type}", event.ticket_type_id),
                ):
                    args.post = args.post.replace(name, str(value))
                body, expected = args.post.encode(), 201
                admin = await asyncpg.connect(database_url)
                await admin.execute(
                    "UPDATE timeslots SET total_available = 100000000 WHERE id = $1",
                    event.timeslot_id,
                )
                await admin.close()
            elif args.graphql:
                document = (ROOT / "graphql" / "operations" / f"{args.graphql}.graphql").read_text()
                variables = {"id": str(seeded.events[0].id)}
                body = json.dumps({"query": document, "variables": variables}).encode()

            codes = iter(seeded.events[0].codes)

            async def request(connection: HttpConnection) -> bool:
                if args.scans:
                    scan = {"scannable_code": next(codes), "scanner_id": seeded.scanner_id}
                    status, answer = await connection.request(
                        "POST", path, json.dumps(scan).encode()
                    )
                    return status == 200 and json.loads(answer)["status"] == "valid"
                if body is None:
                    status, _ = await connection.request("GET", path)
                    return status == 200
                status, answer = await connection.request("POST", path, body)
                return status == expected and b'"errors"' not in answer

            async with contextlib.AsyncExitStack() as stack:
                connections = [
                    await stack.enter_async_context(HttpConnection("127.0.0.1", port, headers))
                    for _ in range(args.clients)
                ]
                await run_phase("warm-up", connections, 2.0, request)
                output = Path(tempfile.gettempdir()) / f"profile-{time.time_ns()}.txt"
                spy = await asyncio.create_subprocess_exec(
                    py_spy, "record", "--pid", str(pid), "--duration", str(int(args.seconds)),
                    "--format", "raw", "--output", str(output), "--nonblocking", "--subprocesses",
                    stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.DEVNULL,
                )  # fmt: skip
                phase = await run_phase(path, connections, args.seconds + 1, request)
                await spy.wait()
        print(phase.report())
        print(ranked(output.read_text(), args.top))


if __name__ == "__main__":
    asyncio.run(main())
