"""docs/quickstart.md works as written: its commands, run in order in an empty directory, end
with the handler it gives printing a verified ``order.confirmed`` of test data; then the README's
Python client example runs against the same service.

Section 1 (clone, ``scripts/bootstrap``) is what made the checkout these tests run from, so it is
the one part not run again; everything else is taken from the page itself: each ``sh`` block runs
in ``bash`` with the variables the blocks before it exported, a block starting ``# terminal N:
... it prints "TEXT"`` keeps running in the background once it printed TEXT, the ``python``
block is saved under the name the page gives it, and the ``text`` block is the line the handler
must print. The page's ports are swapped for free ones; private webhook targets stay refused and
no Redis is configured, as on a developer's machine.
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import sqlite3
import sys
import tempfile
from collections.abc import AsyncIterator
from contextlib import AsyncExitStack, asynccontextmanager
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.harness import free_port
from tests.processes import COMMAND_TIMEOUT_SECONDS, RunningProcess, stop

ROOT = Path(__file__).resolve().parents[2]
PAGE = ROOT / "docs" / "quickstart.md"
BIN = Path(sys.executable).parent
FENCE = re.compile(r"^```(\w+)\n(.*?)^```", re.MULTILINE | re.DOTALL)
BACKGROUND = re.compile(r'^# terminal \d+: .*?prints "([^"]+)"')
SAVE_AS = re.compile(r"Save this as `([^`]+)`")
PORTS = ("8000", "4000")

pytestmark = pytest.mark.slow


@dataclass
class Block:
    language: str
    code: str
    before: str
    """The page's text between the previous block and this one."""


def blocks(text: str) -> list[Block]:
    found, last = [], 0
    for match in FENCE.finditer(text):
        found.append(Block(match.group(1), match.group(2), text[last : match.start()]))
        last = match.end()
    return found


def _environment(directory: Path) -> dict[str, str]:
    environment = {
        name: value
        for name, value in os.environ.items()
        if not name.startswith(("TICKETING_", "DATABASE_", "REDIS_"))
    }
    environment["PATH"] = f"{BIN}{os.pathsep}{environment['PATH']}"
    environment["HOME"] = str(directory)
    environment["TICKETING_ALLOW_PRIVATE_WEBHOOKS"] = "0"
    return environment


STATE = "state.sh"
"""The variables the blocks exported so far (``export -p``), read by the next one."""


async def run_block(code: str, directory: Path, environment: dict[str, str]) -> str:
    script = f"set -euo pipefail\n. ./{STATE}\n{code}\nexport -p > {STATE}\n"
    process = await asyncio.create_subprocess_exec(
        "bash", "-c", script, cwd=directory, env=environment,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT,
    )  # fmt: skip
    output, _ = await asyncio.wait_for(process.communicate(), COMMAND_TIMEOUT_SECONDS * 2)
    text = output.decode()
    assert process.returncode == 0, f"{code}\n---\n{text}"
    return text


@asynccontextmanager
async def in_background(
    code: str, directory: Path, environment: dict[str, str]
) -> AsyncIterator[RunningProcess]:
    with tempfile.TemporaryFile() as output:
        process = await asyncio.create_subprocess_exec(
            "bash", "-c", f". ./{STATE}\nexec {code.strip().splitlines()[-1]}", cwd=directory,
            env=environment, stdout=output, stderr=output,
        )  # fmt: skip
        running = RunningProcess(process, output)
        try:
            yield running
        finally:
            await stop(process)
            running.final = running.log()


async def test_the_quick_start_ends_with_a_verified_order_confirmed(tmp_path: Path) -> None:
    text = PAGE.read_text()
    for port in PORTS:
        text = text.replace(port, str(free_port()))
    page = blocks(text)
    install, *steps = page
    assert "scripts/bootstrap" in install.code
    environment = _environment(tmp_path)
    (tmp_path / STATE).write_text("")
    handler: RunningProcess | None = None
    expected: str | None = None
    outputs: list[str] = []
    async with AsyncExitStack() as background:
        for step in steps:
            if step.language == "python":
                [name] = SAVE_AS.findall(step.before)
                (tmp_path / name).write_text(step.code)
            elif step.language == "text":
                expected = step.code.strip()
            elif marker := BACKGROUND.match(step.code):
                running = await background.enter_async_context(
                    in_background(step.code, tmp_path, environment)
                )
                await running.wait_for_log(marker.group(1), within=60)
                if step.code.strip().endswith("handler.py"):
                    handler = running
            else:
                assert step.language == "sh", step.language
                outputs.append(await run_block(step.code, tmp_path, environment))

        assert handler is not None and expected is not None
        made = json.loads(outputs[-1].strip().splitlines()[-1])
        prefix = expected.split("…")[0]
        await handler.wait_for_log(f"{prefix}{made['order_id']}", within=30)
        assert "refused" not in handler.log()
        await readme_client_runs(tmp_path, environment)
    with sqlite3.connect(tmp_path / "quickstart.sqlite3") as database:
        logged = database.execute("SELECT method, path, status FROM request_log").fetchall()
    assert ("POST", "/orders", 201) in logged, logged  # the request log works on SQLite too


async def readme_client_runs(directory: Path, environment: dict[str, str]) -> None:
    """The README's Python client example, with the quick start's key and service."""
    readme = (ROOT / "README.md").read_text()
    section = readme[readme.index("## Quick start") :]
    [example] = [block.code for block in blocks(section)[:1] if block.language == "python"]
    (directory / "client_example.py").write_text(example)
    output = await run_block(
        f"PYTHONPATH={ROOT / 'clients' / 'python'} python client_example.py", directory, environment
    )
    assert "livemode=False" in output, output
    assert "event Triggered order.confirmed" in output, output
    assert "1 orders; the first: confirmed" in output, output
