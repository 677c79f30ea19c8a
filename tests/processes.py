"""Running the service as real processes in tests: ``ticketing serve`` and ``ticketing worker``,
free ports, readiness."""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import json
import os
import re
import shutil
import signal
import sys
import tempfile
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

import httpx

from tests.harness import free_port

TICKETING = str(Path(sys.executable).with_name("ticketing"))
START_TIMEOUT_SECONDS = 60.0
COMMAND_TIMEOUT_SECONDS = 60.0
STOP_TIMEOUT_SECONDS = 10.0


@dataclass(frozen=True)
class Outcome:
    code: int
    stdout: str
    stderr: str

    def json(self) -> Any:
        """The single JSON object a successful command prints."""
        assert self.code == 0, self.stderr
        assert self.stdout.endswith("\n") and self.stdout.count("\n") == 1, self.stdout
        value = json.loads(self.stdout)
        assert isinstance(value, dict)
        return value

    def failure(self) -> str:
        """The one-line message of a failed command (nothing on stdout)."""
        assert self.code != 0 and self.stdout == "", (self.code, self.stdout)
        lines = self.stderr.strip().splitlines()
        assert len(lines) == 1, self.stderr
        return lines[0]


async def ticketing(*args: str, **env: str) -> Outcome:
    process = await asyncio.create_subprocess_exec(
        TICKETING,
        *args,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
        env={**os.environ, **env},
    )
    stdout, stderr = await asyncio.wait_for(process.communicate(), COMMAND_TIMEOUT_SECONDS)
    return Outcome(process.returncode or 0, stdout.decode(), stderr.decode())


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
    with shared_output() as log:
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


@contextlib.contextmanager
def shared_output() -> Iterator[IO[bytes]]:
    """A temporary file for the output of processes that write at once (a server's workers):
    opened for appending, so each write lands at the end instead of over another's."""
    with tempfile.TemporaryFile() as output:
        flags = fcntl.fcntl(output.fileno(), fcntl.F_GETFL)
        fcntl.fcntl(output.fileno(), fcntl.F_SETFL, flags | os.O_APPEND)
        yield output


@dataclass
class RunningProcess:
    """A ``ticketing`` subprocess whose stdout and stderr go to one temporary file."""

    process: asyncio.subprocess.Process
    output: IO[bytes]
    url: str = ""
    final: str | None = None
    """The whole output, kept once the process has stopped and its file is gone."""

    def log(self) -> str:
        if self.final is not None:
            return self.final
        self.output.seek(0)
        return self.output.read().decode(errors="replace")

    def lines(self) -> list[str]:
        """The complete lines so far (a line still being written is left for the next call)."""
        log = self.log()
        return log[: log.rfind("\n") + 1].splitlines()

    async def wait_for_log(self, text: str, within: float = 20) -> None:
        """Bounded poll of the output for ``text``."""
        deadline = asyncio.get_running_loop().time() + within
        while text not in self.log():
            assert self.process.returncode is None or text in self.log(), self.log()[-3000:]
            assert asyncio.get_running_loop().time() < deadline, self.log()[-3000:]
            await asyncio.sleep(0.1)


LISTENING = re.compile(r"listening on (http://\S+?):(\d+)")


@asynccontextmanager
async def served(
    *args: str, port: int | None = None, poll_health: bool = True, **env: str
) -> AsyncIterator[RunningProcess]:
    """``ticketing serve ARGS`` on ``port`` (default: a free one) with ``env`` over this run's
    environment; its base URL is read from the line saying where it listens, then ``/healthz``
    is polled until it answers (unless ``poll_health`` is false: the line promises it does)."""
    with shared_output() as output:
        process = await asyncio.create_subprocess_exec(
            TICKETING, "serve", "--host", "127.0.0.1", "--port", str(port or free_port()), *args,
            env={**os.environ, **env}, stdout=output, stderr=output,
        )  # fmt: skip
        running = RunningProcess(process, output)
        try:
            await running.wait_for_log("listening on", within=START_TIMEOUT_SECONDS)
            match = LISTENING.search(running.log())
            assert match, running.log()
            running.url = f"{match.group(1)}:{match.group(2)}"
            if poll_health:
                await _wait_for_health(running)
            yield running
        except BaseException:
            sys.stderr.write(running.log()[-4000:])
            raise
        finally:
            await stop(process)
            running.final = running.log()


async def _wait_for_health(running: RunningProcess) -> None:
    deadline = asyncio.get_running_loop().time() + START_TIMEOUT_SECONDS
    async with httpx.AsyncClient(base_url=running.url, timeout=2.0) as client:
        while True:
            assert running.process.returncode is None, running.log()
            with contextlib.suppress(httpx.TransportError):
                if (await client.get("/healthz")).status_code == 200:
                    return
            assert asyncio.get_running_loop().time() < deadline, running.log()
            await asyncio.sleep(0.1)


@asynccontextmanager
async def worker(redis_url: str, *args: str, **env: str) -> AsyncIterator[RunningProcess]:
    """``ticketing worker ARGS`` on this run's database and queue; its output is shown on
    failure, and it is stopped with SIGTERM (then killed if it does not end)."""
    with shared_output() as output:
        process = await asyncio.create_subprocess_exec(
            TICKETING, "worker", *args, env={**os.environ, "REDIS_URL": redis_url, **env},
            stdout=output, stderr=output,
        )  # fmt: skip
        running = RunningProcess(process, output)
        try:
            yield running
        except BaseException:
            sys.stderr.write(running.log()[-4000:])
            raise
        finally:
            if process.returncode is None:
                process.send_signal(signal.SIGTERM)
                try:
                    await asyncio.wait_for(process.wait(), 30)
                except TimeoutError:
                    process.kill()
                    await process.wait()
            running.final = running.log()


class RedisServer:
    """A redis-server of the test's own on a free port, to be stopped and started again."""

    def __init__(self) -> None:
        self.port = free_port()
        self.process: asyncio.subprocess.Process | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    async def start(self) -> None:
        binary = shutil.which("redis-server")
        assert binary, "redis-server is not installed"
        self.process = await asyncio.create_subprocess_exec(
            binary, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "",
            "--appendonly", "no", stdout=asyncio.subprocess.DEVNULL,
        )  # fmt: skip
        for _ in range(100):
            with contextlib.suppress(OSError):
                _, writer = await asyncio.open_connection("127.0.0.1", self.port)
                writer.close()
                return
            await asyncio.sleep(0.05)
        raise AssertionError("redis-server did not start")

    async def stop(self) -> None:
        if self.process and self.process.returncode is None:
            self.process.terminate()
            await asyncio.wait_for(self.process.wait(), 10)
