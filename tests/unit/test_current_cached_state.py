"""A cached state answers a read without the store only when it is provably current: this
process listens for wake-ups, has heard of no later version of the stream since it cached the
state, and the reader names a version the state has reached (the wake-up of a command another
process has just answered may still be on its way). Two processes' streams over one store, the
wake-ups told by hand, so the one on its way can be held back."""

from __future__ import annotations

import pytest

from adapters.memory.event_store import InMemoryEventStore
from domain import Cut, RuleOptions, StartMatch, decide, new_match
from service.store.heard_versions import HeardVersions
from service.store.match_streams import PROVEN_SECONDS, Loaded, MatchStreams

SEED = "ab" * 32


class Reads(InMemoryEventStore):
    def __init__(self) -> None:
        super().__init__()
        self.reads = 0

    async def read_stream(self, stream_id: str, *, after_version: int = 0) -> list:  # type: ignore[type-arg]
        self.reads += 1
        return await super().read_stream(stream_id, after_version=after_version)


async def started(streams: MatchStreams) -> Loaded:
    loaded, _ = await streams.append(
        "m", streams.empty(), decide(new_match(), StartMatch(options=RuleOptions()))
    )
    return loaded


def listening() -> HeardVersions:
    heard = HeardVersions()
    heard.listening(True)
    return heard


async def test_a_state_appended_here_is_current_for_a_reader_who_knows_its_version() -> None:
    store = Reads()
    streams = MatchStreams(store, heard=listening())
    loaded = await started(streams)

    current = streams.current("m", loaded.version)
    assert current is not None
    assert (current.state, current.version) == (loaded.state, loaded.version)
    assert streams.current("m", 0) is not None
    # A reader who has seen a later version (another process answered it, its wake-up not
    # heard yet) is not answered from here.
    assert streams.current("m", loaded.version + 1) is None
    assert streams.current("other", 0) is None
    assert store.reads == 0


async def test_a_later_version_heard_of_makes_the_state_stale_until_it_is_read() -> None:
    store = Reads()
    heard_here = listening()
    here, there = MatchStreams(store, heard=heard_here), MatchStreams(store)
    loaded = await started(here)
    moved, _ = await there.append("m", loaded, decide(loaded.state, Cut(seed=SEED)))

    # Until its wake-up arrives, only a reader who names the new version is sent to the store.
    assert here.current("m", loaded.version) is not None
    assert here.current("m", moved.version) is None
    heard_here.heard(here.stream_id("m"), moved.version)
    assert here.current("m", loaded.version) is None

    read = await here.load("m")
    assert read.version == moved.version
    current = here.current("m", moved.version)
    assert current is not None
    assert (current.state, current.version) == (moved.state, moved.version)


async def test_the_own_wake_up_of_an_append_keeps_its_state_current() -> None:
    heard = listening()
    streams = MatchStreams(InMemoryEventStore(), heard=heard)
    loaded = await started(streams)
    heard.heard(streams.stream_id("m"), loaded.version)
    heard.heard(streams.stream_id("another"), 7)
    assert streams.current("m", loaded.version) is not None


@pytest.mark.parametrize("lost", ["stopped", "restarted", "unversioned", "too many streams"])
async def test_nothing_cached_is_current_once_wake_ups_may_have_been_missed(lost: str) -> None:
    heard = HeardVersions(streams_kept=3)
    heard.listening(True)
    streams = MatchStreams(InMemoryEventStore(), heard=heard)
    loaded = await started(streams)
    assert streams.current("m", loaded.version) is not None

    if lost == "stopped":
        heard.listening(False)
    elif lost == "restarted":
        heard.listening(False)
        heard.listening(True)
    elif lost == "unversioned":
        heard.heard(streams.stream_id("m"), None)
    else:
        for n in range(4):
            heard.heard(f"stream-{n}", 1)
    assert streams.current("m", loaded.version) is None
    if lost != "stopped":
        await streams.load("m")
        assert streams.current("m", loaded.version) is not None


async def test_without_wake_ups_nothing_cached_is_current() -> None:
    streams = MatchStreams(InMemoryEventStore())
    loaded = await started(streams)
    assert streams.current("m", loaded.version) is None
    not_listening = MatchStreams(InMemoryEventStore(), heard=HeardVersions())
    loaded = await started(not_listening)
    assert not_listening.current("m", loaded.version) is None


async def test_a_state_is_provable_only_for_a_while_after_its_read_or_append() -> None:
    """A wake-up can be lost (its process died between the commit and the wake-up): a state
    not read or appended again within ``PROVEN_SECONDS`` is read."""
    now = [100.0]
    streams = MatchStreams(InMemoryEventStore(), heard=listening(), monotonic=lambda: now[0])
    loaded = await started(streams)
    now[0] += PROVEN_SECONDS
    assert streams.current("m", loaded.version) is not None
    now[0] += 0.001
    assert streams.current("m", loaded.version) is None
    await streams.load("m")
    assert streams.current("m", loaded.version) is not None
