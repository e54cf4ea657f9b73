"""Random legal play in three- and four-player matches: hands per second per table-hand,
against the two-player engine in the same run.

    .venv/bin/python -m bench.formats [--hands N] [--rounds R] [--seed S]

Each format plays N table-hands per round, uniformly at random (the seat whose turn it is, the
first of the two when both tables of the four-player game wait for a move ->
``tables_legal_actions`` -> a random action -> ``decide_tables`` -> ``evolve_tables`` for
every event), with a fresh seed for each deal; matches start again as they end. A round's
table-hands are counted when it is scored, with one type test per event as the reference
does. The reference is the two-player engine's loop of ``bench.engine`` (``legal_actions`` ->
``decide`` -> ``evolve``). Rounds are interleaved, the formats' order rotating each round, and
the table shows each format's median round; the ratio is the format's hands per second over
the two-player figure (1.0: as fast per table-hand).
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable

from bench.engine import our_hands
from bench.tables import print_table
from domain.tables import (
    CutSeats,
    DealTable,
    FormatPhase,
    RoundScored,
    StartFormatMatch,
    TablesState,
    decide_tables,
    evolve_tables,
    tables_legal_actions,
)
from domain.tables.commands import FormatCommand
from domain.tables.events import Players


def format_hands(players: Players) -> Callable[[int, random.Random], None]:
    def play(hands: int, rng: random.Random) -> None:
        ended, tables = 0, 2 if players == 4 else 1
        state = _new_format_match(players)
        while ended < hands:
            if state.phase is FormatPhase.MATCH_OVER:
                state = _new_format_match(players)
            command: FormatCommand
            # As many phase tests before a move as ``bench.engine``'s loop makes.
            if state.phase is FormatPhase.PLAY:
                # The first seat expected to act, as ``bench.engine`` takes the one there is: the
                # two tables of the four-player game play independently, in any order.
                command = rng.choice(tables_legal_actions(state, state.turns[0]))
            elif state.phase is FormatPhase.CUT:
                command = CutSeats(seed=rng.randbytes(16).hex())
            else:
                command = DealTable(seed=rng.randbytes(16).hex())
            for event in decide_tables(state, command):
                state = evolve_tables(state, event)
                if type(event) is RoundScored:  # every table's hand of the round has ended
                    ended += tables

    return play


def _new_format_match(players: Players) -> TablesState:
    state = TablesState()
    for event in decide_tables(state, StartFormatMatch(players=players)):
        state = evolve_tables(state, event)
    return state


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=1000, help="table-hands per round")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    contenders: list[tuple[str, Callable[[int, random.Random], object]]] = [
        ("two players (reference)", our_hands),
        ("three players", format_hands(3)),
        ("four players", format_hands(4)),
    ]
    seconds: dict[str, list[float]] = {name: [] for name, _ in contenders}
    for round_ in range(args.rounds):
        shift = round_ % len(contenders)
        for name, play in contenders[shift:] + contenders[:shift]:
            start = time.perf_counter()
            play(args.hands, random.Random(args.seed + round_))
            seconds[name].append(time.perf_counter() - start)
    reference = args.hands / statistics.median(seconds[contenders[0][0]])
    rows = []
    for name, _ in contenders:
        rate = args.hands / statistics.median(seconds[name])
        low, high = (args.hands / s for s in (max(seconds[name]), min(seconds[name])))
        rows.append([name, f"{rate:,.0f}", f"{low:,.0f}-{high:,.0f}", f"{rate / reference:.2f}"])
    print(f"{args.hands} table-hands per round, {args.rounds} rounds interleaved\n")
    print_table(["format", "hands/s (median)", "range", "vs two players"], rows)


if __name__ == "__main__":
    main()
