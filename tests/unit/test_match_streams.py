"""Appending to a match stream under an idempotency key the store already holds."""

from __future__ import annotations

from adapters.memory.event_store import InMemoryEventStore
from domain import Cut, RuleOptions, StartMatch, decide, new_match
from service.store.match_streams import Loaded, MatchStreams, stream_id


async def test_an_append_answered_with_an_earlier_one_returns_the_state_after_that_one() -> None:
    store = InMemoryEventStore()
    streams = MatchStreams(store)
    started = decide(new_match(), StartMatch(options=RuleOptions()))
    first, _ = await streams.append(
        "m", Loaded(new_match(), 0), started, idempotency_key="k", fingerprint=b"request"
    )
    moved, _ = await streams.append("m", first, decide(first.state, Cut(seed="ab" * 32)))

    # The same request, decided again on the later state, names other events: the store
    # answers with the first append, and the state is the one right after it.
    again, result = await streams.append(
        "m", moved, started, idempotency_key="k", fingerprint=b"request"
    )

    assert again == first
    assert (result.first_version, result.last_version) == (1, first.version)
    assert await store.stream_version(stream_id("m")) == moved.version
    loaded = await streams.load("m")
    assert (loaded.state, loaded.version) == (moved.state, moved.version)
