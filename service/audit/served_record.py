"""A match's game record as the API serves it: the fairness stream brought up to date first,
then both streams read as stored."""

from __future__ import annotations

from typing import Any, Protocol

from service.audit.game_record import GameRecord, build_record
from service.audit.record_kinds import record_kind
from service.fairness.log import fairness_stream
from service.ports.event_store import EventStore
from service.ports.match_registry import RegisteredMatch
from service.store.match_streams import Loaded


class _Stored(Protocol):
    @property
    def store(self) -> EventStore: ...


class RecordedMatches(Protocol):
    """What serving a record needs of the matches' use cases, at any table size."""

    @property
    def streams(self) -> _Stored: ...

    async def load(self, match: RegisteredMatch) -> Loaded[Any]: ...

    async def sync_fairness(self, match: RegisteredMatch, state: Any) -> None: ...


async def served_record(matches: RecordedMatches, match: RegisteredMatch) -> tuple[GameRecord, int]:
    """The record, and the match's version now (past the record's end if a hand is on)."""
    kind = record_kind(match)
    loaded = await matches.load(match)
    await matches.sync_fairness(match, loaded.state)
    store = matches.streams.store
    # Only what the synced state covers: a hand that ends meanwhile waits for the next record.
    events = [
        record
        for record in await store.read_stream(kind.stream.stream_id(match.match_id))
        if record.version <= loaded.version
    ]
    fairness = await store.read_stream(fairness_stream(match.match_id))
    return build_record(kind, match, events, fairness), loaded.version
