"""RULES.md "Laying off": onto the knocker's melds only, chains, never onto gin."""

from __future__ import annotations

import pytest

from domain.cards import cards_of, names
from domain.commands import FinishLayoff, LayOff
from domain.errors import IllegalMove, InvalidCommand, NotYourTurn
from domain.events import LaidOff
from domain.legal import legal_actions
from domain.state import Phase
from tests.unit.helpers import (
    DEFENDER_5,
    KNOCKER_MELDS,
    Table,
    cards,
    deal,
    knock_hand,
    new_table,
    scored_in,
)

# The knocker (seat 0) shows 5s 6s 7s, Jc Jd Jh, 2d 3d 4d and Ac (deadwood 1).
CHAIN = "8s 9s Ts 2h 4c 6h 8c Tc Kh Qc"  # 8s, then 9s, then Ts extend 5s 6s 7s
CHAIN_JUNK = 2 + 4 + 6 + 8 + 10 + 10 + 10


def knocked(defender: str, dead: str = "Ac") -> Table:
    table = new_table(dealer=1)
    knock_hand(table, knocker=0, dead=dead, defender=defender)
    return table


def meld_index(table: Table, meld: str) -> int:
    assert table.state.knock is not None
    shown = [names(cards_of(m)) for m in table.state.knock.melds]
    return shown.index(cards(meld))


def test_layoffs_chain_after_8s_and_9s_on_5s_6s_7s_the_ts_fits_too() -> None:
    table = knocked(CHAIN)
    assert table.state.phase is Phase.LAYOFF
    run = meld_index(table, "5s 6s 7s")
    assert legal_actions(table.state, 1) == [
        LayOff(seat=1, card="8s", meld=run),
        FinishLayoff(seat=1),
    ]
    with pytest.raises(IllegalMove, match="Ts does not fit the knocker's meld"):
        table.lay_off(1, "Ts", run)
    table.lay_off(1, "8s", run)
    assert LayOff(seat=1, card="9s", meld=run) in legal_actions(table.state, 1)
    table.lay_off(1, "9s", run)
    events = table.lay_off(1, "Ts", run)
    assert events[0] == LaidOff(seat=1, card="Ts", meld=run)
    scored = scored_in(events)  # nothing else fits: the hand is scored at once
    assert scored.layoffs == [("8s", run), ("9s", run), ("Ts", run)]
    assert (scored.defender_deadwood, scored.knocker_deadwood) == (CHAIN_JUNK, 1)
    assert (scored.winner, scored.points) == (0, CHAIN_JUNK - 1)


def test_finishing_the_layoff_lays_off_the_best_of_what_is_left() -> None:
    table = knocked(CHAIN)
    events = table.do(FinishLayoff(seat=1))
    scored = scored_in(events)
    assert scored.defender_deadwood == CHAIN_JUNK
    laid = [event.card for event in events if isinstance(event, LaidOff)]
    assert laid in ([], ["8s", "9s", "Ts"])  # laying off or melding 8s 9s Ts is all one


def test_a_fourth_card_is_laid_off_on_a_three_card_set() -> None:
    table = knocked("Js 2h 4c 6h 8c Tc Kh Qc 9h 9c")
    sets = meld_index(table, "Jc Jd Jh")
    assert LayOff(seat=1, card="Js", meld=sets) in legal_actions(table.state, 1)
    scored = scored_in(table.lay_off(1, "Js", sets))
    assert scored.layoffs == [("Js", sets)]


def test_the_defender_may_break_up_an_own_meld_to_lay_a_card_off() -> None:
    # 8c 8d 8h 8s is a set, but 8s on 5s 6s 7s lets 9s follow: 9 points less.
    table = knocked("8c 8d 8h 8s 9s 2h 4c 6h Tc Kh")
    run = meld_index(table, "5s 6s 7s")
    assert LayOff(seat=1, card="8s", meld=run) in legal_actions(table.state, 1)
    scored = scored_in(table.finish_layoff(1))
    assert scored.defender_deadwood == 2 + 4 + 6 + 10 + 10
    assert scored.defender_melds == [cards("8c 8d 8h")]


def test_no_layoffs_onto_gin_the_defenders_unmatched_cards_all_count() -> None:
    table = new_table(dealer=1)
    events = knock_hand(table, knocker=0, dead="5d", defender=CHAIN)
    scored = scored_in(events)  # scored at once: no layoff phase
    assert scored.outcome == "gin"
    assert scored.layoffs == []
    assert scored.defender_deadwood == CHAIN_JUNK + 8 + 9 + 10 - 27  # 8s 9s Ts meld by themselves
    assert table.state.phase is not Phase.LAYOFF


def test_no_layoffs_onto_gin_even_of_single_cards() -> None:
    table = new_table(dealer=1)
    junk = "8s 2h 4c 6h 8c Kh Qc 9h 9c Th"  # no meld; 8s alone would fit 5s 6s 7s
    scored = scored_in(knock_hand(table, knocker=0, dead="5d", defender=junk))
    assert scored.layoffs == []
    assert scored.defender_deadwood == 8 + 2 + 4 + 6 + 8 + 10 + 10 + 9 + 9 + 10


def test_no_layoff_phase_when_nothing_fits() -> None:
    table = knocked("2h 4c 6h 8c Tc Kh Qc 9h 9c Qh")
    assert table.state.phase is Phase.DEAL
    assert table.state.last_hand is not None


def test_cards_are_never_laid_off_onto_the_defenders_own_melds() -> None:
    # The knocker's 9c would extend the defender's 6c 7c 8c: it counts all the same.
    table = knocked(DEFENDER_5, dead="9c")
    scored = scored_in(table.events)
    assert cards("6c 7c 8c") in scored.defender_melds
    assert scored.knocker_deadwood == 9
    assert (scored.outcome, scored.winner) == ("undercut", 1)


def test_only_the_defender_lays_off_and_only_cards_it_holds() -> None:
    table = knocked(CHAIN)
    run = meld_index(table, "5s 6s 7s")
    assert legal_actions(table.state, 0) == []
    with pytest.raises(NotYourTurn):
        table.lay_off(0, "8s", run)
    with pytest.raises(IllegalMove, match="you do not hold 4s"):
        table.lay_off(1, "4s", run)
    with pytest.raises(IllegalMove, match="no meld 7"):
        table.lay_off(1, "8s", 7)
    with pytest.raises(InvalidCommand):
        table.lay_off(1, "8s", -1)


def test_knocker_melds_hold_the_scripted_cards() -> None:
    table = knocked(CHAIN)
    assert table.state.knock is not None
    shown = sorted(c for meld in table.state.knock.melds for c in names(cards_of(meld)))
    assert shown == sorted(KNOCKER_MELDS.split())


def test_runs_never_wrap_around_an_ace_lays_off_below_the_two_not_above_the_king() -> None:
    # Ad fits 2d 3d 4d; Ad comes right after Kc in card order, and a wrap-around reading
    # would file it onto Jc Qc Kc.
    table = deal(
        seat0="Jc Qc Kc 2d 3d 4d 5s 6s 7s Ac",
        seat1="Ad 9h 9c Th 6h 8c 2h 4c Qh Kh",
        upcard="2c",
        stock="Ks",
        dealer=1,
    )
    table.pass_upcard(0)
    table.pass_upcard(1)
    table.draw_stock(0)
    table.knock(0, "Ks")
    low_run = meld_index(table, "2d 3d 4d")
    assert legal_actions(table.state, 1) == [
        LayOff(seat=1, card="Ad", meld=low_run),
        FinishLayoff(seat=1),
    ]
    scored = scored_in(table.finish_layoff(1))
    assert scored.layoffs == [("Ad", low_run)]


def test_a_card_of_a_runs_rank_does_not_lay_off_onto_the_run() -> None:
    # 5c shares its rank with 5s of the knocker's 5s 6s 7s, but a run takes the same suit only.
    table = knocked("6h 7h 8h Qc Qd Qs 8d 9d Td 5c")
    assert table.state.phase is Phase.DEAL  # nothing to lay off: scored at once
    scored = scored_in(table.events)
    assert (scored.layoffs, scored.defender_deadwood_cards) == ([], ["5c"])
    assert (scored.outcome, scored.winner, scored.points) == ("knock", 0, 5 - 1)
