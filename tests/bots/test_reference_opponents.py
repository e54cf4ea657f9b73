"""The reference opponents the benchmark measures the levels against play legally and the
way their descriptions say."""

from __future__ import annotations

import random

import pytest

from domain.commands import Discard, PassUpcard, TakeUpcard
from domain.views import view
from service.bots import bot_for
from service.bots.references import REFERENCES, reference_for
from service.bots.references.eaai_simple import EaaiSimple
from tests.unit.test_bots import ONE_GAME, opening, play_match


@pytest.mark.parametrize("name", REFERENCES)
def test_a_reference_opponent_plays_a_whole_game_legally(name: str) -> None:
    for seat in (0, 1):
        bots = [bot_for("simple"), bot_for("simple")]
        bots[seat] = reference_for(name, random.Random(seat))
        state = play_match((bots[0], bots[1]), seat, ONE_GAME)
        assert state.winner in (0, 1)


def test_an_unknown_reference_is_refused_with_the_references_named() -> None:
    with pytest.raises(ValueError, match="eaai"):
        reference_for("expert", random.Random(0))


def test_eaai_takes_a_face_up_card_that_makes_any_meld_with_its_hand() -> None:
    # 2c 3c 4c 7d 8d 9h Th Qh Kd Ks: 5c extends the run, Jh fills Th-Qh, Jc makes nothing.
    for upcard, take in (("5c", True), ("Jh", True), ("Jc", False)):
        move = EaaiSimple(random.Random(0)).choose(view(opening(upcard).state, 1))
        assert move == (TakeUpcard(seat=1) if take else PassUpcard(seat=1))


def test_eaai_never_throws_the_same_card_twice_after_the_same_draw() -> None:
    """After taking Kc the hand leaves as little deadwood without Th as without Qh: having
    thrown one after that draw, it throws the other when the same draw comes again."""
    table = opening("Kc")
    offered = view(table.state, 1)
    table.take_upcard(1)
    to_discard = view(table.state, 1)
    for seed in range(6):
        bot = EaaiSimple(random.Random(seed))
        thrown = set()
        for _ in range(2):
            assert bot.choose(offered) == TakeUpcard(seat=1)
            move = bot.choose(to_discard)
            assert isinstance(move, Discard)
            thrown.add(move.card)
        assert thrown == {"Th", "Qh"}


def test_openspiel_throws_the_highest_deadwood_card_of_its_best_melds() -> None:
    table = opening("Kc")
    table.take_upcard(1)  # melds 2c 3c 4c and Kc Kd Ks; deadwood 7d 8d 9h Th Qh
    assert reference_for("openspiel", random.Random(0)).choose(view(table.state, 1)) == Discard(
        seat=1, card="Qh"
    )
