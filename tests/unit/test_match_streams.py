"""The one streams class: an append under a key the store already holds, snapshots at every
table size, and upcasting of the two-player events inside a three- or four-player match."""

from __future__ import annotations

import random
import uuid
from dataclasses import replace
from typing import Any, ClassVar

import msgspec
import pytest

from adapters.memory.event_store import InMemoryEventStore
from domain import Cut, RuleOptions, StartMatch, decide, new_match
from domain.events import Drew, UpcardPassed
from domain.tables import RoundScored, TableEvent, decode_tables_event
from service.ports.event_store import NewEvent, StoredEvent
from service.store.codec import TABLE_EVENTS, TableCodec, TwoSeatCodec
from service.store.match_streams import (
    THREE_OR_FOUR_SEATS,
    TWO_SEATS,
    Loaded,
    MatchStreams,
    stream_id,
)
from service.store.upcasting import Upcasters
from tests.players.test_every_table_size import World


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

    assert (again.state, again.version) == (first.state, first.version)
    assert again.retried
    assert result.replayed
    assert again.appended == result
    assert msgspec.structs.replace(result, replayed=False) == first.appended
    assert (result.first_version, result.last_version) == (1, first.version)
    assert await store.stream_version(stream_id("m")) == moved.version
    loaded = await streams.load("m")
    assert (loaded.state, loaded.version) == (moved.state, moved.version)


async def test_the_cache_keeps_the_states_of_the_matches_used_last() -> None:
    streams = MatchStreams(InMemoryEventStore(), cache_size=2)
    started = decide(new_match(), StartMatch(options=RuleOptions()))
    for match_id in ("a", "b"):
        await streams.append(match_id, Loaded(new_match(), 0), started)
    assert streams.cached("a") is not None  # used after "b"

    await streams.append("c", Loaded(new_match(), 0), started)

    assert [streams.cached(m) is not None for m in ("a", "b", "c")] == [True, False, True]
    loaded = await streams.load("b")  # read again, and kept again, in place of "a"
    assert loaded.version == len(started)
    assert [streams.cached(m) is not None for m in ("a", "b", "c")] == [False, True, True]


# Matches of every table size through the one streams class: snapshots, and upcasting of the
# two-player events a three- or four-player match wraps in ``table_event``.


class CountingStore(InMemoryEventStore):
    """Remembers from which version each stream read started."""

    def __init__(self) -> None:
        super().__init__()
        self.reads: list[int] = []

    async def read_stream(self, stream_id: str, *, after_version: int = 0) -> list[StoredEvent]:
        self.reads.append(after_version)
        return await super().read_stream(stream_id, after_version=after_version)


@pytest.mark.parametrize("seats", [2, 3, 4])
async def test_a_snapshot_and_its_tail_equal_the_fold_of_every_event(seats: int) -> None:
    world = World(snapshot_every=7)
    match_id, _ = await world.seated(seats)
    rng = random.Random(seats)
    for _ in range(40):
        await world.move(match_id, rng)
    streams = world.matches.streams_for(await world.matches.match(match_id))
    kind = streams.kind
    records = await world.store.read_stream(kind.stream_id(match_id))
    snapshot = await world.store.load_snapshot(kind.stream_id(match_id))
    assert snapshot is not None, "a snapshot every 7 events"
    assert snapshot.state_type == kind.snapshot_type
    assert snapshot.version > len(records) - 7
    every = [kind.codec.from_record(record) for record in records]

    fresh = MatchStreams(world.store, kind)  # a process that has never seen the match
    fresh.store = counting = CountingStore()
    counting.__dict__.update(world.store.__dict__)  # the same events and snapshots
    loaded = await fresh.load(match_id)

    assert counting.reads == [snapshot.version], "only the tail after the snapshot is read"
    assert loaded.version == len(records)
    assert loaded.state == kind.fold(every, kind.initial())
    midway = await fresh.load_at(match_id, 10)
    assert midway.state == kind.fold(every[:10], kind.initial())


def test_a_snapshot_of_each_kind_names_its_own_state_shape() -> None:
    assert TWO_SEATS.snapshot_type.startswith("match_state:")
    assert THREE_OR_FOUR_SEATS.snapshot_type.startswith("format_state:")


# A test-only change of a two-player event: as if ``upcard_passed`` had named its seat
# ``player`` at version 1, and the domain's shape were its version 2.
OLD_SHAPE = Upcasters()


@OLD_SHAPE.register("upcard_passed", from_version=1)
def _player_to_seat(payload: dict[str, Any]) -> dict[str, Any]:
    rest = {k: v for k, v in payload.items() if k != "player"}
    return {**rest, "seat": payload["player"]}


OLD_TABLE_EVENT = (
    b'{"type":"table_event","table":1,"seats":[3,0],"event":{"type":"upcard_passed","player":1}}'
)


async def test_an_upcaster_of_a_two_player_event_applies_inside_a_table_event() -> None:
    store = InMemoryEventStore()
    kind = replace(THREE_OR_FOUR_SEATS, codec=TableCodec(OLD_SHAPE))
    match_id = str(uuid.uuid4())
    await store.append(
        kind.stream_id(match_id),
        [NewEvent("table_event", 1, OLD_TABLE_EVENT)],
        expected_version=0,
    )

    ((version, event),) = await MatchStreams(store, kind).read_events(match_id, after_version=0)

    assert (version, event) == (1, TableEvent(table=1, seats=[3, 0], event=UpcardPassed(seat=1)))
    # The same upcaster serves the event alone, in a two-player match's stream.
    alone = b'{"type":"upcard_passed","player":0}'
    assert TwoSeatCodec(OLD_SHAPE).decode("upcard_passed", 1, alone) == UpcardPassed(seat=0)
    # A table event of the current version loads as stored.
    current = TABLE_EVENTS.to_record(event).data
    assert TableCodec(OLD_SHAPE).decode("table_event", 2, current) == event
    # Without it, the old shape does not load: the upcaster is what made it load.
    with pytest.raises(msgspec.ValidationError):
        TableCodec(Upcasters()).decode("table_event", 1, OLD_TABLE_EVENT)


class LaterDrew(Drew, tag="drew", frozen=True):
    """``drew`` as a later release may write it, at version 2."""

    schema_version: ClassVar[int] = 2


def test_a_table_event_is_written_at_the_version_of_the_event_it_wraps() -> None:
    codec = TableCodec()
    later = TableEvent(table=0, seats=[0, 1], event=LaterDrew(seat=0, source="stock", card="AS"))
    now = TableEvent(table=0, seats=[0, 1], event=Drew(seat=0, source="stock", card="AS"))

    assert codec.to_record(later).schema_version == 2
    assert codec.to_record(now).schema_version == 1
    assert (
        codec.to_record(RoundScored(1, [0, 0, 0], None, 0, [0, 0, 0], [0, 0, 0])).schema_version
        == 1
    )


@pytest.mark.parametrize("seats", [3, 4])
async def test_stored_three_and_four_player_events_load_exactly_as_before(seats: int) -> None:
    world = World()
    match_id, _ = await world.seated(seats)
    rng = random.Random(seats)
    for _ in range(30):
        await world.move(match_id, rng)
    records = await world.store.read_stream(THREE_OR_FOUR_SEATS.stream_id(match_id))

    # Every event type is at its first version: records read as the plain decoder reads them,
    # and the bytes written are the domain's encoding.
    assert {record.schema_version for record in records} == {1}
    for record in records:
        event = TABLE_EVENTS.from_record(record)
        assert event == decode_tables_event(record.data)
        assert TABLE_EVENTS.to_record(event).data == record.data
