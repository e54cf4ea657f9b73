"""Redacting a three- or four-player match's events needs only the events after the first one
asked for: a live stream and ``/events?after=N`` read just those, and must answer exactly what
redacting the whole stream and dropping the first N would."""

from __future__ import annotations

import random

import pytest

from domain import RuleOptions
from domain.tables import Players, redact_tables_events
from tests.unit.test_format_properties import play_format_match


@pytest.mark.parametrize("players", [3, 4])
def test_redacting_the_tail_equals_redacting_everything_then_dropping_the_head(
    players: Players,
) -> None:
    rng = random.Random(players)
    _, events, _ = play_format_match(players, RuleOptions(game_target=40, match_target=0), rng)
    numbered = list(enumerate(events, 1))
    for _ in range(200):
        now = rng.randint(1, len(numbered))  # the present: a point of the match
        after = rng.randint(0, now)
        seen = numbered[:now]
        for seat in [*range(players), None]:
            whole = [e for e in redact_tables_events(seen, seat) if e[0] > after]
            assert redact_tables_events(seen[after:], seat) == whole
