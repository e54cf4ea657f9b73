"""Where the service keeps the last log checkpoint it gave out, away from the database: a
restored backup takes the database back in time, but not this. Kept per database (its
PostgreSQL system identifier and database OID, which a base backup and a restore keep), so
servers of other databases sharing a folder never compare against each other's.

The operator's decision to serve a log that has lost acknowledged history is kept beside it:
``accept`` records it and forgets the checkpoint it overrides, so the next one published is
of the restored log."""

from __future__ import annotations

from datetime import datetime
from typing import Protocol

import msgspec


class Published(msgspec.Struct, frozen=True, kw_only=True):
    """A log checkpoint as given out: the signed note, the log size it covers, and when."""

    note: str
    size: int
    published_at: datetime


class Acceptance(msgspec.Struct, frozen=True, kw_only=True):
    """An operator's decision to serve the log as found after a restore."""

    accepted_at: datetime
    published: Published
    found: int  # events in the log the operator accepted
    reason: str


class PublishedLog(Protocol):
    async def last(self) -> Published | None:
        """The largest checkpoint given out since the last acceptance, if any."""
        ...

    async def publish(self, published: Published) -> None:
        """Keep ``published`` if it covers more than the one kept (never fewer: a smaller one,
        signed by a slower worker, says less)."""
        ...

    async def accept(self, acceptance: Acceptance) -> None:
        """Record the decision, then forget the checkpoint it overrides."""
        ...

    async def acceptances(self) -> list[Acceptance]: ...
