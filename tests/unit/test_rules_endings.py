"""docs/rules.md "Clocks and timeouts" and "How a match ends": resigning, the turn clock, the
default move of a timeout, forfeiting on time and adjudication, with time given as data."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from domain.commands import (
    Abandon,
    Adjudicate,
    AwaitJoin,
    ChooseDealer,
    Command,
    Cut,
    Discard,
    DrawFromStock,
    FinishLayoff,
    NoShow,
    PassUpcard,
    Resign,
    StampTime,
    TimeOut,
)
from domain.default_moves import default_move
from domain.endings import MAX_REASON
from domain.errors import (
    DomainError,
    IllegalMove,
    InvalidCommand,
    InvalidOptions,
    MatchAlreadyEnded,
    MatchOver,
)
from domain.events import DeadlineSet, Discarded, Drew, MatchEnded, SeatReturned, TimedOut
from domain.options import RuleOptions, parse_options
from domain.state import Phase
from domain.views import ClockView, EndingView, public_view, view
from tests.unit.helpers import CUT_SEED, Table, created, deal, knock_hand, new_table

T0 = datetime(2026, 1, 1, 12, 0, tzinfo=UTC)
CLOCKED = RuleOptions(turn_seconds=10, bank_seconds=30, timeouts_to_forfeit=3)
SEAT0 = "As 2s 3s 7h 8h 9h Kc Qd 4c 6d"
SEAT1 = "Ah 2h 3h 7s 8s 9s Kd Qc 4d 6c"


def clocked(options: RuleOptions = CLOCKED) -> Table:
    """Seat 1 (the non-dealer) is offered the upcard, its clock started at ``T0``."""
    table = deal(seat0=SEAT0, seat1=SEAT1, upcard="Td", stock="5c 5h", options=options)
    table.do(StampTime(at=T0))
    return table


def seconds(n: float) -> timedelta:
    return timedelta(seconds=n)


@pytest.mark.parametrize("seat", [0, 1])
def test_a_resigning_seat_loses_the_match_and_the_scores_stand(seat: int) -> None:
    table = clocked()
    [ended] = table.do(Resign(seat=seat))
    assert ended == MatchEnded(
        reason="resigned",
        seat=seat,
        winner=1 - seat,
        note=None,
        match_scores=[0, 0],
        games_won=[0, 0],
    )
    assert table.state.phase is Phase.MATCH_OVER
    assert table.state.winner == 1 - seat
    ending = public_view(table.state).ending
    assert ending is not None
    assert (ending.reason, ending.seat, ending.winner) == ("resigned", seat, 1 - seat)


def test_resigning_a_finished_match_is_refused_with_its_own_error() -> None:
    table = clocked()
    table.do(Resign(seat=1))
    with pytest.raises(MatchAlreadyEnded) as caught:
        table.do(Resign(seat=0))
    assert str(caught.value) == "the match is over: you cannot resign it any more"


def test_an_abandoned_match_ends_with_no_winner_and_the_scores_stand() -> None:
    table = clocked()
    [ended] = table.do(Abandon())
    assert ended == MatchEnded(
        reason="abandoned", seat=None, winner=None, note=None, match_scores=[0, 0], games_won=[0, 0]
    )
    assert (table.state.phase, table.state.winner) == (Phase.MATCH_OVER, None)
    ending = public_view(table.state).ending
    assert ending is not None
    assert (ending.reason, ending.seat, ending.winner) == ("abandoned", None, None)
    assert not table.state.hand_over  # the hands in play stay hidden
    with pytest.raises(MatchAlreadyEnded):
        table.do(Abandon())


def test_a_resigned_hand_stays_hidden() -> None:
    table = clocked()
    table.do(Resign(seat=1))
    assert not table.state.hand_over


def test_the_clock_gives_the_seat_to_act_its_turn_time_and_bank() -> None:
    table = clocked()
    assert table.state.clock == DeadlineSet(
        seat=1, at=T0, due_at=T0 + seconds(40), banks_ms=[30_000, 30_000]
    )
    assert view(table.state, 1).clock == ClockView(1, T0 + seconds(40), [30_000, 30_000])
    assert public_view(table.state).clock == ClockView(1, T0 + seconds(40), [30_000, 30_000])


def test_time_past_the_turn_time_is_taken_from_the_bank() -> None:
    table = clocked()
    table.pass_upcard(1)
    [stamp] = table.do(StampTime(at=T0 + seconds(14.5)))
    assert stamp == DeadlineSet(
        seat=0,
        at=T0 + seconds(14.5),
        due_at=T0 + seconds(14.5 + 10 + 30),
        banks_ms=[30_000, 25_500],
    )


def test_each_decision_takes_its_overtime_from_what_is_left_of_the_bank() -> None:
    table = clocked()
    table.pass_upcard(1)
    table.do(StampTime(at=T0 + seconds(14.5)))  # seat 1: 4.5 s over, 25.5 s left
    table.pass_upcard(0)
    [stamp] = table.do(StampTime(at=T0 + seconds(24.501)))  # seat 0: 1 ms over
    assert isinstance(stamp, DeadlineSet)
    assert stamp.banks_ms == [29_999, 25_500]
    table.draw_stock(1)
    [stamp] = table.do(StampTime(at=T0 + seconds(100)))  # seat 1: more than its bank over
    assert stamp == DeadlineSet(
        seat=1, at=T0 + seconds(100), due_at=T0 + seconds(110), banks_ms=[29_999, 0]
    )


def test_a_seat_acting_on_a_stale_clock_is_not_on_the_clock() -> None:
    table = clocked()
    table.pass_upcard(1)  # seat 0 is to act; the clock is stamped for it next
    with pytest.raises(IllegalMove) as caught:
        table.do(TimeOut(seat=1, at=T0 + seconds(60)))
    assert str(caught.value) == "seat 1 is not on the clock"


def test_a_clock_stamped_after_the_match_ends_runs_for_nobody() -> None:
    table = clocked()
    table.do(Resign(seat=1))  # seat 1 was to play
    assert (table.state.turn, public_view(table.state).turn) == (None, None)
    assert table.do(StampTime(at=T0 + seconds(5))) == [
        DeadlineSet(seat=None, at=T0 + seconds(5), due_at=None, banks_ms=[30_000, 30_000])
    ]


def test_without_a_clock_nothing_is_stamped() -> None:
    table = deal(seat0=SEAT0, seat1=SEAT1, upcard="Td")
    assert table.do(StampTime(at=T0)) == []
    assert view(table.state, 0).clock is None


def test_a_timeout_before_the_deadline_is_refused() -> None:
    table = clocked()
    with pytest.raises(IllegalMove, match="has until"):
        table.do(TimeOut(seat=1, at=T0 + seconds(39.999)))


def test_only_the_seat_on_the_clock_times_out() -> None:
    table = clocked()
    with pytest.raises(IllegalMove, match="not on the clock"):
        table.do(TimeOut(seat=0, at=T0 + seconds(100)))


def test_a_timeout_makes_the_default_move_and_is_recorded() -> None:
    table = clocked()
    events = table.do(TimeOut(seat=1, at=T0 + seconds(40)))
    assert events[0] == TimedOut(
        seat=1, due_at=T0 + seconds(40), at=T0 + seconds(40), consecutive=1
    )
    assert table.state.upcard_passes == 1
    assert table.state.turn == 0


def test_the_default_discard_leaves_the_least_deadwood() -> None:
    table = clocked()
    table.pass_upcard(1)
    table.pass_upcard(0)
    table.draw_stock(1)  # 5c: seat 1 holds Ah 2h 3h 7s 8s 9s Kd Qc 4d 6c 5c
    move = default_move(view(table.state, 1))
    # 4d 5c 6c: 5c joins nothing, the kings and queens are the heaviest; of Kd, Qc the king.
    assert move == Discard(seat=1, card="Kd")


def test_the_default_discard_keeps_a_set_of_kings_and_throws_the_ten() -> None:
    table = deal(
        seat0="Ac Ad 5h 6s Jc Jh Qs Qh 2c 3c",
        seat1="Kd Kc Kh 2s 3s 4s 7h 8h 9h 5c",
        upcard="Jd",
        stock="Td",
    )
    table.pass_upcard(1)
    table.pass_upcard(0)
    table.draw_stock(1)  # Td: only 5c is left as deadwood once it goes
    assert default_move(view(table.state, 1)) == Discard(seat=1, card="Td")


def test_the_default_discard_breaks_ties_by_value_then_rank_then_card_order() -> None:
    table = deal(
        seat0="Ac Ad 5c 6s Jc Jh Qs Qh 3c 4d",
        seat1="5h 6h 7h 8h 2c 2d 2s 9c 9d 9s",
        upcard="Jd",
        stock="9h",
    )
    table.pass_upcard(1)
    table.pass_upcard(0)
    table.draw_stock(1)  # 9h: all eleven meld, and 5h, 8h or any nine leaves no deadwood
    # Of those, the nines are worth most, and 9s is last in card order (clubs .. spades).
    assert default_move(view(table.state, 1)) == Discard(seat=1, card="9s")


def test_a_timeout_on_a_join_deadline_is_refused_saying_so() -> None:
    table = created(RuleOptions(join_seconds=60))
    table.do(AwaitJoin(seat=0, at=T0))
    table.do(Cut(seed=CUT_SEED))  # seat 0 wins the cut: its turn, on its join deadline
    assert table.state.turn == 0
    with pytest.raises(IllegalMove) as refused:
        table.do(TimeOut(seat=0, at=T0 + seconds(61)))
    assert str(refused.value) == "seat 0 has a join deadline, not a turn clock"


@pytest.mark.parametrize("seed", ["00", "02"])  # seat 0, then seat 1 wins the cut
def test_the_default_moves_of_choosing_the_dealer_and_laying_off(seed: str) -> None:
    table = created()
    table.do(Cut(seed=seed))
    chooser = table.state.turn
    assert chooser is not None
    assert default_move(view(table.state, chooser)) == ChooseDealer(
        seat=chooser, dealer=1 - chooser
    )
    with pytest.raises(IllegalMove) as caught:
        default_move(view(table.state, 1 - chooser))
    assert str(caught.value) == f"seat {1 - chooser} is not to act, so it has no default move"
    table = new_table(dealer=1)
    knock_hand(table, knocker=0, dead="Ac", defender="8s 2h 4c 6h 8c Tc Kh Qc 9h 9c")
    assert table.state.phase is Phase.LAYOFF
    assert default_move(view(table.state, 1)) == FinishLayoff(seat=1)


def test_the_default_moves_of_the_offer_and_the_draw() -> None:
    table = clocked()
    assert default_move(view(table.state, 1)) == PassUpcard(seat=1)
    table.pass_upcard(1)
    table.pass_upcard(0)
    assert default_move(view(table.state, 1)) == DrawFromStock(seat=1)


def test_consecutive_timeouts_forfeit_the_match() -> None:
    table = clocked(RuleOptions(turn_seconds=10, timeouts_to_forfeit=2))
    at = T0 + seconds(10)
    table.do(TimeOut(seat=1, at=at))  # seat 1 passes the upcard by default
    table.do(StampTime(at=at))
    table.pass_upcard(0)
    table.do(StampTime(at=at + seconds(1)))
    events = table.do(TimeOut(seat=1, at=at + seconds(11)))
    assert [type(e) for e in events] == [TimedOut, MatchEnded]
    assert isinstance(events[1], MatchEnded)
    assert (events[1].reason, events[1].seat, events[1].winner) == ("forfeited_on_time", 1, 0)
    assert table.state.winner == 0


def test_a_seat_acting_itself_starts_its_count_of_timeouts_over() -> None:
    table = clocked(RuleOptions(turn_seconds=10, timeouts_to_forfeit=2))
    table.do(TimeOut(seat=1, at=T0 + seconds(10)))
    table.do(StampTime(at=T0 + seconds(10)))
    table.pass_upcard(0)
    table.do(StampTime(at=T0 + seconds(11)))
    events = table.draw_stock(1)
    assert events[0] == SeatReturned(seat=1)
    assert isinstance(events[1], Drew)
    assert table.state.timeouts == (0, 0)
    table.do(StampTime(at=T0 + seconds(12)))
    events = table.do(TimeOut(seat=1, at=T0 + seconds(22)))
    assert isinstance(events[1], Discarded)  # one timeout in a row: the move is made


def test_the_fold_of_a_clocked_match_is_its_state() -> None:
    table = clocked()
    table.do(TimeOut(seat=1, at=T0 + seconds(40)))
    table.do(StampTime(at=T0 + seconds(40)))
    table.do(Resign(seat=0))
    assert table.replayed() == table.state


@pytest.mark.parametrize(
    ("raw", "named"),
    [
        ({"turn_seconds": -1}, "turn_seconds"),
        ({"turn_seconds": 86_401}, "turn_seconds"),
        ({"turn_seconds": 5, "bank_seconds": 864_001}, "bank_seconds"),
        ({"turn_seconds": 5, "timeouts_to_forfeit": 0}, "timeouts_to_forfeit"),
        ({"bank_seconds": 10}, "bank_seconds"),
    ],
)
def test_clock_options_out_of_range_are_refused_by_name(raw: dict[str, int], named: str) -> None:
    with pytest.raises(InvalidOptions, match=named):
        parse_options(raw)


def test_an_operator_awards_forfeits_or_voids_with_a_reason() -> None:
    for verdict, seat, winner, reason in [
        ("award", 1, 1, "awarded"),
        ("forfeit", 1, 0, "forfeited"),
        ("void", None, None, "voided"),
    ]:
        table = clocked()
        [ended] = table.do(Adjudicate(verdict=verdict, seat=seat, reason="table talk"))  # type: ignore[arg-type]
        assert isinstance(ended, MatchEnded)
        assert (ended.reason, ended.seat, ended.winner, ended.note) == (
            reason,
            seat,
            winner,
            "table talk",
        )
        assert public_view(table.state).ending == EndingView(reason, seat, winner, "table talk")


def test_an_adjudication_needs_a_reason_and_a_running_match() -> None:
    table = clocked()
    with pytest.raises(InvalidCommand, match="reason"):
        table.do(Adjudicate(verdict="void", seat=None, reason=" "))
    table.do(Resign(seat=0))
    with pytest.raises(MatchAlreadyEnded):
        table.do(Adjudicate(verdict="void", seat=None, reason="late"))


def waiting_for_seat_1(options: RuleOptions) -> Table:
    table = created(options)
    table.do(AwaitJoin(seat=1, at=T0))
    return table


def test_an_invited_seat_has_a_join_deadline() -> None:
    table = waiting_for_seat_1(RuleOptions(join_seconds=60))
    assert table.state.clock == DeadlineSet(
        seat=1, at=T0, due_at=T0 + seconds(60), banks_ms=[0, 0], kind="join"
    )
    with pytest.raises(IllegalMove, match="to join"):
        table.do(NoShow(seat=1, at=T0 + seconds(59), forfeit=False))


@pytest.mark.parametrize(("forfeit", "winner"), [(False, None), (True, 0)])
def test_a_no_show_cancels_or_forfeits_the_match(forfeit: bool, winner: int | None) -> None:
    table = waiting_for_seat_1(RuleOptions(join_seconds=60))
    events = table.do(NoShow(seat=1, at=T0 + seconds(60), forfeit=forfeit))
    assert isinstance(events[-1], MatchEnded)
    assert (events[-1].reason, events[-1].seat, events[-1].winner) == ("no_show", 1, winner)
    assert table.state.phase is Phase.MATCH_OVER


def test_the_wait_to_join_is_not_taken_from_a_bank() -> None:
    table = waiting_for_seat_1(RuleOptions(join_seconds=60, turn_seconds=10, bank_seconds=30))
    table.do(Cut(seed=CUT_SEED))
    [stamp] = table.do(StampTime(at=T0 + seconds(50)))
    assert isinstance(stamp, DeadlineSet)
    assert (stamp.kind, stamp.banks_ms) == ("turn", [30_000, 30_000])


def test_a_join_deadline_without_a_turn_clock_is_cleared_once_the_seat_is_in() -> None:
    table = waiting_for_seat_1(RuleOptions(join_seconds=60))
    table.do(Cut(seed=CUT_SEED))
    [stamp] = table.do(StampTime(at=T0 + seconds(5)))
    assert stamp == DeadlineSet(seat=None, at=T0 + seconds(5), due_at=None, banks_ms=[0, 0])


def refusal(table: Table, command: Command) -> tuple[type[DomainError], str]:
    with pytest.raises(DomainError) as caught:
        table.do(command)
    return type(caught.value), str(caught.value)


def test_an_adjudication_is_refused_saying_what_it_lacks_word_for_word() -> None:
    table = clocked()
    for command, sentence in [
        (
            Adjudicate(verdict="pardon", seat=0, reason="x"),  # type: ignore[arg-type]
            'verdict must be "forfeit", "award" or "void"',
        ),
        (Adjudicate(verdict="void", seat=None, reason=" "), "an adjudication needs a reason"),
        (Adjudicate(verdict="void", seat=0, reason="x"), "a void names no seat"),
        (
            Adjudicate(verdict="void", seat=None, reason="x" * (MAX_REASON + 1)),
            f"the reason is at most {MAX_REASON} characters",
        ),
    ]:
        assert refusal(table, command) == (InvalidCommand, sentence)
    [ended] = table.do(Adjudicate(verdict="void", seat=None, reason="x" * MAX_REASON))
    assert isinstance(ended, MatchEnded)
    assert ended.note == "x" * MAX_REASON


@pytest.mark.parametrize(
    ("command", "doing"),
    [
        (Abandon(), "abandon"),
        (Adjudicate(verdict="void", seat=None, reason="late"), "adjudicate"),
        (Adjudicate(verdict="award", seat=0, reason="late"), "adjudicate"),
    ],
)
def test_ending_an_ended_match_is_refused_saying_so(command: Command, doing: str) -> None:
    table = clocked()
    table.do(Resign(seat=0))
    assert refusal(table, command) == (
        MatchAlreadyEnded,
        f"the match is over: you cannot {doing} it any more",
    )


def test_a_join_deadline_is_set_only_on_a_match_waiting_for_its_players() -> None:
    sentence = "a join deadline is set only on a match waiting for its players"
    assert refusal(created(RuleOptions()), AwaitJoin(seat=1, at=T0)) == (IllegalMove, sentence)
    started = created(RuleOptions(join_seconds=60))
    started.do(Cut(seed=CUT_SEED))
    assert refusal(started, AwaitJoin(seat=1, at=T0)) == (IllegalMove, sentence)


def test_a_no_show_is_refused_unless_that_seat_was_waited_for() -> None:
    assert refusal(created(RuleOptions(join_seconds=60)), NoShow(seat=1, at=T0, forfeit=False)) == (
        IllegalMove,
        "only a match waiting for an invited player has a join deadline",
    )
    table = waiting_for_seat_1(RuleOptions(join_seconds=60))
    assert refusal(table, NoShow(seat=0, at=T0 + seconds(60), forfeit=False)) == (
        IllegalMove,
        "seat 0 has no join deadline",
    )


def test_a_no_show_is_the_seats_first_timeout() -> None:
    table = waiting_for_seat_1(RuleOptions(join_seconds=60))
    timed_out, _ = table.do(NoShow(seat=1, at=T0 + seconds(61), forfeit=True))
    assert timed_out == TimedOut(
        seat=1, due_at=T0 + seconds(60), at=T0 + seconds(61), consecutive=1
    )


def test_a_timeout_after_the_match_is_over_is_refused_saying_so() -> None:
    table = clocked()
    table.do(Resign(seat=0))
    with pytest.raises(MatchOver) as refused:
        table.do(TimeOut(seat=1, at=T0 + seconds(40)))
    assert str(refused.value) == "the match is over"
