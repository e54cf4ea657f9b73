"""Abandonment at every table size (docs/rules.md, "Join deadlines, no-shows, abandonment and
adjudication"): a match of two, three or four seats nobody moves in for the limit ends as
abandoned with no winner, whether it is being played or waits for an invited seat; its record
verifies, and a match that ended is never idle again."""

from __future__ import annotations

import pytest

from adapters.memory.event_store import InMemoryEventStore
from adapters.memory.idle_matches import InMemoryIdleMatches
from adapters.memory.match_registry import InMemoryMatchRegistry
from domain.options import RuleOptions
from service.audit.served_record import served_record
from service.audit.verify import verify_record
from service.matches.abandonment import Abandonment
from service.matches.use_cases import MatchService
from service.store.match_streams import MatchStreams
from tests.lifecycle.table import ABANDON_AFTER, MovableClock

UNCLOCKED = RuleOptions(game_target=30, match_target=0)
EVERY_SIZE = pytest.mark.parametrize("seats", [2, 3, 4])


class Tables:
    """Matches of every size over one in-memory store, and the abandonment sweep."""

    def __init__(self) -> None:
        self.clock = MovableClock()
        store = InMemoryEventStore(clock=self.clock)
        registry = InMemoryMatchRegistry()
        self.matches = MatchService(MatchStreams(store), registry, clock=self.clock)
        self.abandonment = Abandonment(
            InMemoryIdleMatches(store), self.matches, after_seconds=ABANDON_AFTER
        )

    async def create(self, seats: int, *, invited: bool) -> str:
        made = await self.matches.create_match(
            players=seats, options=UNCLOCKED, invite_seats=[seats - 1] if invited else []
        )
        return made.match_id

    async def ending(self, match_id: str) -> tuple[str, int | None, int | None] | None:
        """The match's ending (reason, seat, winner); None while it runs. Its record verifies."""
        match = await self.matches.match(match_id)
        ending = (await self.matches.load(match)).state.ending
        record, _ = await served_record(self.matches, match)
        verdict = verify_record(record)
        assert verdict.ok, verdict.render()
        return None if ending is None else (ending.reason, ending.seat, ending.winner)


@EVERY_SIZE
@pytest.mark.parametrize("invited", [False, True], ids=["seated", "waiting"])
async def test_a_match_of_any_size_left_for_the_limit_is_abandoned(
    seats: int, invited: bool
) -> None:
    tables = Tables()
    match_id = await tables.create(seats, invited=invited)

    tables.clock.advance(ABANDON_AFTER - 1)
    assert await tables.abandonment.abandon_idle() == 0
    assert await tables.ending(match_id) is None
    tables.clock.advance(1)
    assert await tables.abandonment.abandon_idle() == 1

    assert await tables.ending(match_id) == ("abandoned", None, None)
    tables.clock.advance(ABANDON_AFTER * 2)
    assert await tables.abandonment.abandon_idle() == 0  # an ended match is never idle
