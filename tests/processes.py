"""Running the service as real processes in tests: ``ticketing serve``, free ports, readiness."""

from __future__ import annotations

import asyncio
import os
import sys
import tempfile
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import httpx

from tests.harness import free_port

TICKETING = str(Path(sys.executable).with_name("ticketing"))
START_TIMEOUT_SECONDS = 60.0
STOP_TIMEOUT_SECONDS = 10.0


async def wait_until_serving(base_url: str, process: asyncio.subprocess.Process) -> None:
    """Poll (bounded) until the server answers; an unauthenticated /whoami is a 401."""
    deadline = asyncio.get_running_loop().time() + START_TIMEOUT_SECONDS
    async with httpx.AsyncClient(base_url=base_url, timeout=2.0) as client:
        while asyncio.get_running_loop().time() < deadline:
            if process.returncode is not None:
                raise RuntimeError(f"server at {base_url} exited with {process.returncode}")
            try:
                if (await client.get("/whoami")).status_code == 401:
                    return
            except httpx.TransportError:
                pass
            await asyncio.sleep(0.1)
    raise TimeoutError(f"server at {base_url} did not start in {START_TIMEOUT_SECONDS} s")


async def stop(process: asyncio.subprocess.Process) -> None:
    """Terminate, then kill if it does not exit in time."""
    if process.returncode is None:
        process.terminate()
    try:
        await asyncio.wait_for(process.wait(), STOP_TIMEOUT_SECONDS)
    except TimeoutError:
        process.kill()
        await process.wait()


@asynccontextmanager
async def serving(
    count: int = 1, environment: dict[str, str] | None = None
) -> AsyncIterator[list[str]]:
    """``count`` ``ticketing serve`` processes on free 127.0.0.1 ports against this run's
    database (the environment of tests/conftest.py, plus ``environment``); their base URLs."""
    processes: list[asyncio.subprocess.Process] = []
    urls: list[str] = []
    with tempfile.TemporaryFile() as log:
        try:
            for _ in range(count):
                port = free_port()
                processes.append(
                    await asyncio.create_subprocess_exec(
                        TICKETING,
                        "serve",
                        "--host",
                        "127.0.0.1",
                        "--port",
                        str(port),
                        env={**os.environ, **(environment or {})},
                        stdout=log,
                        stderr=log,
                    )
                )
                urls.append(f"http://127.0.0.1:{port}")
            for url, process in zip(urls, processes, strict=True):
                await wait_until_serving(url, process)
            yield urls
        finally:
            await asyncio.gather(*(stop(process) for process in processes))
