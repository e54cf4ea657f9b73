"""The hard level: its knock is played out exactly against sampled opponent hands, the samples
hold only what the opponent may hold, and it plays differently from the strong level."""

from __future__ import annotations

import random
from dataclasses import replace

from domain.cards import FULL_DECK, card_name, cards_of, mask_of, parse_cards
from domain.evolve import evolve
from domain.melds import min_deadwood
from domain.options import RuleOptions
from domain.views import view
from service.bots import bot_for
from service.bots.hard import HARD_TUNING
from service.bots.knock_odds import knock_odds
from service.bots.knocking import KnockPlan
from service.bots.opponent_hands import sample_hands
from service.bots.opponent_melds import holding_chances
from service.bots.strong import StrongBot
from tests.unit.test_bots import apply, first_hand, memory_at


def test_a_knock_is_scored_exactly_against_each_sampled_hand() -> None:
    melds = (mask_of(parse_cards("9s Ts Js")),)
    knock = KnockPlan(card=0, melds=melds, deadwood=5, layoffs=0.0)
    far = mask_of(parse_cards("7s 8s Kc Kd Qh Jc 2d 3h 4c 9d"))
    near = mask_of(parse_cards("Ac Ad Ah 2c 2d 2h 3c 3d 3h 4s"))  # 4s left: 4 points
    odds = knock_odds(knock, [far, near], RuleOptions())
    far_points = 10 + 10 + 10 + 10 + 2 + 3 + 4 + 9 - 5  # 8s, then 7s, laid off onto the run
    assert odds.undercut == 0.5
    assert odds.value == (far_points - (5 - 4 + 25)) / 2
    tie_scores_nothing = RuleOptions(undercut_on_tie=False)
    even = mask_of(parse_cards("Ac Ad Ah 2c 2d 2h 3c 3d 3h 5c"))
    assert knock_odds(knock, [even], tie_scores_nothing).value == 0.0
    assert knock_odds(knock, [even], RuleOptions()).value == -25.0


def test_sampled_hands_hold_the_taken_cards_and_only_cards_the_seat_has_not_seen() -> None:
    memory = memory_at(20, opponent_took="7h 8h")
    memory = replace(memory, unseen=memory.unseen & ~mask_of(parse_cards("Ac 2c 3c 4c 5c 6c")))
    hands = sample_hands(memory, holding_chances(memory), random.Random(1), 50)
    took = mask_of(parse_cards("7h 8h"))
    for hand in hands:
        assert hand.bit_count() == 10
        assert hand & took == took
        assert hand & ~took & ~memory.unseen == 0
    assert len(set(hands)) > 40  # drawn afresh, not one hand repeated


def test_hard_plays_differently_from_strong() -> None:
    hard, strong = bot_for("hard"), bot_for("strong")
    differ = 0
    for seed in range(4):
        before, dealt = first_hand(seed)
        state = evolve(before, dealt)
        while state.turn is not None and state.knock is None and state.stock_left > 2:
            seen = view(state, state.turn)
            move = hard.choose(seen)
            differ += move != strong.choose(seen)
            state, _ = apply(state, move)
    assert differ > 0


def test_late_in_a_hand_the_sampled_opponent_has_kept_what_melds() -> None:
    """An opponent that has drawn for many turns holds less deadwood than ten random cards."""

    def mean_deadwood(stock_size: int) -> float:
        memory = memory_at(stock_size)
        hands = sample_hands(memory, holding_chances(memory), random.Random(2), 30)
        return sum(min_deadwood(hand) for hand in hands) / len(hands)

    assert mean_deadwood(8) < mean_deadwood(30) - 15


def test_late_in_a_hand_the_hard_level_throws_for_the_deadwood_it_holds_now() -> None:
    """Early it throws 9h, keeping Jd Qd for a run a draw may make; late, when the opponent may
    knock before a draw helps, it throws Jd, which leaves a point less deadwood now."""
    hand = mask_of(parse_cards("Ac 3c 7c Ad 8d Jd Qd 3h 8h 9h 8s"))

    def thrown(stock_size: int, defence: float) -> str:
        memory = replace(memory_at(stock_size), hand=hand, unseen=FULL_DECK & ~hand)
        bot = StrongBot(replace(HARD_TUNING, defence=defence))
        return card_name(bot._best_discard(memory, list(cards_of(hand)), lambda card: 0.0))

    assert thrown(31, HARD_TUNING.defence) == thrown(4, 0.0) == "9h"
    assert thrown(4, HARD_TUNING.defence) == "Jd"
