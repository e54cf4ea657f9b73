"""Bot levels against each other: hands won and points per hand over seeded deals.

    .venv/bin/python -m bench.bots [--hands N] [--seed S]

Each hand is the first hand of a new match under the default options (Oklahoma off), dealt
from a seeded deck with seat 0 dealing. Every deal is played twice with the bots in swapped
seats, so both bots get the same cards and seats alternate. Points are the ``Scored``
points of the hand's winner; a hand ended at the wall is a draw. "Net" is the first bot's
points per hand less the second's, with a 95% interval over deals. The bots play through
``legal_actions`` -> ``choose`` -> ``decide`` -> ``evolve`` like any seat; the reference row
is two random players, and "x ref" is a matchup's speed as a fraction of it. Times are the
CPU time of this process, so other work on a shared machine does not inflate them.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from domain.commands import ChooseDealer, Command, Cut, Deal, StartMatch
from domain.decide import decide
from domain.events import HandDrawn, Scored
from domain.evolve import evolve
from domain.state import MatchState, new_match
from domain.views import view
from service.bots import Bot, bot_for
from service.bots.random_bot import RandomBot


@dataclass
class Side:
    won: int = 0
    points: int = 0
    times: list[float] = field(default_factory=list)  # CPU seconds of each decision

    @property
    def moves(self) -> int:
        return len(self.times)

    @property
    def seconds(self) -> float:
        return sum(self.times)

    @property
    def slowest(self) -> float:
        return max(self.times, default=0.0)


@dataclass
class Duel:
    hands: int = 0
    draws: int = 0
    seconds: float = 0.0
    sides: tuple[Side, Side] = field(default_factory=lambda: (Side(), Side()))
    deal_nets: list[int] = field(default_factory=list)  # the first bot's net points per deal
    deal_net_wins: list[int] = field(default_factory=list)  # and its net hands won per deal
    hand_nets: list[int] = field(default_factory=list)  # the first bot's net points, by hand


def first_hand(deal_seed: str) -> MatchState:
    """A new match at its first hand, seat 0 dealing."""
    state = applied(applied(new_match(), StartMatch()), Cut(seed="00"))
    assert state.turn is not None
    state = applied(state, ChooseDealer(seat=state.turn, dealer=0))
    return applied(state, Deal(seed=deal_seed))


def applied(state: MatchState, command: Command) -> MatchState:
    for event in decide(state, command):
        state = evolve(state, event)
    return state


def play_hand(seated: tuple[Bot, Bot], sides: tuple[Side, Side], deal_seed: str) -> Scored | None:
    """Play one hand; ``sides`` are the bots' tallies in seat order. None: a draw."""
    state = first_hand(deal_seed)
    while True:
        seat = state.turn
        assert seat is not None
        seen = view(state, seat)
        start = time.process_time()
        command = seated[seat].choose(seen)
        sides[seat].times.append(time.process_time() - start)
        for event in decide(state, command):
            state = evolve(state, event)
            if isinstance(event, Scored):
                return event
            if isinstance(event, HandDrawn):
                return None


def duel(
    first: Bot, second: Bot, hands: int, seed: int, on_hand: Callable[[], object] = lambda: None
) -> Duel:
    """``on_hand`` is called after every hand (a progress bar's update)."""
    result = Duel()
    rng = random.Random(seed)
    start = time.process_time()
    for _ in range(hands // 2):
        deal_seed = rng.randbytes(16).hex()
        net = net_wins = 0
        for seated, sides in (
            ((first, second), result.sides),
            ((second, first), (result.sides[1], result.sides[0])),
        ):
            scored = play_hand(seated, sides, deal_seed)
            result.hands += 1
            on_hand()
            if scored is None or scored.winner is None:
                result.draws += 1
                result.hand_nets.append(0)
                continue
            winner = sides[scored.winner]
            winner.won += 1
            winner.points += scored.points
            first_won = winner is result.sides[0]
            result.hand_nets.append(scored.points if first_won else -scored.points)
            net += result.hand_nets[-1]
            net_wins += 1 if first_won else -1
        result.deal_nets.append(net)
        result.deal_net_wins.append(net_wins)
    result.seconds = time.process_time() - start
    return result


def player(level: str, seed: int) -> Bot:
    # A random player drawing from one seeded stream is reproducible and cheaper than
    # seeding from every view.
    return RandomBot(random.Random(seed)) if level == "random" else bot_for(level)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=1000, help="hands per matchup (even)")
    parser.add_argument("--seed", type=int, default=2024)
    args = parser.parse_args()
    matchups = [("random", "random"), ("strong", "simple"), ("strong", "random")]
    matchups.append(("simple", "random"))
    results = [
        (a, b, duel(player(a, args.seed + 1), player(b, args.seed + 2), args.hands, args.seed))
        for a, b in matchups
    ]
    reference = results[0][2].hands / results[0][2].seconds
    print(
        f"{'first vs second':<18} {'hands':>6} {'won 1st':>8} {'won 2nd':>8} {'draws':>6} "
        f"{'win% 1st':>9} {'pts/h 1st':>10} {'pts/h 2nd':>10} {'net/h 95%':>14} "
        f"{'hands/s':>8} {'x ref':>6}"
    )
    print("-" * 110)
    for a, b, result in results:
        one, two = result.sides
        decided = one.won + two.won
        nets = result.deal_nets
        half = 1.96 * statistics.stdev(nets) / len(nets) ** 0.5 / 2 if len(nets) > 1 else 0.0
        rate = result.hands / result.seconds
        print(
            f"{a + ' vs ' + b:<18} {result.hands:>6} {one.won:>8} {two.won:>8} "
            f"{result.draws:>6} {100 * one.won / max(decided, 1):>8.1f}% "
            f"{one.points / result.hands:>10.2f} {two.points / result.hands:>10.2f} "
            f"{(one.points - two.points) / result.hands:>+7.2f} ±{half:<5.2f} "
            f"{rate:>8.1f} {rate / reference:>6.3f}"
        )
    print("\nwin% counts hands that were not drawn.")
    print(f"\n{'bot':<8} {'moves':>8} {'ms/move':>8} {'max ms':>7}")
    for level in ("random", "simple", "strong"):
        sides = [
            s for a, b, r in results for s, lv in zip(r.sides, (a, b), strict=True) if lv == level
        ]
        moves = sum(s.moves for s in sides)
        seconds = sum(s.seconds for s in sides)
        slowest = max(s.slowest for s in sides)
        print(f"{level:<8} {moves:>8} {1000 * seconds / moves:>8.3f} {1000 * slowest:>7.2f}")


if __name__ == "__main__":
    main()
