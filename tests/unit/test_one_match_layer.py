"""The parts of a match written once for every table size (``domain.endings``,
``domain.clocks``, ``domain.views``), checked directly: how a match ended, when a hand's cards
may be shown, and what a no-show refused too early is told."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from domain.clocks import no_show_in
from domain.commands import NoShow
from domain.endings import two_seat_standing
from domain.errors import IllegalMove
from domain.events import DeadlineSet, Dealt, Drew, Event, HandDrawn, MatchEnded
from domain.state import MatchState
from domain.tables.endings import standing
from domain.tables.state import TablesState
from domain.views import EndingView, hands_over, how_it_ended

T0 = datetime(2026, 1, 1, tzinfo=UTC)


def dealt() -> Dealt:
    return Dealt(
        game=1,
        hand=1,
        dealer=0,
        hands=[[], []],
        upcard="7h",
        stock=[],
        knock_limit=10,
        multiplier=1,
    )


def drew() -> Drew:
    return Drew(seat=0, source="stock", card="8h")


def test_a_match_played_out_ended_won_by_its_winner_and_one_not_over_has_no_ending() -> None:
    assert how_it_ended(True, None, 1) == EndingView("played_out", None, 1, None)
    assert how_it_ended(False, None, 1) is None
    resigned = MatchEnded(
        reason="resigned", seat=0, winner=1, note=None, match_scores=[0, 0], games_won=[0, 0]
    )
    assert how_it_ended(True, resigned, 1) == EndingView("resigned", 0, 1, None)


def test_a_hand_is_over_once_its_end_or_a_later_deal_follows() -> None:
    # A hand at the wall, then a hand in play: only the first one's cards may be shown.
    ended: list[Event] = [dealt(), drew(), HandDrawn(dealer=0, hands=[[], []]), dealt(), drew()]
    assert hands_over(ended) == [True, True, True, False, False]
    # Without its end recorded, a hand is still over once a later deal follows it.
    assert hands_over([dealt(), drew(), dealt(), drew()]) == [True, True, False, False]


@pytest.mark.parametrize(
    ("seats", "deadline_seat", "told"),
    [
        (2, 1, "seat 1 has until 2026-01-01T00:01:00+00:00 to join"),
        (3, None, "the invited players have until 2026-01-01T00:01:00+00:00 to join"),
        (4, None, "the invited players have until 2026-01-01T00:01:00+00:00 to join"),
    ],
)
def test_a_no_show_before_the_join_deadline_is_told_whose_deadline_it_is(
    seats: int, deadline_seat: int | None, told: str
) -> None:
    stands = two_seat_standing(MatchState()) if seats == 2 else standing(TablesState(players=seats))  # type: ignore[arg-type]
    deadline = DeadlineSet(
        seat=deadline_seat, at=T0, due_at=T0 + timedelta(seconds=60), banks_ms=[], kind="join"
    )
    with pytest.raises(IllegalMove) as refused:
        no_show_in(
            stands, True, deadline, NoShow(seat=1, at=T0 + timedelta(seconds=59), forfeit=False)
        )
    assert str(refused.value) == told
