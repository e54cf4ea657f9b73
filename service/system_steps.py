"""The steps nobody at the table takes: the cut and every deal, each with its seed.

They run in the same append as the command that makes them due, so a client never waits on
the server to shuffle, and no half-finished transition is ever committed.
"""

from __future__ import annotations

from domain import Command, Cut, Deal, Event, MatchState, decide, evolve, legal_actions
from service.registry import MatchRecord
from service.seeds import derive_seed


def system_steps(
    state: MatchState, version: int, match: MatchRecord
) -> tuple[list[Event], MatchState]:
    """The events of every system step due after ``version``, and the state they lead to."""
    events: list[Event] = []
    while (command := _next_step(state, version + len(events), match)) is not None:
        for event in decide(state, command):
            state = evolve(state, event)
            events.append(event)
    return events, state


def _next_step(state: MatchState, version: int, match: MatchRecord) -> Command | None:
    due = legal_actions(state, None)
    if not due:
        return None
    step = due[0]
    # The cut waits for both seats, so an invited player's entropy is in it.
    if isinstance(step, Cut) and match.full:
        return Cut(seed=derive_seed(match.server_secret, match.entropy, "cut"))
    if isinstance(step, Deal):
        # Named by the version its Dealt event gets: unique in the match and known in advance.
        label = f"deal:{version + 1}"
        return Deal(seed=derive_seed(match.server_secret, match.entropy, label))
    return None
