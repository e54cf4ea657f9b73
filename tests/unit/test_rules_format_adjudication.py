"""docs/rules.md "Join deadlines, no-shows, abandonment and adjudication" at three and four
seats: an operator's forfeit ends the match as the seat's resignation would, an award gives it
to the seat's side, a void to nobody, the reason kept as the note; abandonment ends the match
with no winner; a match already over, or not yet created, is refused."""

from __future__ import annotations

import pytest

from domain.commands import Abandon, Adjudicate, Verdict
from domain.errors import IllegalMove, InvalidCommand, MatchAlreadyEnded
from domain.events import MatchEnded
from domain.options import RuleOptions
from domain.tables import FormatPhase, decide_tables, tables_public_view, tables_view
from domain.tables.events import Players
from domain.tables.state import TablesState
from tests.unit.format_helpers import FormatMatch, format_match

EVERY_FORMAT = pytest.mark.parametrize("players", [3, 4])
NOTE = "collusion at table 1"


def ends(match: FormatMatch, verdict: Verdict, seat: int | None) -> MatchEnded:
    (ended,) = match.do(Adjudicate(verdict=verdict, seat=seat, reason=NOTE))
    assert isinstance(ended, MatchEnded)
    assert match.state.phase is FormatPhase.MATCH_OVER
    assert match.state.ending == ended
    assert match.replayed() == match.state
    return ended


def three_with_seat_1_ahead(options: RuleOptions | None = None) -> FormatMatch:
    """Three players, seat 1 won the first hand: a resignation of seat 0 or 2 goes to seat 1,
    not to the lowest other seat."""
    match = format_match(3, dealer=2, options=options)
    match.knock_hand(0, knocker=1, dead="Ac")
    assert max(match.state.hand_points[1], match.state.match_scores[1]) > 0
    return match


@pytest.mark.parametrize(
    ("players", "seat", "winner"), [(3, 0, 1), (3, 2, 1), (4, 0, 1), (4, 3, 0)]
)
def test_a_forfeit_goes_where_the_seat_s_resignation_would(
    players: Players, seat: int, winner: int
) -> None:
    match = three_with_seat_1_ahead() if players == 3 else format_match(4, dealer=3)
    scores = list(match.state.match_scores)

    ended = ends(match, "forfeit", seat)

    assert ended == MatchEnded(
        reason="forfeited",
        seat=seat,
        winner=winner,
        note=NOTE,
        match_scores=scores,
        games_won=[0] * len(scores),
    )
    assert match.state.winner == winner


@pytest.mark.parametrize(
    ("players", "seat", "winner"),
    [(3, 0, 0), (3, 2, 2), (4, 0, 0), (4, 1, 1), (4, 2, 0), (4, 3, 1)],
)
def test_an_award_goes_to_the_seat_s_side_at_three_the_seat_alone(
    players: Players, seat: int, winner: int
) -> None:
    match = three_with_seat_1_ahead() if players == 3 else format_match(4, dealer=3)

    ended = ends(match, "award", seat)

    assert (ended.reason, ended.seat, ended.winner, ended.note) == ("awarded", seat, winner, NOTE)
    assert match.state.winner == winner


@EVERY_FORMAT
def test_a_void_ends_the_match_with_no_winner_and_the_scores_standing(players: Players) -> None:
    match = format_match(players, dealer=players - 1)

    ended = ends(match, "void", None)

    sides = 3 if players == 3 else 2
    assert ended == MatchEnded("voided", None, None, NOTE, [0] * sides, [0] * sides)
    assert match.state.winner is None
    for seen in [tables_public_view(match.state), tables_view(match.state, 0)]:
        assert seen.ending == ended


@EVERY_FORMAT
def test_an_adjudication_names_a_seat_of_the_match(players: Players) -> None:
    for verdict in ("forfeit", "award"):
        for seat in (-1, players, None, True):
            match = format_match(players, dealer=0)
            with pytest.raises(InvalidCommand, match=f"seat must be 0 to {players - 1}"):
                match.do(Adjudicate(verdict=verdict, seat=seat, reason=NOTE))
            assert match.state.phase is FormatPhase.DEAL
    last = ends(format_match(players, dealer=0), "award", players - 1)
    assert last.seat == players - 1


@EVERY_FORMAT
def test_an_adjudication_needs_a_running_match(players: Players) -> None:
    match = format_match(players, dealer=0)
    ends(match, "void", None)

    for verdict, seat in (("void", None), ("award", 0), ("forfeit", 1)):
        with pytest.raises(MatchAlreadyEnded, match="you cannot adjudicate it any more"):
            match.do(Adjudicate(verdict=verdict, seat=seat, reason=NOTE))  # type: ignore[arg-type]
    with pytest.raises(InvalidCommand, match="reason"):
        match.do(Adjudicate(verdict="void", seat=None, reason=" "))


def test_nothing_ends_a_match_that_was_never_created() -> None:
    with pytest.raises(IllegalMove, match="cannot adjudicate a match that has not been created"):
        decide_tables(TablesState(), Adjudicate(verdict="void", seat=None, reason=NOTE))
    with pytest.raises(IllegalMove, match="cannot abandon a match that has not been created"):
        decide_tables(TablesState(), Abandon())


@EVERY_FORMAT
def test_an_abandoned_match_ends_with_no_winner_and_the_scores_standing(players: Players) -> None:
    if players == 3:
        match = three_with_seat_1_ahead(RuleOptions(game_target=1))  # a game won: scores
        assert match.state.match_scores[1] > 0
    else:
        match = FormatMatch(players)  # waiting for its players
    scores, games = list(match.state.match_scores), list(match.state.games_won)

    (ended,) = match.do(Abandon())

    assert ended == MatchEnded("abandoned", None, None, None, scores, games)
    assert match.state.phase is FormatPhase.MATCH_OVER
    assert match.state.winner is None
    assert match.replayed() == match.state
    with pytest.raises(MatchAlreadyEnded, match="you cannot abandon it any more"):
        match.do(Abandon())
