"""The use cases of clocks and endings at two, three and four seats (docs/rules.md "Clocks and
timeouts", "How a match ends", "Three and four players"), on the in-memory adapters with a
clock the test moves and the turn clocks' timer driven by hand."""

from __future__ import annotations

import asyncio
from datetime import timedelta

import msgspec
import pytest

from domain import view
from domain.commands import Resign
from domain.errors import MatchAlreadyEnded
from domain.events import DeadlineSet, MatchEnded, TimedOut, UpcardPassed
from domain.options import RuleOptions
from service.bots.runner import BotRunner
from service.errors import DeadlinePassed, VersionConflict
from service.matches.use_cases import CommandRequest
from tests.lifecycle.table import CLOCKED, Lifecycle

EVERY_SIZE = pytest.mark.parametrize("seats", [2, 3, 4])
# The turn's time, then the bank.
ALLOWANCE = timedelta(seconds=CLOCKED.turn_seconds + CLOCKED.bank_seconds)


def side_of(seats: int, seat: int) -> int:
    """Partners opposite share a side at four seats; elsewhere each seat is its own."""
    return seat % 2 if seats == 4 else seat


@EVERY_SIZE
async def test_every_dealt_table_shows_the_deadline_of_the_seat_to_act(seats: int) -> None:
    life = Lifecycle()
    match_id = (await life.started(seats)).match_id

    hands = await life.hands(match_id)
    assert len(hands) == (2 if seats == 4 else 1)
    for hand, _ in hands:
        clock = hand.clock
        assert clock is not None
        for table_seat in (0, 1):  # both seats' views show it, not only the one to act
            shown = view(hand, table_seat).clock
            assert shown is not None
            assert (shown.seat, shown.due_at, shown.banks_ms) == (
                clock.seat,
                clock.due_at,
                clock.banks_ms,
            )
        assert clock.seat == hand.turn
        assert clock.at == life.clock.now
        assert clock.due_at == life.clock.now + ALLOWANCE
        assert clock.banks_ms == [20_000, 20_000]
    assert await life.deadline(match_id) is not None
    assert await life.deadlines.pending() == 1


@EVERY_SIZE
async def test_the_timer_makes_the_default_move_once_a_deadline_passes(seats: int) -> None:
    life = Lifecycle()
    match_id = (await life.started(seats)).match_id
    before = (await life.load(match_id)).version
    assert await life.timer.fire_due() == 0

    seat = await life.past_deadline(match_id)
    assert seat is not None
    assert await life.timer.fire_due() == 1

    hand, table_seat = await life.hand(match_id, seat)
    assert hand.timeouts[table_seat] == 1
    assert hand.upcard_passes == 1  # the default move: the upcard passed
    state = await life.state(match_id)
    if state is not hand:
        assert state.timeouts[seat] == 0  # carried to the match when the round ends
    made = await life.hand_events(match_id, before)
    assert [type(e) for e in made if type(e) in (TimedOut, UpcardPassed)] == [
        TimedOut,
        UpcardPassed,
    ]
    assert isinstance(made[-1], DeadlineSet)
    restarted = hand.clock  # then the table's clock restarts: a fresh deadline
    assert restarted is not None
    assert restarted.due_at is not None
    assert restarted.due_at > life.clock.now
    # The timer fires again only for another table whose deadline fell due at the same instant.
    assert await life.timer.fire_due() == len(await life.hands(match_id)) - 1


@EVERY_SIZE
async def test_a_move_received_after_its_deadline_is_refused_and_changes_nothing(
    seats: int,
) -> None:
    life = Lifecycle()
    match_id = (await life.started(seats)).match_id
    before = await life.load(match_id)
    seat = await life.past_deadline(match_id)
    assert seat is not None
    life.clock.advance(0.001)

    with pytest.raises(DeadlinePassed):
        await life.play(match_id, seat)

    assert (await life.load(match_id)).version == before.version


@EVERY_SIZE
async def test_a_last_instant_move_and_its_timeout_apply_exactly_once(seats: int) -> None:
    life = Lifecycle()
    match_id = (await life.started(seats)).match_id
    # The other table moves a second later, so one deadline alone falls due.
    seat = await life.on_the_clock(match_id)
    life.clock.advance(1)
    rules, state = await life.rules(match_id), await life.state(match_id)
    for other in range(seats):
        if (
            other != seat
            and rules.awaits(state, other)
            and rules.hand_of(state, other) != (rules.hand_of(state, seat))
        ):
            await life.play(match_id, other)
    before = await life.load(match_id)
    assert await life.past_deadline(match_id) == seat  # exactly the deadline: both in time

    outcomes = await asyncio.gather(
        life.play(match_id, seat), life.matches.time_out(match_id), return_exceptions=True
    )

    timed_out = [e for e in await life.hand_events(match_id, before.version) if type(e) is TimedOut]
    moved, timed = outcomes[0] is None, outcomes[1] is not None
    assert moved != timed
    assert len(timed_out) == int(timed)
    if timed:
        assert isinstance(outcomes[0], VersionConflict)


@EVERY_SIZE
async def test_consecutive_timeouts_forfeit_the_match(seats: int) -> None:
    life = Lifecycle()
    match_id = (await life.started(seats)).match_id
    silent = await life.past_deadline(match_id)
    assert silent is not None
    for _ in range(50):
        if (await life.state(match_id)).ending is not None:
            break
        seat = await life.on_the_clock(match_id)
        if seat != silent:
            await life.play(match_id, seat)  # everybody else plays in time
            continue
        await life.past_deadline(match_id)
        await life.timer.fire_due()

    ending = (await life.state(match_id)).ending
    assert isinstance(ending, MatchEnded)
    assert (ending.reason, ending.seat) == ("forfeited_on_time", silent)
    assert ending.winner is not None
    assert ending.winner != side_of(seats, silent)
    assert await life.deadlines.pending() == 0


@EVERY_SIZE
async def test_resigning_ends_the_match_is_never_too_late_and_only_once(seats: int) -> None:
    life = Lifecycle()
    match_id = (await life.started(seats)).match_id
    seat = await life.past_deadline(match_id)
    assert seat is not None
    life.clock.advance(1)
    match = await life.matches.match(match_id)

    after = await life.matches.handle(match, seat, CommandRequest(Resign(seat=seat)))

    ending = after.state.ending
    assert isinstance(ending, MatchEnded)
    assert (ending.reason, ending.seat) == ("resigned", seat)
    assert ending.winner is not None
    assert ending.winner != side_of(seats, seat)
    assert await life.deadlines.pending() == 0
    assert await life.timer.fire_due() == 0
    other = (seat + 1) % seats
    with pytest.raises(MatchAlreadyEnded):
        await life.matches.handle(match, other, CommandRequest(Resign(seat=other)))
    # The match is over: its server secret is revealed at once.
    fairness = await life.store.read_stream(f"fairness-{match_id}")
    assert fairness[-1].type == "secret_revealed"


@EVERY_SIZE
async def test_a_record_of_hands_played_by_timeouts_verifies(seats: int) -> None:
    life = Lifecycle()
    options = RuleOptions(turn_seconds=5, timeouts_to_forfeit=100)
    match_id = (await life.started(seats, options)).match_id
    tables = len(await life.hands(match_id))
    for _ in range(2_000):
        record = await life.verified(match_id)
        if record.hands_finished >= tables:
            break
        await life.past_deadline(match_id)
        assert await life.timer.fire_due() == 1
    else:
        raise AssertionError("no hand ended")

    recorded = [msgspec.json.decode(e.data) for e in record.match_stream.events]
    kinds = {e["event"]["type"] if e["type"] == "table_event" else e["type"] for e in recorded}
    assert {"timed_out", "deadline_set"} <= kinds
    assert record.hands_finished == tables


@pytest.mark.parametrize("seats", [3, 4])
async def test_the_decision_that_ends_a_round_is_charged_to_the_bank(seats: int) -> None:
    """The round's end replaces the table, clock and all: its last decision's time is taken
    from the seat's bank first (at two seats one clock runs on from hand to hand)."""
    life = Lifecycle()
    options = RuleOptions(turn_seconds=10, bank_seconds=600)
    match_id = (await life.started(seats, options)).match_id
    for _ in range(2_000):
        before = await life.state(match_id)
        seat = await life.on_the_clock(match_id)
        hand, table_seat = await life.hand(match_id, seat)
        assert hand.clock is not None
        bank = hand.clock.banks_ms[table_seat]
        life.clock.advance(11)  # a second past the turn's time
        await life.play(match_id, seat)
        after = await life.state(match_id)
        if after.round > before.round:
            assert after.banks_ms[seat] == bank - 1_000
            return
    raise AssertionError("no round ended")


@EVERY_SIZE
async def test_a_bot_seat_never_times_out_and_only_the_person_is_on_the_clock(
    seats: int,
) -> None:
    life = Lifecycle()
    bots = [None, *(["simple", "random"] * 2)[: seats - 1]]
    match_id = (await life.create(CLOCKED, bots=bots, seats=seats)).match_id
    # Nobody answers for the bots in this process: a bot's deadline passes unplayed.
    for _ in range(10):
        seat = await life.on_the_clock(match_id)
        if seat != 0:
            break
        await life.play(match_id, seat)
    await life.past_deadline(match_id)
    assert await life.matches.time_out(match_id) is None

    runner = BotRunner(life.matches)  # the bots' moves, played here by hand
    for _ in range(CLOCKED.timeouts_to_forfeit):
        await runner.resume(match_id)
        assert (await life.state(match_id)).ending is None
        assert await life.on_the_clock(match_id) == 0  # bots never wait on the clock
        await life.past_deadline(match_id)
        assert await life.timer.fire_due() == 1

    ending = (await life.state(match_id)).ending
    assert isinstance(ending, MatchEnded)
    assert (ending.reason, ending.seat) == ("forfeited_on_time", 0)
    assert ending.winner is not None
    assert ending.winner != side_of(seats, 0)


@EVERY_SIZE
async def test_matches_without_a_clock_have_no_deadline(seats: int) -> None:
    life = Lifecycle()
    match_id = (await life.create(RuleOptions(), seats=seats)).match_id
    assert await life.deadline(match_id) is None
    assert await life.deadlines.pending() == 0
