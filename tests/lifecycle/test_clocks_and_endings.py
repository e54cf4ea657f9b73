"""The use cases of clocks and endings (docs/rules.md "Clocks and timeouts", "How a match
ends"), on the in-memory adapters with a clock the test moves."""

from __future__ import annotations

import asyncio
from datetime import timedelta

import pytest

from domain import view
from domain.commands import PassUpcard, Resign, SeatCommand, TakeUpcard
from domain.errors import MatchAlreadyEnded
from domain.events import MatchEnded, TimedOut
from domain.options import RuleOptions
from service.errors import DeadlinePassed, VersionConflict
from service.matches.use_cases import CommandRequest
from tests.lifecycle.table import CLOCKED, Lifecycle


async def started(life: Lifecycle) -> tuple[str, dict[int, str]]:
    """A clocked match whose dealer is chosen: the non-dealer is offered the upcard."""
    created = await life.create()
    loaded = await life.load(created.match_id)
    chooser = loaded.state.turn
    assert chooser is not None
    await play(life, created.match_id, created.tokens, chooser, "choose")
    return created.match_id, created.tokens


async def play(
    life: Lifecycle, match_id: str, tokens: dict[int, str], seat: int, what: str
) -> None:
    seated = await life.matches.authenticate(match_id, tokens[seat])
    loaded = await life.load(match_id)
    command = view(loaded.state, seat).legal_actions[0]
    if what != "choose":
        command = PassUpcard(seat=seat) if what == "pass" else TakeUpcard(seat=seat)
    assert isinstance(command, SeatCommand)
    await life.matches.handle(seated.match, seat, CommandRequest(command=command))


async def test_every_view_shows_the_deadline_of_the_seat_to_act() -> None:
    life = Lifecycle()
    match_id, _ = await started(life)
    state = (await life.load(match_id)).state
    clock = view(state, 0).clock
    assert clock is not None
    assert clock.seat == state.turn
    assert clock.due_at == life.clock.now + CLOCKED_ALLOWANCE
    assert clock.banks_ms == [20_000, 20_000]


CLOCKED_ALLOWANCE = timedelta(seconds=CLOCKED.turn_seconds + CLOCKED.bank_seconds)


async def test_the_timer_times_out_a_seat_once_its_deadline_passes() -> None:
    life = Lifecycle()
    match_id, _ = await started(life)
    seat = (await life.load(match_id)).state.turn
    assert await life.timer.fire_due() == 0
    await life.past_deadline(match_id)
    assert await life.timer.fire_due() == 1
    state = (await life.load(match_id)).state
    assert state.timeouts[seat] == 1  # type: ignore[index]
    assert state.upcard_passes == 1  # the default move: the upcard passed
    assert await life.timer.fire_due() == 0  # the next deadline is a fresh one


async def test_a_move_received_after_its_deadline_is_refused_and_changes_nothing() -> None:
    life = Lifecycle()
    match_id, tokens = await started(life)
    before = await life.load(match_id)
    seat = before.state.turn
    assert seat is not None
    await life.past_deadline(match_id)
    life.clock.advance(0.001)
    with pytest.raises(DeadlinePassed):
        await play(life, match_id, tokens, seat, "pass")
    assert (await life.load(match_id)).version == before.version


async def test_a_last_instant_move_and_its_timeout_apply_exactly_once() -> None:
    life = Lifecycle()
    match_id, tokens = await started(life)
    before = await life.load(match_id)
    seat = before.state.turn
    assert seat is not None
    await life.past_deadline(match_id)  # exactly the deadline: both are in time
    outcomes = await asyncio.gather(
        play(life, match_id, tokens, seat, "take"),
        life.matches.time_out(match_id),
        return_exceptions=True,
    )
    events = await life.matches.events(match_id, None, after_version=before.version)
    timed_out = [e for _, e in events if isinstance(e, TimedOut)]
    moved, timed = outcomes[0] is None, outcomes[1] is not None
    assert moved != timed
    assert len(timed_out) == int(timed)
    if timed:
        assert isinstance(outcomes[0], VersionConflict)


async def test_consecutive_timeouts_forfeit_the_match() -> None:
    life = Lifecycle()
    match_id, _ = await started(life)
    silent = (await life.load(match_id)).state.turn
    assert silent is not None
    for _ in range(CLOCKED.timeouts_to_forfeit * 2):
        state = (await life.load(match_id)).state
        if state.ending is not None:
            break
        await life.past_deadline(match_id)
        await life.timer.fire_due()
    ending = (await life.load(match_id)).state.ending
    assert isinstance(ending, MatchEnded)
    assert ending.reason == "forfeited_on_time"
    assert (await life.deadlines.pending()) == 0


async def test_a_seat_resigns_and_cannot_resign_a_finished_match() -> None:
    life = Lifecycle()
    match_id, tokens = await started(life)
    seated = await life.matches.authenticate(match_id, tokens[0])
    after = await life.matches.handle(seated.match, 0, CommandRequest(command=Resign(seat=0)))
    assert after.state.ending is not None
    assert (after.state.ending.reason, after.state.winner) == ("resigned", 1)
    with pytest.raises(MatchAlreadyEnded):
        await life.matches.handle(seated.match, 1, CommandRequest(command=Resign(seat=1)))
    assert await life.deadlines.pending() == 0


async def test_a_bot_seat_never_times_out() -> None:
    life = Lifecycle()
    created = await life.create(bots=(None, "simple"))
    match_id = created.match_id
    state = (await life.load(match_id)).state
    # Nobody answers for the bot in this process: its deadline passes unplayed.
    if state.turn == 1:
        await life.past_deadline(match_id)
        assert await life.matches.time_out(match_id) is None
    else:
        seated = await life.matches.authenticate(match_id, created.tokens[0])
        command = view(state, 0).legal_actions[0]
        assert isinstance(command, SeatCommand)
        loaded = await life.matches.handle(seated.match, 0, CommandRequest(command=command))
        assert loaded.state.turn == 1
        await life.past_deadline(match_id)
        assert await life.matches.time_out(match_id) is None


async def test_matches_without_a_clock_have_no_deadline() -> None:
    life = Lifecycle()
    created = await life.create(RuleOptions())
    assert (await life.load(created.match_id)).state.clock is None
    assert await life.deadlines.pending() == 0
