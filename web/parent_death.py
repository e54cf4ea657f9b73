"""A server worker stops when the process that started it dies.

granian's workers are processes of their own: if ``gin serve`` is killed outright (SIGKILL, the
OOM killer, a crash), nothing tells them, and they would go on serving with nobody to stop them,
holding the embedded PostgreSQL open too. On Linux the kernel sends a worker SIGTERM when its
parent dies (``PR_SET_PDEATHSIG``): it then stops as if told to, ending its streams and, as the
last user of an embedded PostgreSQL, stopping that too (``adapters.postgres.embedded``).
"""

from __future__ import annotations

import ctypes
import os
import signal
import sys

PR_SET_PDEATHSIG = 1  # linux/prctl.h


def stop_with_parent() -> None:
    """Ask for SIGTERM when the parent process dies (Linux only; elsewhere nothing)."""
    if not sys.platform.startswith("linux"):
        return
    parent = os.getppid()
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.prctl(PR_SET_PDEATHSIG, int(signal.SIGTERM), 0, 0, 0) != 0:
        return
    if os.getppid() != parent:  # it died before the request was made: nobody will send it
        os.kill(os.getpid(), signal.SIGTERM)
