"""A server worker stops when the process that started it dies.

granian's workers are processes of their own: if ``gin serve`` is killed outright (SIGKILL, the
OOM killer, a crash), nothing tells them, and they would go on serving with nobody to stop them.
On Linux the kernel sends a worker SIGTERM when its parent dies (``PR_SET_PDEATHSIG``): it then
stops as if told to, ending its streams. granian loses a signal that comes while a worker is
still starting, and nobody is left to kill that worker: so an orphaned worker is sent SIGTERM
again every few seconds, and killed if it has not stopped by the time granian would have
killed it (elsewhere than Linux, that is the only way). Until a worker's app has started
(``stop_with_parent`` runs on its startup), the kernel kills it outright when gin serve dies
(``kill_forked_workers_with_server``).
"""

from __future__ import annotations

import ctypes
import os
import signal
import sys
import threading
import time

PR_SET_PDEATHSIG = 1  # linux/prctl.h
# How long granian waits for a worker told to stop before it kills it. A worker stops in well
# under a second (its live streams end on the signal, web/live_streams.py); one told to stop
# while it was still starting never hears it (granian loses the signal), and would otherwise
# hold gin serve's exit forever. An orphaned worker keeps the same bound on itself.
WORKER_STOP_SECONDS = 10
# How often an orphaned worker looks for its parent, and tells itself again to stop.
CHECK_SECONDS = 2.0
# Set by ``gin serve`` to its own process id, for the workers it starts.
SERVER_PID = "GIN_SERVER_PID"


# Looked up at import, in gin serve: a forked worker only calls it, loading nothing while a
# lock another thread held at the fork may still be held. Linux only.
_PRCTL = ctypes.CDLL(None, use_errno=True).prctl if sys.platform.startswith("linux") else None


def _death_signal(signum: int) -> None:
    """Ask the kernel for ``signum`` when this process's parent dies."""
    if _PRCTL is not None:
        _PRCTL(PR_SET_PDEATHSIG, signum, 0, 0, 0)


def kill_forked_workers_with_server() -> None:
    """In ``gin serve``, before it forks its workers: each is killed outright should gin serve
    die before the worker has reached ``stop_with_parent`` (which then asks for SIGTERM). A
    process forked while other threads hold locks can hang in its first steps, before any code
    of ours runs; nothing would ever end it, and it would keep the listening socket."""
    server = os.getpid()

    def in_child() -> None:
        _death_signal(signal.SIGKILL)
        if os.getppid() != server:  # gin serve died before the line above could count
            os.kill(os.getpid(), signal.SIGKILL)

    os.register_at_fork(after_in_child=in_child)


def stop_with_parent() -> None:
    """Have this process told to stop (SIGTERM) once its parent has died, if it is a worker
    of ``gin serve`` (not a server run in ``gin serve``'s own process, whose parent is a
    shell or a supervisor that may well leave first)."""
    server = os.environ.get(SERVER_PID)
    if server is None or server == str(os.getpid()):
        return
    parent = int(server)
    _death_signal(signal.SIGTERM)
    # gin serve may have died while this worker was starting, before the line above: then no
    # signal is coming, and the watcher, seeing another parent already, stops it at once.
    threading.Thread(
        target=_stop_once_orphaned, args=(parent,), name="gin-parent-death", daemon=True
    ).start()


def _stop_once_orphaned(parent: int) -> None:
    while os.getppid() == parent:
        time.sleep(CHECK_SECONDS)
    deadline = time.monotonic() + WORKER_STOP_SECONDS
    while time.monotonic() < deadline:
        os.kill(os.getpid(), signal.SIGTERM)
        time.sleep(CHECK_SECONDS)
    os.kill(os.getpid(), signal.SIGKILL)
