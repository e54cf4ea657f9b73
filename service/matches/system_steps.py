"""The steps nobody at the table takes: the cut and every deal, each with its seed.

They run in the same append as the command that makes them due, so a client never waits on
the server to shuffle, and no half-finished transition is ever committed. Each seed comes from
the match's committed chain of server seeds and both seats' entropy (``service.fairness.seeds``).
"""

from __future__ import annotations

from datetime import datetime

from domain import Command, Cut, Deal, Event, MatchState, decide, fold, legal_actions
from domain.commands import AwaitJoin, StampTime
from domain.state import Phase
from service.fairness.log import cut_seed, deal_seed
from service.fairness.seeds import CHAIN_LINKS
from service.ports.match_registry import RegisteredMatch


def system_steps(
    state: MatchState,
    match: RegisteredMatch,
    *,
    links: int = CHAIN_LINKS,
    now: datetime | None = None,
) -> tuple[list[Event], MatchState]:
    """The events of every system step due at ``state``, and the state they lead to (each
    event folded once); ``links`` is the length of the match's seed chains. ``now``, the time
    the decision that led here was received, restarts a match's turn clock."""
    events: list[Event] = []
    while (command := _next_step(state, match, links)) is not None:
        step = decide(state, command)
        state = fold(step, state)
        events += step
    if now is not None and (clock := _clock_step(state, match, now)) is not None:
        step = decide(state, clock)
        state = fold(step, state)
        events += step
    return events, state


def _clock_step(state: MatchState, match: RegisteredMatch, now: datetime) -> Command | None:
    """The clock's step at ``now``: a join deadline for an invited seat not yet in, or the
    turn clock restarted (which also clears a join deadline once the players are in)."""
    options = state.options
    if not (options.turn_seconds or options.join_seconds or state.clock is not None):
        return None
    waiting = [s.seat for s in match.seats if s.token_hash is None and s.bot is None]
    if state.phase is Phase.CUT and waiting:
        if options.join_seconds and state.clock is None:
            return AwaitJoin(seat=waiting[0], at=now)
        return None
    if options.turn_seconds or state.clock is not None:
        return StampTime(at=now)
    return None


def _next_step(state: MatchState, match: RegisteredMatch, links: int) -> Command | None:
    due = legal_actions(state, None)
    if not due:
        return None
    step = due[0]
    # The cut waits for both seats, so an invited player's entropy is in it.
    if isinstance(step, Cut) and match.full:
        return Cut(seed=cut_seed(match, links))
    if isinstance(step, Deal):
        return Deal(seed=deal_seed(match, state.deals + 1, links))
    return None
