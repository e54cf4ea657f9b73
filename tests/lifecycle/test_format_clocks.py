"""The use cases of three- and four-player clocks and endings (docs/rules.md "Three and four
players"), on the in-memory adapters with a clock the test moves and the turn clocks' timer
driven by hand."""

from __future__ import annotations

import random
import uuid
from datetime import timedelta

import msgspec
import pytest

from adapters.memory.deadlines import InMemoryDeadlines
from adapters.memory.event_store import InMemoryEventStore
from adapters.memory.match_registry import InMemoryMatchRegistry
from domain import RuleOptions, view
from domain.commands import Resign, SeatCommand
from domain.events import TimedOut, UpcardPassed
from domain.formats import FormatPhase, FormatState, Players, TableEvent
from service.audit.game_record import GameRecord
from service.audit.served_record import served_record
from service.audit.verify import verify_record
from service.bots.runner import BotRunner
from service.errors import DeadlinePassed
from service.matches.deadline_timer import DeadlineTimer
from service.matches.use_cases import CommandRequest, MatchService
from service.ports.match_registry import RegisteredMatch
from service.store.match_streams import MatchStreams
from tests.lifecycle.table import MovableClock

CLOCKED = RuleOptions(turn_seconds=10, bank_seconds=20, timeouts_to_forfeit=2)


class FormatLife:
    def __init__(self, options: RuleOptions = CLOCKED) -> None:
        self.options = options
        rng = random.Random(0)
        self.clock = MovableClock()
        self.store = InMemoryEventStore(clock=self.clock)
        registry = InMemoryMatchRegistry()
        self.matches = MatchService(
            MatchStreams(self.store),
            registry,
            new_match_id=lambda: str(uuid.UUID(int=rng.getrandbits(128))),
            clock=self.clock,
        )
        self.deadlines = InMemoryDeadlines(self.store)
        self.timer = DeadlineTimer(self.deadlines, self.matches)
        # The bots' moves that no request answered: the background runner's, played by hand.
        self.bots = BotRunner(self.matches)

    async def create(self, players: Players) -> tuple[RegisteredMatch, dict[int, str]]:
        created = await self.matches.create_match(players=players, options=self.options)
        match = await self.matches.registry.get(created.match_id)
        assert match is not None
        return match, created.tokens

    async def state(self, match: RegisteredMatch) -> FormatState:
        state: FormatState = (await self.matches.load(match)).state
        return state

    async def past_deadline(self, match: RegisteredMatch) -> int:
        """Move the clock to the match's next deadline; the seat on it."""
        deadline = (await self.state(match)).deadline
        assert deadline is not None
        assert deadline.due_at is not None
        assert deadline.seat is not None
        self.clock.now = max(self.clock.now, deadline.due_at)
        return deadline.seat

    async def verified(self, match: RegisteredMatch) -> GameRecord:
        """The match's record; it must verify."""
        record, _ = await served_record(self.matches, match)
        verdict = verify_record(record)
        assert verdict.ok, verdict.render()
        return record

    async def play(self, match: RegisteredMatch, seat: int) -> None:
        """The seat's first listed move."""
        state = await self.state(match)
        place = state.place_of(seat)
        assert place is not None
        command = view(state.tables[place[0]].state, place[1]).legal_actions[0]
        assert isinstance(command, SeatCommand)
        await self.matches.handle(
            match, seat, CommandRequest(msgspec.structs.replace(command, seat=seat))
        )


@pytest.mark.parametrize("players", [3, 4])
async def test_formats_every_dealt_table_is_on_the_clock(players: Players) -> None:
    life = FormatLife()
    match, _ = await life.create(players)
    state = await life.state(match)

    assert state.phase is FormatPhase.PLAY
    for table in state.tables:
        clock = table.state.clock
        assert clock is not None
        assert clock.seat == table.state.turn
        assert clock.at == life.clock.now
        assert clock.due_at == life.clock.now + timedelta(seconds=30)  # 10 s, then the bank
    assert state.deadline is not None
    assert await life.deadlines.pending() == 1


@pytest.mark.parametrize("players", [3, 4])
async def test_formats_the_timer_makes_the_default_move_once_a_deadline_passes(
    players: Players,
) -> None:
    life = FormatLife()
    match, _ = await life.create(players)
    assert await life.timer.fire_due() == 0

    seat = await life.past_deadline(match)
    assert await life.timer.fire_due() == 1

    state = await life.state(match)
    assert state.timeouts[seat] == 0  # carried to the match when the round ends
    place = state.place_of(seat)
    assert place is not None
    hand = state.tables[place[0]].state
    assert hand.timeouts[place[1]] == 1
    assert hand.upcard_passes == 1  # the default move: the upcard passed
    events = [e for _, e in await life.matches.events(match, None, after_version=0)]
    inner = [e.event for e in events if isinstance(e, TableEvent)]
    assert any(isinstance(e, TimedOut) for e in inner)
    assert isinstance(inner[-2], UpcardPassed)  # then the table's clock restarts


@pytest.mark.parametrize("players", [3, 4])
async def test_formats_a_move_after_its_deadline_is_refused_and_changes_nothing(
    players: Players,
) -> None:
    life = FormatLife()
    match, _ = await life.create(players)
    before = await life.matches.load(match)
    seat = await life.past_deadline(match)
    life.clock.advance(0.001)

    with pytest.raises(DeadlinePassed):
        await life.play(match, seat)

    assert (await life.matches.load(match)).version == before.version


@pytest.mark.parametrize(("players", "winner_of"), [(3, None), (4, lambda seat: 1 - seat % 2)])
async def test_formats_consecutive_timeouts_forfeit_the_match(
    players: Players, winner_of: object
) -> None:
    life = FormatLife()
    match, _ = await life.create(players)
    silent = await life.past_deadline(match)
    for _ in range(20):
        state = await life.state(match)
        if state.ending is not None:
            break
        deadline = state.deadline
        assert deadline is not None
        if deadline.seat != silent:
            # Everybody else plays in time.
            assert deadline.seat is not None
            await life.play(match, deadline.seat)
            continue
        await life.past_deadline(match)
        await life.timer.fire_due()
    ending = (await life.state(match)).ending
    assert ending is not None
    assert (ending.reason, ending.seat) == ("forfeited_on_time", silent)
    if callable(winner_of):
        assert ending.winner == winner_of(silent)
    else:
        assert ending.winner != silent
    assert await life.deadlines.pending() == 0


@pytest.mark.parametrize("players", [3, 4])
async def test_formats_resigning_ends_the_match_and_is_never_too_late(players: Players) -> None:
    life = FormatLife()
    match, _ = await life.create(players)
    seat = await life.past_deadline(match)
    life.clock.advance(1)

    after = await life.matches.handle(match, seat, CommandRequest(Resign(seat=seat)))

    ending = after.state.ending
    assert ending is not None
    assert (ending.reason, ending.seat) == ("resigned", seat)
    assert ending.winner != (seat % 2 if players == 4 else seat)
    assert await life.deadlines.pending() == 0
    assert await life.timer.fire_due() == 0
    # The match is over: as in a two-player match, its server secret is revealed at once.
    fairness = await life.store.read_stream(f"fairness-{match.match_id}")
    assert fairness[-1].type == "secret_revealed"


@pytest.mark.parametrize("players", [3, 4])
async def test_formats_a_record_of_rounds_played_by_timeouts_verifies(players: Players) -> None:
    life = FormatLife(RuleOptions(turn_seconds=5, timeouts_to_forfeit=100))
    match, _ = await life.create(players)
    while (await life.state(match)).round < 2:
        await life.past_deadline(match)
        assert await life.timer.fire_due() == 1

    record = await life.verified(match)

    kinds = [
        msgspec.json.decode(e.data)["event"]["type"]
        for e in record.match_stream.events
        if e.type == "table_event"
    ]
    assert "timed_out" in kinds
    assert "deadline_set" in kinds
    assert record.hands_finished == (1 if players == 3 else 2)


async def test_formats_the_decision_that_ends_a_round_is_charged_to_the_bank() -> None:
    life = FormatLife(RuleOptions(turn_seconds=10, bank_seconds=600))
    match, _ = await life.create(3)
    for _ in range(2_000):
        before = await life.state(match)
        deadline = before.deadline
        assert deadline is not None
        assert deadline.seat is not None
        seat = deadline.seat
        place = before.place_of(seat)
        assert place is not None
        clock = before.tables[place[0]].state.clock
        assert clock is not None
        bank = clock.banks_ms[place[1]]
        life.clock.advance(11)  # a second past the turn's time
        await life.play(match, seat)
        after = await life.state(match)
        if after.round > before.round:
            assert after.banks_ms[seat] == bank - 1_000
            return
    raise AssertionError("no round ended")


async def test_bots_answer_a_default_move_and_only_the_person_is_on_the_clock() -> None:
    life = FormatLife()
    created = await life.matches.create_match(
        players=4, options=CLOCKED, bots=[None, "simple", "random", "simple"]
    )
    match = await life.matches.registry.get(created.match_id)
    assert match is not None
    for _ in range(CLOCKED.timeouts_to_forfeit):
        await life.bots.resume(match.match_id)
        state = await life.state(match)
        assert state.ending is None
        assert state.deadline is not None
        assert state.deadline.seat == 0  # bots never wait on the clock
        await life.past_deadline(match)
        assert await life.timer.fire_due() == 1

    ending = (await life.state(match)).ending
    assert ending is not None
    assert (ending.reason, ending.seat, ending.winner) == ("forfeited_on_time", 0, 1)
