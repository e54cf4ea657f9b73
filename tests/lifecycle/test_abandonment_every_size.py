"""Abandonment at every table size (docs/rules.md, "Join deadlines, no-shows, abandonment and
adjudication"): a match of two, three or four seats nobody moves in for the limit ends as
abandoned with no winner, whether it is being played or waits for an invited seat; its record
verifies, the ending is a ``match_ended`` event, and a match that ended is never idle again. A
move restarts the time, and a move made after the match was found idle wins over the
abandonment."""

from __future__ import annotations

import pytest

from adapters.memory.event_store import InMemoryEventStore
from adapters.memory.idle_matches import InMemoryIdleMatches
from adapters.memory.match_registry import InMemoryMatchRegistry
from domain.commands import SeatCommand
from domain.events import MatchEnded
from domain.match_rules import as_seat
from domain.options import RuleOptions
from service.audit.served_record import served_record
from service.audit.verify import verify_record
from service.bots import bot_for
from service.matches.abandonment import Abandonment
from service.matches.use_cases import CommandRequest, MatchService
from service.ports.idle_matches import IdleMatch
from service.store.match_streams import MatchStreams, kind_for
from tests.lifecycle.table import ABANDON_AFTER, MovableClock

UNCLOCKED = RuleOptions(game_target=30, match_target=0)
EVERY_SIZE = pytest.mark.parametrize("seats", [2, 3, 4])
PERSON = bot_for("simple")


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

    async def version(self, match_id: str) -> tuple[int, str]:
        """The match's version and its stream."""
        match = await self.matches.match(match_id)
        loaded = await self.matches.load(match)
        return loaded.version, kind_for(len(match.seats)).stream_id(match_id)

    async def move(self, match_id: str) -> None:
        """One move by the first seat the match waits for."""
        match = await self.matches.match(match_id)
        rules = self.matches.rules_for(match)
        state = (await self.matches.load(match)).state
        seat = next(s for s in range(len(match.seats)) if rules.awaits(state, s))
        chosen = PERSON.choose(rules.bot_view(state, seat))
        assert isinstance(chosen, SeatCommand)
        await self.matches.handle(match, seat, CommandRequest(as_seat(chosen, seat)))

    async def endings(self, match_id: str) -> list[tuple[str, int | None, int | None, str | None]]:
        """The match_ended events every spectator reads."""
        events = await self.matches.events(match_id, None, after_version=0)
        return [
            (e.reason, e.seat, e.winner, e.note) for _, e in events if isinstance(e, MatchEnded)
        ]

    async def ending(self, match_id: str) -> tuple[str, int | None, int | None] | None:
        """The match's ending (reason, seat, winner); None while it runs. Its record verifies."""
        match = await self.matches.match(match_id)
        ending = (await self.matches.load(match)).state.ending
        record, _ = await served_record(self.matches, match)
        verdict = verify_record(record)
        assert verdict.ok, verdict.render()
        assert (record.status == "finished") == (ending is not None), record.status
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
    assert await tables.endings(match_id) == [("abandoned", None, None, None)]


@EVERY_SIZE
async def test_a_move_restarts_the_time_to_abandonment(seats: int) -> None:
    tables = Tables()
    match_id = await tables.create(seats, invited=False)
    tables.clock.advance(ABANDON_AFTER - 1)
    await tables.move(match_id)
    tables.clock.advance(ABANDON_AFTER - 1)
    assert await tables.abandonment.abandon_idle() == 0
    assert await tables.ending(match_id) is None
    tables.clock.advance(1)
    assert await tables.abandonment.abandon_idle() == 1
    assert await tables.ending(match_id) == ("abandoned", None, None)


@EVERY_SIZE
async def test_a_move_after_the_match_was_found_idle_wins_over_the_abandonment(
    seats: int,
) -> None:
    tables = Tables()
    match_id = await tables.create(seats, invited=False)
    tables.clock.advance(ABANDON_AFTER)
    version, stream = await tables.version(match_id)
    # Found idle at this version, then a move lands before the abandonment is appended.
    await tables.move(match_id)
    assert await tables.abandonment.abandon(IdleMatch(stream, version), tables.clock.now) is None
    assert await tables.ending(match_id) is None
    assert await tables.endings(match_id) == []
