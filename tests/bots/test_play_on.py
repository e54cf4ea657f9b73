"""Playing on instead of knocking: a few turns played out on a sampled opponent hand, with the
opponent's knock and this seat's gin scored exactly."""

from __future__ import annotations

import random

from domain.cards import Mask, cards_of, mask_of, parse_card, parse_cards
from domain.melds import min_deadwood_after_discard
from domain.options import RuleOptions
from service.bots.play_on import play_on_values


def cards(text: str) -> Mask:
    return mask_of(parse_cards(text))


def test_an_opponent_that_melds_the_card_thrown_knocks_and_is_scored_with_the_layoffs() -> None:
    mine = cards("Ac 2c 3c 5d 6d 7d 9s Ts Js 4h 9h")
    theirs = cards("9c 9d Kh Kd Kc Ah 2h 3h 4s 5s")  # takes 9h, throws 5s, knocks with 4s
    stock = cards("Qs Qd Qc 8c 7c")
    values = play_on_values(
        mine, parse_card("9h"), [theirs], theirs | stock, 10, RuleOptions(), random.Random(1), 3
    )
    # This seat lays its 4h off onto Ah 2h 3h: no deadwood left against the knocker's 4.
    assert values == [4 + 25, 4 + 25, 4 + 25]


def test_a_draw_that_makes_gin_scores_the_gin_bonus_and_the_opponents_deadwood() -> None:
    mine = cards("Ac 2c 3c 5d 6d 7d 9s Ts Js 5c Qh")  # every stock card makes gin with 5c out
    theirs = cards("Kh Kd Qc Jd 9h 7h 5h 3h 2s 6c")
    stock = cards("8s Qs 4c 8d")
    for seed in range(5):
        rng = random.Random(seed)
        values = play_on_values(
            mine, parse_card("Qh"), [theirs], theirs | stock, 10, RuleOptions(), rng, 2
        )
        # The opponent draws first: its deadwood is what it keeps after its draw and throw.
        gins = {25 + min_deadwood_after_discard(theirs | 1 << card) for card in cards_of(stock)}
        assert values[0] in gins
        assert values[1] == values[0]  # the hand ended with the gin
