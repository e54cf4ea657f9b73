"""Random legal play: hands per second, this engine against OpenSpiel's ``gin_rummy``.

    .venv/bin/python -m bench.engine [--hands N] [--seed S] [--profile]

Ours: ``legal_actions`` -> a uniformly random choice -> ``decide`` -> ``evolve`` for every
event, with a fresh seed for each deal, until N hands have ended (scored or drawn at the
wall); matches are started again as they end. OpenSpiel: ``pyspiel.load_game("gin_rummy")``,
a uniformly random choice over ``state.legal_actions()``, chance nodes sampled from
``chance_outcomes()``, N hands. Both run in this process, best of three rounds; the ratio is
ours / OpenSpiel's (>= 1.0: ours is at least as fast).
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import random
import time
from collections.abc import Callable

from domain.commands import ChooseDealer, Command, Cut, Deal, StartMatch
from domain.decide import decide
from domain.events import HandDrawn, Scored
from domain.evolve import evolve
from domain.legal import legal_actions
from domain.state import MatchState, Phase, new_match


def our_hands(hands: int, rng: random.Random) -> int:
    """Play ``hands`` hands at random; return the number of actions taken."""
    ended = actions = 0
    state = _new_match(rng)
    while ended < hands:
        if state.phase is Phase.MATCH_OVER:
            state = _new_match(rng)
        command: Command
        if state.phase is Phase.DEAL:
            command = Deal(seed=rng.randbytes(16).hex())
        else:
            command = rng.choice(legal_actions(state, state.turn))
            actions += 1
        for event in decide(state, command):
            state = evolve(state, event)
            if type(event) is Scored or type(event) is HandDrawn:
                ended += 1
    return actions


def _new_match(rng: random.Random) -> MatchState:
    state = new_match()
    for command in (StartMatch(), Cut(seed=rng.randbytes(16).hex())):
        for event in decide(state, command):
            state = evolve(state, event)
    assert state.turn is not None
    for event in decide(state, ChooseDealer(seat=state.turn, dealer=rng.randrange(2))):
        state = evolve(state, event)
    return state


def openspiel_hands(hands: int, rng: random.Random) -> int:
    # Imported here: bench.formats takes our loop as its reference without needing OpenSpiel.
    import pyspiel

    game = pyspiel.load_game("gin_rummy")
    actions = 0
    for _ in range(hands):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, weights = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(rng.choices(outcomes, weights)[0])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
                actions += 1
    return actions


def timed(play: Callable[[int, random.Random], int], hands: int, seed: int) -> tuple[float, int]:
    """Best of three rounds: (seconds, player actions per hand)."""
    best, actions = float("inf"), 0
    for round_ in range(3):
        start = time.perf_counter()
        actions = play(hands, random.Random(seed + round_))
        best = min(best, time.perf_counter() - start)
    return best, actions // hands


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=2000, help="hands per round")
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument("--profile", action="store_true", help="cProfile our engine instead")
    args = parser.parse_args()
    if args.profile:
        cProfile.runctx(
            "our_hands(args.hands, random.Random(args.seed))",
            globals(),
            locals(),
            "/tmp/engine.prof",
        )
        pstats.Stats("/tmp/engine.prof").sort_stats("tottime").print_stats(25)
        return
    ours, our_actions = timed(our_hands, args.hands, args.seed)
    theirs, their_actions = timed(openspiel_hands, args.hands, args.seed)
    print(f"{'engine':<22} {'hands':>7} {'actions/hand':>13} {'seconds':>9} {'hands/s':>9}")
    print("-" * 64)
    for name, seconds, per_hand in (
        ("ours (domain)", ours, our_actions),
        ("OpenSpiel gin_rummy", theirs, their_actions),
    ):
        print(
            f"{name:<22} {args.hands:>7} {per_hand:>13} {seconds:>9.3f} "
            f"{args.hands / seconds:>9,.0f}"
        )
    print(f"\nratio ours / OpenSpiel: {theirs / ours:.2f}")


if __name__ == "__main__":
    main()
