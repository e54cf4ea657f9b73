"""A three- or four-player match's event stream: load its state, read its events, append.

Kept apart from the two-player streams (``service.store.match_streams``) under its own
stream prefix, so that every reader of two-player streams (the global feed, webhooks, the bot
wake-ups) passes these by. Loading folds the tail after a small per-process cache of recent
states; the cache is only a starting point, never trusted for what comes after it.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Sequence

import msgspec

from domain.formats import (
    FormatEvent,
    FormatState,
    decode_format_event,
    encode_format_event,
    fold_format,
)
from service.ports.event_store import AppendResult, EventStore, NewEvent
from service.store.match_stream_names import MatchStream

FORMAT_STREAM_PREFIX = MatchStream.FORMAT.value
_SCHEMA_VERSION = 1


class FormatLoaded(msgspec.Struct, frozen=True):
    state: FormatState
    version: int


def format_stream_id(match_id: str) -> str:
    return MatchStream.FORMAT.of(match_id)


def format_match_id_of(stream: str) -> str | None:
    """The match a stream id belongs to, or None if it is not a format match's stream."""
    if not stream.startswith(FORMAT_STREAM_PREFIX):
        return None
    return stream.removeprefix(FORMAT_STREAM_PREFIX)


def format_event_type(event: FormatEvent) -> str:
    tag = type(event).__struct_config__.tag
    assert isinstance(tag, str)
    return tag


class FormatStreams:
    def __init__(self, store: EventStore, *, cache_size: int = 1024) -> None:
        self.store = store
        self._cache_size = cache_size
        self._cache: OrderedDict[str, FormatLoaded] = OrderedDict()

    async def load(self, match_id: str) -> FormatLoaded:
        start = self._cache.get(match_id) or FormatLoaded(FormatState(), 0)
        tail = await self.read_events(match_id, after_version=start.version)
        loaded = _fold(start, [event for _, event in tail])
        self._remember(match_id, loaded)
        return loaded

    async def read_events(
        self, match_id: str, *, after_version: int
    ) -> list[tuple[int, FormatEvent]]:
        records = await self.store.read_stream(
            format_stream_id(match_id), after_version=after_version
        )
        return [(record.version, decode_format_event(record.data)) for record in records]

    async def append(
        self,
        match_id: str,
        start: FormatLoaded,
        events: Sequence[FormatEvent],
        *,
        idempotency_key: str | None = None,
        fingerprint: bytes | None = None,
    ) -> tuple[FormatLoaded, AppendResult]:
        """Append ``events`` decided on ``start``; raises the store's ``ConcurrencyConflict``.
        Under an idempotency key the store may answer with the first append made under it:
        the state is then the one right after that append."""
        result = await self.store.append(
            format_stream_id(match_id),
            [
                NewEvent(format_event_type(e), _SCHEMA_VERSION, encode_format_event(e))
                for e in events
            ],
            expected_version=start.version,
            idempotency_key=idempotency_key,
            fingerprint=fingerprint,
        )
        if (result.first_version, result.last_version) != (
            start.version + 1,
            start.version + len(events),
        ):
            return await self.load_at(match_id, result.last_version), result
        loaded = _fold(start, events)
        self._remember(match_id, loaded)
        return loaded, result

    async def load_at(self, match_id: str, version: int) -> FormatLoaded:
        """The state right after ``version``."""
        events = await self.read_events(match_id, after_version=0)
        return _fold(FormatLoaded(FormatState(), 0), [e for v, e in events if v <= version])

    def _remember(self, match_id: str, loaded: FormatLoaded) -> None:
        cached = self._cache.get(match_id)
        if cached is None or cached.version <= loaded.version:
            self._cache[match_id] = loaded
        self._cache.move_to_end(match_id)
        while len(self._cache) > self._cache_size:
            self._cache.popitem(last=False)


def _fold(start: FormatLoaded, events: Sequence[FormatEvent]) -> FormatLoaded:
    return FormatLoaded(fold_format(events, start.state), start.version + len(events))
