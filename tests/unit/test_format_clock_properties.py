"""Random clocked three- and four-player matches in which seats also time out and resign: the
tables' clocks are stamped after every decision as the service stamps them, the seat on the
match's next deadline sometimes lets it pass, and now and then a seat resigns. Every match
ends; the events fold back into the same state and survive JSON; no view or event shows a
card a seat may not know; every ending names the winner the rules name."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta

import pytest

from domain.commands import Resign, TimeOut
from domain.events import DeadlineSet, MatchEnded
from domain.options import RuleOptions
from domain.tables import (
    FormatEvent,
    FormatMatchWon,
    FormatPhase,
    StartFormatMatch,
    TableEvent,
    TablesState,
    decide_tables,
    decode_tables_event,
    encode_tables_event,
    evolve_tables,
    fold_tables,
)
from domain.tables.commands import FormatCommand, StampClocks
from domain.tables.events import Players
from tests.unit.test_format_properties import (
    Known,
    check_tables,
    check_views,
    format_other_commands,
    learn,
    next_command,
)
from tests.unit.test_match_properties import MAX_STEPS

START = datetime(2026, 1, 1, tzinfo=UTC)


def conceded_to(state: TablesState, seat: int) -> int:
    """docs/rules.md "Resigning, clocks and forfeits", written out again."""
    if state.players == 4:
        return 1 - seat % 2
    others = [other for other in range(3) if other != seat]
    best = max(state.match_scores[o] for o in others)
    others = [o for o in others if state.match_scores[o] == best]
    best = max(state.hand_points[o] for o in others)
    return min(o for o in others if state.hand_points[o] == best)


def play(players: Players, rng: random.Random) -> tuple[TablesState, list[FormatEvent]]:
    options = RuleOptions(
        turn_seconds=rng.choice([5, 30]),
        bank_seconds=rng.choice([0, 20]),
        timeouts_to_forfeit=rng.choice([2, 4, 100]),
        game_target=rng.choice([10, 40]),
        match_target=rng.choice([0, 100]),
    )
    resign_chance = rng.choice([0.0, 0.002])
    state, events = TablesState(), []
    known: Known = {viewer: [set(), set()] for viewer in [*range(players), None]}
    others = format_other_commands(players, rng)
    now = START
    command: FormatCommand = StartFormatMatch(players=players, options=options)
    for _ in range(MAX_STEPS):
        produced = decide_tables(state, command)
        before = state
        for event in produced:
            state = evolve_tables(state, event)
        touched = sorted({e.table for e in produced if isinstance(e, TableEvent)})
        if touched and not isinstance(command, StampClocks) and state.ending is None:
            stamped = decide_tables(state, StampClocks(at=now, tables=touched))
            for event in stamped:
                state = evolve_tables(state, event)
            produced += stamped
        events += produced
        learn(known, produced, players)
        check_tables(state)
        check_views(state, known)
        ended = [e for e in produced if isinstance(e, MatchEnded)]
        if ended:
            assert ended[0].winner == conceded_to(before, ended[0].seat or 0)
        if state.phase is FormatPhase.MATCH_OVER:
            return state, events
        deadline = state.deadline if state.phase is FormatPhase.PLAY else None
        if state.phase is FormatPhase.PLAY and rng.random() < resign_chance:
            command = Resign(seat=rng.randrange(players))
        elif deadline is not None and deadline.due_at is not None and rng.random() < 0.3:
            assert deadline.seat is not None
            now = max(now, deadline.due_at) + timedelta(milliseconds=rng.randrange(3000))
            command = TimeOut(seat=deadline.seat, at=now)
        else:
            now += timedelta(seconds=rng.random() * options.turn_seconds * 1.5)
            command = next_command(state, rng, others)
    raise AssertionError("the match did not end")


@pytest.mark.slow
@pytest.mark.parametrize("players", [3, 4])
@pytest.mark.parametrize("seed", range(6))
def test_random_clocked_matches_with_timeouts_and_resignations_keep_every_rule(
    players: Players, seed: int
) -> None:
    state, events = play(players, random.Random(seed * 10 + players))

    assert state.phase is FormatPhase.MATCH_OVER
    ending = [e for e in events if not isinstance(e, DeadlineSet | TableEvent)][-1]
    assert isinstance(ending, MatchEnded | FormatMatchWon)
    assert fold_tables(events) == state
    assert [decode_tables_event(encode_tables_event(e)) for e in events] == events
    # Nobody is left on the clock: the service's timer has nothing more to wait for.
    assert state.deadline is None or state.deadline.due_at is None
