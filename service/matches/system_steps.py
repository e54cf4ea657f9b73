"""The steps nobody at the table takes: the cut and every deal, each with its seed, then the
clock's step.

They run in the same append as the command that makes them due, so a client never waits on
the server to shuffle, and no half-finished transition is ever committed. Each seed comes from
the match's committed chain of server seeds and the seats' entropy (``service.fairness.seeds``).
What is due, and what the clocks do, the match's rules say (``domain.match_rules``).
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from domain.match_rules import MatchRules, rules_for
from service.fairness.log import cut_seed, deal_seed
from service.fairness.seeds import CHAIN_LINKS
from service.ports.match_registry import RegisteredMatch


def system_steps(
    state: Any,
    match: RegisteredMatch,
    *,
    links: int = CHAIN_LINKS,
    now: datetime | None = None,
    made: Sequence[Any] = (),
) -> tuple[list[Any], Any]:
    """The events of every system step due at ``state``, and the state they lead to (each
    event folded once); ``links`` is the length of the match's seed chains. ``now``, the time
    ``made`` (the events that led here) was received, restarts the match's turn clocks."""
    rules: MatchRules[Any, Any] = rules_for(len(match.seats))
    events: list[Any] = []
    while (command := _next_step(rules, state, match, links)) is not None:
        step = rules.decide(state, command)
        state = rules.fold(step, state)
        events += step
    if now is not None:
        clock = rules.clock_step(state, [*made, *events], now, match.empty_seats)
        if clock is not None:
            step = rules.decide(state, clock)
            state = rules.fold(step, state)
            events += step
    return events, state


def _next_step(
    rules: MatchRules[Any, Any], state: Any, match: RegisteredMatch, links: int
) -> Any | None:
    due = rules.system_step(state)
    # The cut waits for every seat, so every invited player's entropy is in it.
    if due == "cut" and match.full:
        return rules.cut(cut_seed(match, links))
    if due == "deal":
        return rules.deal(deal_seed(match, state.deals + 1, links))
    return None
