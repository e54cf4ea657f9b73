"""Hidden information: what a seat and a spectator may see, in views and in event feeds."""

from __future__ import annotations

import msgspec
import pytest

from domain.cards import CARD_NAMES, cards_of, names
from domain.commands import DrawFromDiscard, DrawFromStock
from domain.events import Dealt, Drew, Knocked, Scored
from domain.legal import legal_actions
from domain.options import RuleOptions
from domain.state import Phase
from domain.views import EndingView, SeatView, TableView, public_view, redact_event, view
from tests.card_names import card_names_in
from tests.unit.helpers import (
    DEFENDER_5,
    KNOCK_CARD,
    KNOCKER_MELDS,
    Table,
    deal,
    knock_hand,
    new_table,
)

SEAT0 = "As 2s 3s 4h 5h 6h 7c 8c 9c Kd"
SEAT1 = "2c 3c 4c 7d 8d 9h Th Jh Kc Ks"
CHAIN = "8s 9s Ts 2h 4c 6h 8c Tc Kh Qc"  # lays off onto the knocker's 5s 6s 7s


def cards_shown(shown: SeatView | TableView) -> set[str]:
    """Every card named anywhere in a view, but for the cut (cards of its own deck)."""
    text = msgspec.json.encode(msgspec.structs.replace(shown, cut=None)).decode()
    return card_names_in(text)


def first_turn() -> Table:
    table = deal(seat0=SEAT0, seat1=SEAT1, upcard="5c", stock="Qh 8s Jd", dealer=1)
    table.pass_upcard(0)
    table.pass_upcard(1)
    return table


def test_a_seat_sees_its_own_hand_sorted_and_only_the_count_of_the_opponents() -> None:
    table = first_turn()
    mine = view(table.state, 0)
    assert mine.hand == sorted(SEAT0.split(), key=CARD_NAMES.index)
    assert mine.opponent_card_count == 10
    assert mine.stock_size == 31
    assert mine.discard_pile == ["5c"]
    assert cards_shown(mine) == set(SEAT0.split()) | {"5c"}
    assert mine.legal_actions == [DrawFromStock(seat=0)]
    assert mine.knock_limit == 10
    theirs = view(table.state, 1)
    assert cards_shown(theirs) == set(SEAT1.split()) | {"5c"}
    assert theirs.legal_actions == []


def test_a_seat_sees_the_cards_the_opponent_took_from_the_pile_while_held() -> None:
    table = first_turn()
    table.draw_stock(0)
    table.discard(0, "Kd")
    table.draw_pile(1)
    assert view(table.state, 0).opponent_took == ["Kd"]
    assert public_view(table.state).took_from_pile == [[], ["Kd"]]
    table.discard(1, "Jh")
    table.draw_stock(0)
    table.discard(0, "Qh")
    table.draw_stock(1)
    table.discard(1, "Kd")
    assert view(table.state, 0).opponent_took == []


def test_the_stock_order_is_never_shown() -> None:
    table = first_turn()
    for shown in (view(table.state, 0), view(table.state, 1), public_view(table.state)):
        assert "Qh" not in cards_shown(shown)  # the top of the stock
    (dealt,) = [event for event in table.events if isinstance(event, Dealt)]
    for seat in (0, 1, None):
        for hand_over in (False, True):
            redacted = redact_event(dealt, seat, hand_over)
            assert isinstance(redacted, Dealt)
            assert redacted.stock == []


def test_a_redacted_deal_shows_a_seat_only_its_own_hand() -> None:
    table = first_turn()
    (dealt,) = [event for event in table.events if isinstance(event, Dealt)]
    mine = redact_event(dealt, 0, hand_over=False)
    assert isinstance(mine, Dealt)
    assert (mine.hands[0], mine.hands[1]) == (dealt.hands[0], [])
    spectator = redact_event(dealt, None, hand_over=False)
    assert isinstance(spectator, Dealt)
    assert spectator.hands == [[], []]
    assert spectator.upcard == "5c"


def test_a_stock_draw_is_hidden_from_the_opponent_and_spectators() -> None:
    table = first_turn()
    (drew,) = table.draw_stock(0)
    assert redact_event(drew, 0, hand_over=False) == drew
    assert redact_event(drew, 1, hand_over=False) == Drew(seat=0, source="stock", card=None)
    assert redact_event(drew, None, hand_over=False) == Drew(seat=0, source="stock", card=None)
    assert redact_event(drew, 1, hand_over=True) == drew
    table.discard(0, "Kd")
    (taken,) = table.do(DrawFromDiscard(seat=1))
    assert redact_event(taken, 0, hand_over=False) == taken  # both saw it on the pile


def test_the_knock_card_is_hidden_from_the_defender_until_the_hand_ends() -> None:
    table = new_table(dealer=1)
    (knock,) = knock_hand(table, knocker=0, dead="Ac", defender=CHAIN)
    assert table.state.phase is Phase.LAYOFF  # the hand is not over: 8s may be laid off
    assert isinstance(knock, Knocked)
    assert knock.card == KNOCK_CARD
    defender = view(table.state, 1)
    assert defender.knock is not None
    assert defender.knock.knock_card is None
    assert KNOCK_CARD not in cards_shown(defender)
    assert KNOCK_CARD not in cards_shown(public_view(table.state))
    assert redact_event(knock, 1, hand_over=False) == msgspec.structs.replace(knock, card=None)
    assert redact_event(knock, None, hand_over=False) == msgspec.structs.replace(knock, card=None)
    knocker = view(table.state, 0)
    assert knocker.knock is not None
    assert knocker.knock.knock_card == KNOCK_CARD  # the knocker knows its own card
    table.finish_layoff(1)
    over = view(table.state, 1)
    assert over.knock is not None
    assert over.knock.knock_card == KNOCK_CARD
    assert isinstance(over.last_hand, Scored)
    assert over.last_hand.knock_card == KNOCK_CARD
    assert redact_event(knock, 1, hand_over=True) == knock


def test_the_knockers_melds_are_shown_to_both_after_the_knock() -> None:
    table = new_table(dealer=1)
    knock_hand(table, knocker=0, dead="Ac", defender=CHAIN)
    defender = view(table.state, 1)
    assert defender.knock is not None
    assert defender.knock.deadwood == ["Ac"]
    assert sorted(c for meld in defender.knock.melds for c in meld) == sorted(KNOCKER_MELDS.split())
    assert defender.legal_actions == legal_actions(table.state, 1)


def test_public_view_shows_no_hand_until_the_hand_is_over() -> None:
    table = first_turn()
    table.draw_stock(0)
    spectator = public_view(table.state)
    assert spectator.card_counts == [11, 10]
    assert cards_shown(spectator) == {"5c"}
    assert not hasattr(spectator, "hand")


def test_once_the_hand_is_over_both_hands_are_shown() -> None:
    table = new_table(dealer=1)
    knock_hand(table, knocker=0, dead="Ac")
    for shown in (view(table.state, 1), public_view(table.state)):
        assert isinstance(shown.last_hand, Scored)
        assert sorted(shown.last_hand.hands[0] + shown.last_hand.hands[1]) == sorted(
            f"{KNOCKER_MELDS} Ac {DEFENDER_5}".split()
        )
    (dealt,) = [event for event in table.events if isinstance(event, Dealt)]
    shown_deal = redact_event(dealt, None, hand_over=True)
    assert isinstance(shown_deal, Dealt)
    assert shown_deal.hands == dealt.hands


def test_views_are_plain_json() -> None:
    table = first_turn()
    for shown in (view(table.state, 0), public_view(table.state)):
        decoded = msgspec.json.decode(msgspec.json.encode(shown))
        assert decoded["phase"] == "offer"


@pytest.mark.parametrize("dealer", [1, 0])
def test_a_card_taken_from_the_pile_and_laid_off_is_no_longer_shown_as_held(dealer: int) -> None:
    # The dealer takes the upcard 8s, then lays it off onto the knocker's 5s 6s 7s; its 9s
    # fits next, so the hand is still being laid off. Both ways round: the layoff must undo
    # the taken card from the seat that laid it off.
    knocker = 1 - dealer
    hands = {dealer: "9s 2h 4c 6h 8c Tc Kh Qc 9h Qh", knocker: "5s 6s 7s Jc Jd Jh 2d 3d 4d Ac"}
    table = deal(seat0=hands[0], seat1=hands[1], upcard="8s", stock="Ks", dealer=dealer)
    table.pass_upcard(knocker)
    table.take_upcard(dealer)
    table.discard(dealer, "Kh")
    assert view(table.state, knocker).opponent_took == ["8s"]
    table.draw_stock(knocker)
    table.knock(knocker, "Ks")
    assert table.state.knock is not None
    run = [names(cards_of(meld)) for meld in table.state.knock.melds].index(["5s", "6s", "7s"])
    table.lay_off(dealer, "8s", run)
    assert table.state.phase is Phase.LAYOFF
    assert view(table.state, knocker).opponent_took == []
    assert public_view(table.state).took_from_pile == [[], []]


def test_a_card_taken_from_the_pile_and_knocked_with_is_no_longer_shown_as_held() -> None:
    # The non-dealer takes the upcard Kc, keeps it a turn, then knocks with it face down.
    table = deal(seat0=f"{KNOCKER_MELDS} Ac", seat1=CHAIN, upcard="Kc", stock="3h 5h", dealer=1)
    table.take_upcard(0)
    table.discard(0, "Ac")
    table.draw_stock(1)
    table.discard(1, "3h")
    table.draw_stock(0)
    assert view(table.state, 1).opponent_took == ["Kc"]
    table.knock(0, "Kc")
    assert table.state.phase is Phase.LAYOFF
    assert view(table.state, 1).opponent_took == []
    assert public_view(table.state).took_from_pile == [[], []]


def test_the_knock_limit_of_the_options_is_shown_before_the_first_deal() -> None:
    table = new_table(RuleOptions(knock_limit=5))
    assert table.state.phase is Phase.DEAL
    assert view(table.state, 0).knock_limit == 5
    assert public_view(table.state).knock_limit == 5


@pytest.mark.parametrize("dealer", [0, 1])
def test_views_show_the_dealer_and_the_winner_of_a_match_played_out(dealer: int) -> None:
    table = new_table(RuleOptions(game_target=1, match_target=0), dealer=dealer)
    assert public_view(table.state).dealer == view(table.state, 0).dealer == dealer
    knock_hand(table, knocker=1 - dealer, dead="Ac")  # 1 against 5: the match is won
    assert table.state.phase is Phase.MATCH_OVER
    for shown in (view(table.state, 0), view(table.state, 1), public_view(table.state)):
        assert shown.dealer == 1 - dealer  # the winner of the hand would deal the next
        assert shown.winner == 1 - dealer
        assert shown.ending == EndingView("played_out", None, 1 - dealer, None)
