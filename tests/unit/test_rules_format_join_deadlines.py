"""docs/rules.md "Join deadlines, no-shows, abandonment and adjudication" at three and four
seats: one join deadline for every invited seat, a no-show that cancels the match or forfeits
it for the lowest absent seat, and the deadline cleared once the cut is made."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import msgspec
import pytest

from domain.commands import AwaitJoin, NoShow
from domain.errors import IllegalMove, InvalidCommand, MatchOver
from domain.events import DeadlineSet, MatchEnded, TimedOut
from domain.options import RuleOptions
from domain.tables import CutSeats, DealTable, FormatPhase, tables_public_view, tables_view
from domain.tables.commands import StampClocks
from domain.tables.events import Players
from service.audit.event_diff import Discrepancy
from service.audit.verify_play import check_tables_play
from service.audit.verify_seeds import SeedBook
from tests.unit.format_helpers import FormatMatch, cut_seed

T0 = datetime(2026, 1, 1, 12, 0, tzinfo=UTC)
JOINING = RuleOptions(join_seconds=600)
DUE = T0 + timedelta(seconds=600)
EVERY_FORMAT = pytest.mark.parametrize("players", [3, 4])


def awaiting(players: Players, options: RuleOptions = JOINING) -> FormatMatch:
    match = FormatMatch(players, options)
    match.do(AwaitJoin(seat=1, at=T0))
    return match


@EVERY_FORMAT
def test_one_join_deadline_names_no_seat_and_shows_in_every_view(players: Players) -> None:
    match = awaiting(players)

    assert match.events[-1] == DeadlineSet(None, T0, DUE, [0] * players, kind="join")
    assert tables_public_view(match.state).join_due_at == DUE
    assert all(tables_view(match.state, seat).join_due_at == DUE for seat in range(players))
    assert match.replayed() == match.state


@EVERY_FORMAT
def test_a_join_deadline_needs_join_seconds_and_is_set_once(players: Players) -> None:
    with pytest.raises(IllegalMove, match="waiting for its players"):
        FormatMatch(players).do(AwaitJoin(seat=1, at=T0))
    match = awaiting(players)
    with pytest.raises(IllegalMove, match="waiting for its players"):
        match.do(AwaitJoin(seat=2, at=T0))


@EVERY_FORMAT
def test_a_no_show_before_the_deadline_is_refused(players: Players) -> None:
    match = awaiting(players)

    with pytest.raises(IllegalMove, match="until 2026-01-01T12:10:00"):
        match.do(NoShow(seat=1, at=DUE - timedelta(seconds=1), forfeit=True))
    with pytest.raises(InvalidCommand, match=f"seat must be 0 to {players - 1}"):
        match.do(NoShow(seat=players, at=DUE, forfeit=True))
    with pytest.raises(IllegalMove, match="has a join deadline"):
        FormatMatch(players, JOINING).do(NoShow(seat=1, at=DUE, forfeit=True))


@EVERY_FORMAT
def test_a_cancelled_match_has_no_winner(players: Players) -> None:
    match = awaiting(players)

    timed_out, ended = match.do(NoShow(seat=1, at=DUE + timedelta(seconds=3), forfeit=False))

    assert timed_out == TimedOut(seat=1, due_at=DUE, at=DUE + timedelta(seconds=3), consecutive=1)

    assert ended == MatchEnded(
        "no_show", 1, None, None, [0] * (3 if players == 3 else 2), [0] * (3 if players == 3 else 2)
    )
    assert match.state.phase is FormatPhase.MATCH_OVER
    assert match.state.deadline is None
    assert tables_public_view(match.state).join_due_at is None
    assert match.replayed() == match.state
    with pytest.raises(MatchOver):
        match.do(NoShow(seat=1, at=DUE, forfeit=False))


@pytest.mark.parametrize(
    ("players", "absent", "winner"),
    [
        (3, 0, 1),  # the lower of the other two, absent or not
        (3, 1, 0),
        (3, 2, 0),
        (4, 0, 1),  # the other team, even with a seat of its own absent
        (4, 1, 0),
        (4, 3, 0),
    ],
)
def test_a_forfeit_goes_where_a_resignation_before_the_deal_would(
    players: Players, absent: int, winner: int
) -> None:
    match = awaiting(players)

    _, ended = match.do(NoShow(seat=absent, at=DUE, forfeit=True))

    assert isinstance(ended, MatchEnded)
    assert (ended.reason, ended.seat, ended.winner) == ("no_show", absent, winner)


@EVERY_FORMAT
def test_the_cut_ends_the_wait_and_the_next_stamp_clears_the_deadline(players: Players) -> None:
    match = awaiting(players)
    match.do(CutSeats(seed=cut_seed(players, 0)))
    assert tables_public_view(match.state).join_due_at is None

    produced = match.do(StampClocks(at=T0 + timedelta(seconds=5), tables=[]))

    assert produced == [DeadlineSet(None, T0 + timedelta(seconds=5), None, [0] * players)]
    assert match.state.deadline == produced[0]
    assert match.do(StampClocks(at=T0 + timedelta(seconds=6), tables=[])) == []


@EVERY_FORMAT
def test_with_turn_clocks_the_first_turn_deadline_replaces_the_join_deadline(
    players: Players,
) -> None:
    options = RuleOptions(join_seconds=600, turn_seconds=10, bank_seconds=30)
    match = awaiting(players, options)
    match.do(CutSeats(seed=cut_seed(players, 0)))
    while match.state.phase is FormatPhase.DEAL:
        match.do(DealTable(seed="ab" * 16))

    *_, deadline = match.do(StampClocks(at=T0, tables=list(range(len(match.state.tables)))))

    assert isinstance(deadline, DeadlineSet)
    assert (deadline.kind, deadline.due_at) == ("turn", T0 + timedelta(seconds=40))


def checked(match: FormatMatch) -> list[str]:
    """What ``gin verify``'s play check reports of the match's events."""
    reported: list[str] = []
    seeds = SeedBook(match_id="m", entropy=[], seeds={}, labels={})
    check_tables_play(list(enumerate(match.events, start=1)), seeds, reported.append)
    return reported


@pytest.mark.parametrize("forfeit", [True, False])
@EVERY_FORMAT
def test_a_verifier_decides_a_no_show_again(players: Players, forfeit: bool) -> None:
    match = awaiting(players)
    match.do(NoShow(seat=2, at=DUE, forfeit=forfeit))

    assert checked(match) == [f"match ended (no_show, seat 2): won by side {match.state.winner}"]


@EVERY_FORMAT
def test_a_verifier_flags_a_no_show_recorded_before_the_deadline(players: Players) -> None:
    match = awaiting(players)
    match.do(NoShow(seat=2, at=DUE, forfeit=True))
    early = msgspec.structs.replace(match.events[-2], at=DUE - timedelta(seconds=1))
    match.events[-2] = early

    with pytest.raises(Discrepancy, match="until 2026-01-01T12:10:00"):
        checked(match)


@EVERY_FORMAT
def test_a_refused_join_deadline_or_no_show_says_why_in_full(players: Players) -> None:
    """A refusal's message is the problem's detail: each says the rule that refused it."""
    with pytest.raises(
        IllegalMove, match=r"^a join deadline is set only on a match waiting for its players$"
    ):
        FormatMatch(players).do(AwaitJoin(seat=1, at=T0))
    with pytest.raises(
        IllegalMove, match=r"^only a match waiting for an invited player has a join deadline$"
    ):
        FormatMatch(players, JOINING).do(NoShow(seat=1, at=DUE, forfeit=True))
    match = awaiting(players)
    match.do(NoShow(seat=1, at=DUE, forfeit=False))
    with pytest.raises(MatchOver, match=r"^the match is over$"):
        match.do(NoShow(seat=1, at=DUE, forfeit=False))
