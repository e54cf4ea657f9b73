"""Two processes' streams over one store: a command is decided on the state cached in its
process without reading first, and a stale one is caught up from the events its append's
conflict brings (or from a read, when the store could not send them whole)."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from adapters.memory.event_store import InMemoryEventStore
from domain import Cut, RuleOptions, StartMatch, decide, new_match
from service.ports.event_store import AppendResult, ConcurrencyConflict, NewEvent, StoredEvent
from service.store.match_streams import Loaded, MatchStreams


class Store(InMemoryEventStore):
    """Counts its stream reads; ``tails=False``: a conflict never brings the events after the
    expected version (as when an append commits between the statement's start and its look
    at the head)."""

    def __init__(self, *, tails: bool) -> None:
        super().__init__()
        self.tails = tails
        self.reads = 0

    async def append(
        self,
        stream_id: str,
        events: Sequence[NewEvent],
        *,
        expected_version: int,
        idempotency_key: str | None = None,
        fingerprint: bytes | None = None,
    ) -> AppendResult:
        try:
            return await super().append(
                stream_id,
                events,
                expected_version=expected_version,
                idempotency_key=idempotency_key,
                fingerprint=fingerprint,
            )
        except ConcurrencyConflict as conflict:
            if self.tails:
                raise
            raise ConcurrencyConflict(stream_id, conflict.expected, conflict.current) from None

    async def read_stream(self, stream_id: str, *, after_version: int = 0) -> list[StoredEvent]:
        self.reads += 1
        return await super().read_stream(stream_id, after_version=after_version)


async def started(streams: MatchStreams) -> Loaded:
    events = decide(new_match(), StartMatch(options=RuleOptions()))
    loaded, _ = await streams.append("m", streams.empty(), events)
    return loaded


@pytest.mark.parametrize("tails", [True, False])
async def test_a_stale_cached_state_is_caught_up_to_the_match_as_it_is(tails: bool) -> None:
    store = Store(tails=tails)
    here, there = MatchStreams(store), MatchStreams(store)
    await started(here)
    cached = here.cached("m")
    assert cached is not None
    # Another process moves the match on behind this one's back.
    moved = await there.load("m")
    await there.append("m", moved, decide(moved.state, Cut(seed="ab" * 32)))

    reads = store.reads
    with pytest.raises(ConcurrencyConflict) as conflict:
        await here.append("m", cached, decide(cached.state, Cut(seed="cd" * 32)))
    caught = await here.caught_up("m", cached, conflict.value)
    # The conflict brought what was missed; only without it is the tail read.
    assert store.reads - reads == (0 if tails else 1)

    assert caught is not None
    now = await there.load("m")
    assert (caught.state, caught.version) == (now.state, now.version)
    assert here.cached("m") == Loaded(now.state, now.version)


async def test_a_conflict_with_an_append_of_this_process_is_a_race_not_a_stale_state() -> None:
    streams = MatchStreams(Store(tails=True))
    start = await started(streams)
    # Two commands handled here at once, both decided on ``start``: the first one lands ...
    await streams.append("m", start, decide(start.state, Cut(seed="ab" * 32)))
    # ... and the second one's conflict is a race, which its sender hears of.
    with pytest.raises(ConcurrencyConflict) as conflict:
        await streams.append("m", start, decide(start.state, Cut(seed="cd" * 32)))

    assert await streams.caught_up("m", start, conflict.value) is None
