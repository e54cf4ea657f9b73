"""Every bot level against the field's reference opponents, on duplicate deals.

    .venv/bin/python -m bench.yardsticks [--hands N] [--seed S] [--levels L ...]
                                         [--references R ...]

The references (``service.bots.references``): ``eaai``, the EAAI-2021 challenge's simple
player; ``openspiel``, OpenSpiel's simple bot; ``rlcard``, RLCard's novice rule agent; and
``simple``, our own easiest level. Every
deal is played twice with the seats swapped (``bench.bots.duel``), so luck of the cards
cancels out within a pair and the 95% interval, taken over deal pairs, is narrow enough to
tell half a point per hand apart at 10,000 hands.

Columns, from the level's side: its net points per hand (its points less the reference's)
with a 95% interval; the share of decided hands it won; the share of hands drawn at the wall;
games to 100, chaining the hands in the order played (a game ends when either side's points
reach 100), won with a 95% interval; and the CPU milliseconds per decision, mean and 99th
percentile, of the level and of the reference (CPU time of this process, so other work on a
shared machine does not inflate them). Seeded: the same arguments give the same table.
"""

from __future__ import annotations

import argparse
import random
import statistics
from collections.abc import Sequence
from dataclasses import dataclass

from tqdm import tqdm

from bench.bots import Duel, duel, player
from bench.tables import print_table
from service.bots import DISTINCT_LEVELS, LEVELS, Bot, bot_for
from service.bots.references import REFERENCES, reference_for

GAME_TARGET = 100
# Our own easiest level is a yardstick too: the top level must beat it as widely.
OPPONENTS = (*REFERENCES, "simple")


def opponent(name: str, seed: int) -> Bot:
    return bot_for(name) if name == "simple" else reference_for(name, random.Random(seed))


@dataclass(frozen=True)
class Games:
    won: int
    played: int

    @property
    def share(self) -> float:
        return self.won / self.played if self.played else 0.0

    @property
    def half_width(self) -> float:
        return 1.96 * (self.share * (1 - self.share) / self.played) ** 0.5 if self.played else 0.0


def games_to_100(hand_nets: Sequence[int]) -> Games:
    """The games the first side won, each game the next hands until a side reaches 100."""
    won = played = 0
    mine = theirs = 0
    for net in hand_nets:
        mine += max(net, 0)
        theirs += max(-net, 0)
        if max(mine, theirs) >= GAME_TARGET:
            played += 1
            won += mine > theirs
            mine = theirs = 0
    return Games(won, played)


def net_per_hand(result: Duel) -> tuple[float, float]:
    """The first side's mean net points per hand and the half width of its 95% interval,
    over deal pairs (each pair is two hands)."""
    nets = result.deal_nets
    mean = statistics.fmean(nets) / 2
    half = 1.96 * statistics.stdev(nets) / len(nets) ** 0.5 / 2 if len(nets) > 1 else 0.0
    return mean, half


def milliseconds(times: list[float]) -> str:
    ordered = sorted(times)
    p99 = ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))]
    return f"{1000 * statistics.fmean(times):.2f} / {1000 * p99:.2f}"


def row(level: str, reference: str, result: Duel) -> list[str]:
    mine, theirs = result.sides
    mean, half = net_per_hand(result)
    games = games_to_100(result.hand_nets)
    decided = mine.won + theirs.won
    return [
        f"{level} vs {reference}",
        f"{result.hands}",
        f"{mean:+.2f} ± {half:.2f}",
        f"{100 * mine.won / max(decided, 1):.1f}%",
        f"{100 * result.draws / result.hands:.1f}%",
        f"{100 * games.share:.1f}% ± {100 * games.half_width:.1f} of {games.played}",
        milliseconds(mine.times),
        milliseconds(theirs.times),
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=10_000, help="hands per pairing (even)")
    parser.add_argument("--seed", type=int, default=2021)
    parser.add_argument("--levels", nargs="+", default=list(DISTINCT_LEVELS), choices=LEVELS)
    parser.add_argument("--references", nargs="+", default=list(OPPONENTS), choices=OPPONENTS)
    args = parser.parse_args()
    pairings = [(level, ref) for level in args.levels for ref in args.references]
    rows = []
    with tqdm(total=len(pairings) * (args.hands // 2 * 2), unit="hand") as progress:
        for level, reference in pairings:
            progress.set_description(f"{level} vs {reference}")
            result = duel(
                player(level, args.seed + 1),
                opponent(reference, args.seed + 2),
                args.hands,
                args.seed,
                on_hand=progress.update,
            )
            rows.append(row(level, reference, result))
            progress.write("  ".join(rows[-1]))  # kept should a long run be stopped early
    header = ["level vs reference", "hands", "net pts/hand (95%)", "won", "wall", "games to 100"]
    print_table([*header, "ms/decision mean / p99", "reference ms"], rows)
    print("\nwon: share of the hands that were not drawn at the wall; net and won are the level's.")


if __name__ == "__main__":
    main()
