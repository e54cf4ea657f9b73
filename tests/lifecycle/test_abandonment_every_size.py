"""Abandonment at every table size (docs/rules.md, "Join deadlines, no-shows, abandonment and
adjudication"): a match of two, three or four seats nobody moves in for the limit ends as
abandoned with no winner, whether it is being played or waits for an invited seat; its record
verifies, the ending is a ``match_ended`` event, and a match that ended is never idle again. A
move restarts the time, and a move made after the match was found idle wins over the
abandonment."""

from __future__ import annotations

from collections.abc import Sequence

import msgspec
import pytest

from adapters.memory.event_store import InMemoryEventStore
from adapters.memory.idle_matches import InMemoryIdleMatches
from adapters.memory.match_registry import InMemoryMatchRegistry
from domain import MatchState, view
from domain.commands import SeatCommand
from domain.events import MatchEnded
from domain.formats import FormatState, Players, format_legal_actions
from domain.options import RuleOptions
from service.audit.served_record import served_record
from service.audit.verify import verify_record
from service.bots import bot_for
from service.matches.abandonment import Abandonment
from service.matches.formats import FormatMatchService
from service.matches.use_cases import CommandRequest, MatchService
from service.ports.idle_matches import IdleMatch
from service.store.match_streams import THREE_OR_FOUR_SEATS, MatchStreams
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
        self.formats = FormatMatchService(
            MatchStreams(store, THREE_OR_FOUR_SEATS),
            registry,
            self.matches.fairness,
            clock=self.clock,
        )
        self.abandonment = Abandonment(
            InMemoryIdleMatches(store),
            self.matches,
            after_seconds=ABANDON_AFTER,
            formats=self.formats,
        )

    async def create(self, seats: int, *, invited: bool) -> str:
        if seats == 2:
            made = await self.matches.create_match(
                options=UNCLOCKED, invite_seat=1 if invited else None
            )
            return made.match_id
        players: Players = 3 if seats == 3 else 4
        table = await self.formats.create_match(
            players=players, options=UNCLOCKED, invite_seats=[seats - 1] if invited else []
        )
        return table.created.match_id

    async def state(self, match_id: str) -> tuple[MatchState | FormatState, int, str]:
        """The match's state, its version and its stream."""
        match = await self.matches.match(match_id)
        if len(match.seats) == 2:
            loaded = await self.matches.load(match)
            return loaded.state, loaded.version, self.matches.streams.stream_id(match_id)
        formats = await self.formats.load(match)
        return formats.state, formats.version, self.formats.streams.stream_id(match_id)

    async def move(self, match_id: str) -> None:
        """One move by the first seat that may make one."""
        match = await self.matches.match(match_id)
        state, _, _ = await self.state(match_id)
        if isinstance(state, MatchState):
            assert state.turn is not None
            command = PERSON.choose(view(state, state.turn))
            assert isinstance(command, SeatCommand)
            await self.matches.handle(match, state.turn, CommandRequest(command=command))
            return
        seat = next(s for s in state.turns if format_legal_actions(state, s))
        index = state.table_of(seat)
        assert index is not None
        table = state.tables[index]
        table_seat = table.table_seat(seat)
        assert table_seat is not None
        chosen = PERSON.choose(view(table.state, table_seat))
        assert isinstance(chosen, SeatCommand)
        await self.formats.handle(match, seat, msgspec.structs.replace(chosen, seat=seat))

    async def endings(self, match_id: str) -> list[tuple[str, int | None, int | None, str | None]]:
        """The match_ended events every spectator reads."""
        match = await self.matches.match(match_id)
        events: Sequence[tuple[int, object]]
        if len(match.seats) == 2:
            events = await self.matches.events(match_id, None, after_version=0)
        else:
            events = await self.formats.events(match, None, after_version=0)
        return [
            (e.reason, e.seat, e.winner, e.note) for _, e in events if isinstance(e, MatchEnded)
        ]

    async def ending(self, match_id: str) -> tuple[str, int | None, int | None] | None:
        """The match's ending (reason, seat, winner); None while it runs. Its record verifies."""
        match = await self.matches.match(match_id)
        if len(match.seats) == 2:
            ending = (await self.matches.load(match)).state.ending
            record, _ = await served_record(self.matches, match)
        else:
            ending = (await self.formats.load(match)).state.ending
            record, _ = await served_record(self.formats, match)
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
    _, version, stream = await tables.state(match_id)
    # Found idle at this version, then a move lands before the abandonment is appended.
    await tables.move(match_id)
    assert await tables.abandonment.abandon(IdleMatch(stream, version), tables.clock.now) is None
    assert await tables.ending(match_id) is None
    assert await tables.endings(match_id) == []
