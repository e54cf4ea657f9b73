"""Where every part that reads matches starts, in the server and in the ``gin`` commands that
open the database: the log a restore is checked against when the server starts is the log
``gin db accept-restore`` accepts and ``gin audit`` checks."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from adapters.postgres.event_store import Pool, PostgresEventStore
from adapters.postgres.match_registry import PostgresMatchRegistry
from adapters.postgres.operator_keys import PostgresOperatorKeyStore
from adapters.published_log_file import DatabasePublishedLog, published_log
from service.audit.log_checkpoints import LogTree
from service.tournament.operators import OperatorKeys


@dataclass(frozen=True)
class Storage:
    """The event store and the match registry on one pool: where every part that reads matches
    starts, in the server and in ``gin``."""

    pool: Pool
    store: PostgresEventStore
    registry: PostgresMatchRegistry

    @classmethod
    def on(cls, pool: Pool) -> Storage:
        return cls(pool, PostgresEventStore(pool), PostgresMatchRegistry(pool))

    def log_tree(self) -> LogTree:
        """The global log over the events as they are stored, not through the restore guard."""
        return LogTree(self.store, self.registry)

    def published_log(self, folder: Path) -> DatabasePublishedLog:
        return published_log(folder, self.pool)

    def operator_keys(self) -> OperatorKeys:
        return OperatorKeys(PostgresOperatorKeyStore(self.pool), self.registry)
