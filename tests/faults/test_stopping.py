"""Stopping a real ``gin serve`` as an operator does (SIGTERM, or Ctrl+C's SIGINT) while
clients hold live streams: every stream ends with a last message whose ``retry`` field tells
the client to reconnect, the server exits, no process of it is left behind, and an embedded
PostgreSQL it started stops with it. ``python3 dev.py serve`` passes the signal on."""

from __future__ import annotations

import asyncio
import contextlib
import os
import shutil
import signal
import subprocess
import sys
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path

import httpx
import psutil
import pytest

from bench.servers import Server, gin_serve, served
from tests.api.players import create_table
from web.parent_death import CHECK_SECONDS, SERVER_PID
from web.rate_limits import NO_LIMITS

ROOT = Path(__file__).resolve().parents[2]
# Only a server that never stops takes this long: granian alone waits for every stream.
HANG = 60.0
STREAMS = 3

pytestmark = pytest.mark.slow


async def read_stream(http: httpx.AsyncClient, path: str, opened: asyncio.Event) -> str:
    """Everything a stream sends until the server ends it."""
    received = ""
    async with http.stream("GET", path) as response:
        assert response.status_code == 200
        async for chunk in response.aiter_text():
            received += chunk
            if "id: " in received:
                opened.set()
    return received


def group_gone(leader: int) -> bool:
    """True once no process is left in the server's process group (its workers included)."""
    try:
        os.killpg(leader, 0)
    except ProcessLookupError:
        return True
    return False


async def stop_while_streaming(server: Server, signum: int) -> None:
    async with httpx.AsyncClient(base_url=server.url, timeout=HANG) as http:
        table = await create_table(http)
        openings = [asyncio.Event() for _ in range(STREAMS)]
        readers = [
            asyncio.create_task(read_stream(http, f"{table.path}/stream", opened))
            for opened in openings
        ]
        await asyncio.wait_for(asyncio.gather(*(o.wait() for o in openings)), HANG)

        if signum == signal.SIGINT:
            os.killpg(server.pid, signum)  # Ctrl+C: the terminal signals the whole group
        else:
            os.kill(server.pid, signum)
        async with asyncio.timeout(HANG):
            ends = await asyncio.gather(*readers)
    for received in ends:
        last = received.rstrip("\n").rpartition("\n\n")[2]
        assert "retry: " in last, received
    try:
        code = await asyncio.to_thread(server.process.wait, HANG)
    except subprocess.TimeoutExpired:
        raise AssertionError(f"the server did not stop:\n{server.output()}") from None
    assert code in {0, -signum, 128 + signum}, code
    assert await until(lambda: group_gone(server.pid)), left_in_group(server)
    assert "Traceback" not in server.output(), server.output()


async def until(condition: Callable[[], bool]) -> bool:
    with contextlib.suppress(TimeoutError):
        async with asyncio.timeout(HANG):
            while not condition():
                await asyncio.sleep(0.1)
            return True
    return False


def left_in_group(server: Server) -> str:
    """What is left of the server's process group, and the end of what it wrote."""
    left = []
    for process in psutil.process_iter(["status", "cmdline"]):
        with contextlib.suppress(psutil.Error, ProcessLookupError):
            if os.getpgid(process.pid) == server.pid:
                command = " ".join(process.info["cmdline"] or [])[:150]
                left.append(f"{process.pid} {process.info['status']} {command}")
                left.extend(inside(process.pid))
    return "\n".join([*left, server.output()[-4000:]])


def inside(pid: int) -> list[str]:
    """Where a process left behind is stuck: its signals (pending, blocked, caught) and each
    thread's name, state and the kernel function it waits in."""
    proc = Path(f"/proc/{pid}")
    try:
        status = (proc / "status").read_text().splitlines()
        lines = [
            f"  {line}"
            for line in status
            if line.startswith(("SigPnd", "ShdPnd", "SigBlk", "SigCgt"))
        ]
        for task in sorted((proc / "task").iterdir()):
            state = (task / "stat").read_text().rpartition(")")[2].split()[0]
            name = (task / "comm").read_text().strip()
            lines.append(f"  thread {task.name} {name} {state} in {(task / 'wchan').read_text()}")
    except OSError as error:
        return [f"  ({error})"]
    return lines


@pytest.mark.parametrize(
    ("signum", "server"),
    [
        (signal.SIGTERM, "granian"),
        (signal.SIGINT, "granian"),
        (signal.SIGTERM, "uvicorn"),
    ],
)
async def test_a_signal_ends_every_live_stream_and_the_server(
    database_url: str, signum: int, server: str
) -> None:
    # uvicorn with one worker serves in the process it was started in: its own signal
    # handlers are the ones chained to.
    workers = "2" if server == "granian" else "1"
    with gin_serve(
        database_url, "--workers", workers, "--server", server, log_level="info"
    ) as running:
        await stop_while_streaming(running, signum)


def postgres_running(data_dir: Path) -> bool:
    return (data_dir / "postgres" / "postmaster.pid").exists()


@pytest.fixture
def data_dir() -> Iterator[Path]:
    """A data folder for an embedded PostgreSQL; a server the test left running is stopped."""
    folder = Path(tempfile.mkdtemp(prefix="gin-stopping-"))
    yield folder
    pid_file = folder / "postgres" / "postmaster.pid"
    if pid_file.exists():
        with contextlib.suppress(ProcessLookupError):
            os.kill(int(pid_file.read_text().split()[0]), signal.SIGTERM)
    shutil.rmtree(folder, ignore_errors=True)


@pytest.mark.postgres
async def test_dev_py_serve_passes_sigterm_on_and_the_embedded_postgres_stops(
    data_dir: Path,
) -> None:
    def command(port: int) -> list[str]:
        return [
            *(sys.executable, str(ROOT / "dev.py"), "serve", "--data-dir", str(data_dir)),
            *("--host", "127.0.0.1", "--port", str(port), "--log-level", "warning"),
        ]

    with served(command, NO_LIMITS.to_env(), cwd=str(ROOT)) as server:
        assert postgres_running(data_dir)
        await stop_while_streaming(server, signal.SIGTERM)
        assert not postgres_running(data_dir), "the embedded PostgreSQL was left running"


@pytest.mark.postgres
async def test_workers_and_the_embedded_postgres_stop_when_gin_serve_is_killed(
    data_dir: Path,
) -> None:
    def command(port: int) -> list[str]:
        return [
            *(sys.executable, "-m", "cli.main", "serve", "--data-dir", str(data_dir)),
            *("--host", "127.0.0.1", "--port", str(port), "--workers", "2"),
        ]

    with served(command, NO_LIMITS.to_env(), cwd=str(ROOT)) as server:
        async with httpx.AsyncClient(base_url=server.url, timeout=HANG) as http:
            table = await create_table(http)
            opened = asyncio.Event()
            reader = asyncio.create_task(read_stream(http, f"{table.path}/stream", opened))
            await asyncio.wait_for(opened.wait(), HANG)

            os.kill(server.pid, signal.SIGKILL)  # the main process only, as a crash would
            server.process.wait(HANG)  # reaped, as its parent (a shell, a supervisor) does
            async with asyncio.timeout(HANG):
                received = await reader
        assert "retry: " in received.rstrip("\n").rpartition("\n\n")[2], received
        assert await until(lambda: group_gone(server.pid)), left_in_group(server)
        assert await until(lambda: not postgres_running(data_dir)), "PostgreSQL was left running"


# A worker as gin serve starts it, reduced to what decides when it stops: ``{}`` is what it does
# first (a granian worker still starting loses the SIGTERM, as one ignoring it does).
WORKER = "import signal, time, web.parent_death as p; {}; p.stop_with_parent(); time.sleep(60)"
HEARS = "pass"
DEAF = "signal.signal(signal.SIGTERM, signal.SIG_IGN)"


@pytest.mark.parametrize(
    ("server_alive", "worker", "ended_by"),
    [
        (True, HEARS, None),
        (False, HEARS, signal.SIGTERM),
        (False, DEAF, signal.SIGKILL),
    ],
)
def test_a_worker_whose_server_died_while_it_started_stops_all_the_same(
    server_alive: bool, worker: str, ended_by: signal.Signals | None
) -> None:
    """Under load gin serve can be killed before a worker has reached ``stop_with_parent``:
    the kernel then has nobody to signal it for, and the worker must see it itself; one that
    does not stop when told is killed when granian would have killed it."""
    server = os.getpid() if server_alive else 1  # a process that is not the worker's parent
    process = subprocess.Popen(
        [sys.executable, "-c", WORKER.format(worker)],
        env={**os.environ, SERVER_PID: str(server)},
        cwd=ROOT,
    )
    try:
        if ended_by is None:
            with pytest.raises(subprocess.TimeoutExpired):
                process.wait(3 * CHECK_SECONDS)
        else:
            assert process.wait(HANG) == -ended_by
    finally:
        process.kill()
        process.wait()


# gin serve forking a worker that hangs before any code of ours runs in it, as a process forked
# while other threads hold locks can.
FORKING_SERVER = """
import os, time, web.parent_death as p
p.kill_forked_workers_with_server()
worker = os.fork()
if worker == 0:
    time.sleep(600)
    os._exit(0)
print(worker, flush=True)
time.sleep(600)
"""


def ended(pid: int) -> bool:
    try:
        status: str = psutil.Process(pid).status()
    except psutil.NoSuchProcess:
        return True
    return bool(status == psutil.STATUS_ZOMBIE)


async def test_a_worker_that_hangs_before_it_starts_is_killed_when_its_server_dies() -> None:
    server = subprocess.Popen(
        [sys.executable, "-c", FORKING_SERVER], stdout=subprocess.PIPE, cwd=ROOT, text=True
    )
    assert server.stdout is not None
    worker = int(server.stdout.readline())
    try:
        assert not ended(worker)
        server.kill()
        server.wait()
        assert await until(lambda: ended(worker)), f"worker {worker} outlived its server"
    finally:
        server.kill()
        server.wait()
        with contextlib.suppress(ProcessLookupError):
            os.kill(worker, signal.SIGKILL)
