"""A tournament system following one match's feed by its external ref asks the same page again
and again: after the first, a page costs the event store's read alone, however many times it is
asked; the registry is not read again (who owns a match and its ref never change). A ref that
names no match yet is looked up afresh each time, so a match made under it a moment later is
found."""

from __future__ import annotations

import uuid
from collections import Counter
from collections.abc import Collection

import pytest

from adapters.memory.event_store import InMemoryEventStore
from adapters.memory.match_registry import InMemoryMatchRegistry
from domain.events import Drew
from service.errors import MatchNotFound, NotYourMatch
from service.ports.match_registry import Owner, RegisteredMatch, RegisteredSeat
from service.ports.operator_keys import Operator, Scope
from service.store.codec import to_record
from service.store.match_streams import stream_id
from service.tournament.feed import GlobalFeed
from service.tournament.feed_scope import feed_scope
from service.tournament.known_matches import KnownMatches


class CountedRegistry(InMemoryMatchRegistry):
    """The in-memory registry, counting the reads the feed makes of it."""

    def __init__(self) -> None:
        super().__init__()
        self.reads: Counter[str] = Counter()

    async def by_external_ref(self, operator_id: str, external_ref: str) -> RegisteredMatch | None:
        self.reads["by_external_ref"] += 1
        return await super().by_external_ref(operator_id, external_ref)

    async def owners(self, match_ids: Collection[str]) -> dict[str, Owner]:
        self.reads["owners"] += 1
        return await super().owners(match_ids)

    async def get(self, match_id: str) -> RegisteredMatch | None:
        self.reads["get"] += 1
        return await super().get(match_id)


def operator(scopes: tuple[Scope, ...] = ("feed:read",)) -> Operator:
    return Operator(str(uuid.uuid4()), "Club", str(uuid.uuid4()), scopes)


async def register(registry: InMemoryMatchRegistry, owner: Operator, ref: str) -> str:
    match_id = str(uuid.uuid4())
    seats = [RegisteredSeat(0, b"t" * 32, ""), RegisteredSeat(1, b"u" * 32, "")]
    await registry.create(
        match_id,
        external_ref=ref,
        server_secret=b"s" * 32,
        seats=seats,
        operator_id=owner.operator_id,
    )
    return match_id


@pytest.mark.parametrize("by", ["external_ref", "match_id"])
async def test_a_page_asked_again_reads_the_registry_no_more(by: str) -> None:
    store, registry = InMemoryEventStore(), CountedRegistry()
    club = operator()
    match_id = await register(registry, club, "table-7")
    await register(registry, operator(), "table-7")  # another operator's ref of the same name
    drew = to_record(Drew(seat=0, source="stock", card="Ac"))
    await store.append(stream_id(match_id), [drew], expected_version=0)
    feed = GlobalFeed(store, registry)
    named = {"external_ref": "table-7"} if by == "external_ref" else {"match_id": match_id}

    first = await feed.page(after=0, limit=100, scope=await feed_scope(club, feed.known, **named))
    reads = sum(registry.reads.values())
    again = [
        await feed.page(after=0, limit=100, scope=await feed_scope(club, feed.known, **named))
        for _ in range(3)
    ]

    assert reads > 0
    assert sum(registry.reads.values()) == reads
    assert [e.match_id for e in first.entries] == [match_id]
    assert all(page == first for page in again)


async def test_a_ref_that_names_no_match_yet_is_found_once_the_match_is_made() -> None:
    registry = CountedRegistry()
    club = operator()
    known = KnownMatches(registry)
    with pytest.raises(MatchNotFound):
        await feed_scope(club, known, external_ref="table-9")

    match_id = await register(registry, club, "table-9")

    assert (await feed_scope(club, known, external_ref="table-9")).match_id == match_id


async def test_remembering_a_match_keeps_another_operators_match_refused() -> None:
    registry = CountedRegistry()
    club, rival = operator(), operator()
    known = KnownMatches(registry)
    match_id = await register(registry, club, "table-3")
    await feed_scope(club, known, match_id=match_id)  # now remembered

    with pytest.raises(NotYourMatch):
        await feed_scope(rival, known, match_id=match_id)
    with pytest.raises(MatchNotFound):
        await feed_scope(rival, known, external_ref="table-3")
    everything = await feed_scope(operator(("feed:read", "feed:all")), known, match_id=match_id)
    assert everything.match_id == match_id
    assert everything.operator_id is None


async def test_only_the_most_recently_used_matches_are_kept() -> None:
    registry = CountedRegistry()
    club = operator()
    known = KnownMatches(registry, kept=2)
    one, two, three = [await register(registry, club, f"t-{n}") for n in range(3)]
    for match_id in (one, two, one, three):  # `two` is the least recently used
        await known.owners([match_id])
    before = registry.reads["owners"]

    await known.owners([one])
    await known.owners([three])
    assert registry.reads["owners"] == before
    await known.owners([two])
    assert registry.reads["owners"] == before + 1
