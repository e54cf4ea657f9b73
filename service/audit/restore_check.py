"""After a restore: the log against the last log checkpoint the service gave out.

A backup restored to an earlier point silently drops every move acknowledged since; players'
receipts and kept checkpoints would find it one day, the service should find it at once. Each
log checkpoint given out is also kept outside the database (``PublishedLog``); when a server
starts, it folds the log and compares. If the log has fewer events than the kept checkpoint
covers, or its first events give another tree head, writes are refused (``HistoryMissing``,
saying how many events and since when) while reads are served, until an operator accepts the
log as found (``gin db accept-restore``, recorded with the checkpoint it overrides).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from service.audit.log_checkpoints import LogNotary, LogTree, parse_log_checkpoint
from service.audit.notes import parse_note
from service.errors import DatabaseUnavailable, HistoryMissing
from service.ports.clock import Clock
from service.ports.event_store import AppendResult, EventStore, NewEvent
from service.ports.metrics import Metrics
from service.ports.published_log import Acceptance, Published, PublishedLog
from service.ports.signer import Signer
from service.store.metered import MeteredEventStore


@dataclass(frozen=True)
class Missing:
    """What the log lacks against ``published``: ``found`` events where it covered more, or
    (``rewritten``) as many or more, but not the same ones."""

    published: Published
    found: int
    rewritten: bool

    def detail(self) -> str:
        at = self.published.published_at.isoformat()
        if self.rewritten:
            return (
                f"the log's first {self.published.size} events are not those of the log "
                f"checkpoint published at {at}: acknowledged history was rewritten"
            )
        return (
            f"{self.published.size - self.found} acknowledged events are missing: the log "
            f"checkpoint published at {at} covers {self.published.size} events, the log "
            f"holds {self.found} (restored from an older backup?); every event after the "
            f"first {self.found} since then is lost"
        )


async def compare(tree: LogTree, published: Published) -> Missing | None:
    """The log (``tree``, not yet caught up) against a checkpoint the service gave out."""
    _, head = parse_log_checkpoint(parse_note(published.note).text)
    heads = await tree.catch_up({published.size})
    found = tree.frontier.size
    if found < published.size:
        return Missing(published, found, rewritten=False)
    if heads[published.size] != head:
        return Missing(published, found, rewritten=True)
    return None


class RestoreGuard:
    """Whether writes wait: until the log is checked (when a checkpoint was kept before the
    server started), and while it lacks what the kept one covers and no operator has decided."""

    def __init__(self, tree: LogTree, published: PublishedLog) -> None:
        self.tree = tree
        self.published = published
        self._kept: Published | None = None  # once ``_kept_read``
        self._kept_read = False
        self._checked = False
        self._missing: Missing | None = None

    async def check(self) -> Missing | None:
        """Compare once (a server's start); later calls answer what was found."""
        if not self._checked:
            kept = await self._kept_at_start()
            self._missing = None if kept is None else await compare(self.tree, kept)
            self._checked = True
        return self._missing

    async def refuse_writes(self) -> None:
        """Raise unless a write may go ahead now."""
        if not self._checked:
            if await self._kept_at_start() is None:
                return  # nothing was given out before this start: nothing to lose
            raise DatabaseUnavailable("the log is being checked against the last checkpoint")
        if self._missing is None:
            return
        if await self.published.last() != self._missing.published:
            self._missing = None  # an operator accepted the log as it is
            return
        raise HistoryMissing(
            self._missing.detail() + "; nothing is written until an operator decides "
            "(gin db accept-restore)"
        )

    async def _kept_at_start(self) -> Published | None:
        # Read once: a checkpoint given out after this start was made from the log as it is
        # now, so it can hold nothing the log lacks, and must not hold writes back while the
        # check runs.
        if not self._kept_read:
            kept = await self.published.last()
            if not self._kept_read:  # the first read to finish is the one kept
                self._kept, self._kept_read = kept, True
        return self._kept


class GuardedEventStore(MeteredEventStore):
    """The store every use case appends through: appends (a bot's move, a clock's timeout as
    much as a player's command) wait for the guard."""

    def __init__(self, store: EventStore, metrics: Metrics, guard: RestoreGuard) -> None:
        super().__init__(store, metrics)
        self.guard = guard

    async def append(
        self,
        stream_id: str,
        events: Sequence[NewEvent],
        *,
        expected_version: int,
        idempotency_key: str | None = None,
        fingerprint: bytes | None = None,
    ) -> AppendResult:
        await self.guard.refuse_writes()
        return await super().append(
            stream_id,
            events,
            expected_version=expected_version,
            idempotency_key=idempotency_key,
            fingerprint=fingerprint,
        )


class PublishingLogNotary(LogNotary):
    """A ``LogNotary`` that keeps every checkpoint it gives out (``PublishedLog``)."""

    def __init__(
        self, signer: Signer, tree: LogTree, published: PublishedLog, clock: Clock
    ) -> None:
        super().__init__(signer, tree)
        self.published = published
        self.clock = clock

    async def checkpoint(self) -> str:
        note = await super().checkpoint()
        size, _ = parse_log_checkpoint(parse_note(note).text)
        await self.published.publish(Published(note=note, size=size, published_at=self.clock()))
        return note


async def accept_restore(
    published: PublishedLog, tree: LogTree, reason: str, clock: Clock
) -> Acceptance | None:
    """The operator's decision: serve the log as it is. None when there is nothing to accept
    (no checkpoint kept, or the log has everything it covers)."""
    kept = await published.last()
    if kept is None:
        return None
    missing = await compare(tree, kept)
    if missing is None:
        return None
    acceptance = Acceptance(accepted_at=clock(), published=kept, found=missing.found, reason=reason)
    await published.accept(acceptance)
    return acceptance
