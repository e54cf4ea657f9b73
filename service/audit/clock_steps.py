"""The clock's step a record must show after every append of a clocked match.

The service makes it in the same append as the move (``service.matches.system_steps``): once a
decision and the cut or deals it made due are decided, the match's rules say which clocks
restart (``MatchRules.clock_step``). Each stamp is checked as any event is, decided again at
its recorded time; this also requires it where it is due, so that a record with a stamp taken
out (the deadline it set, the bank it charged) is refused rather than read as a clock that
never ran, and at three and four seats it requires the stamp of every table the move touched.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any, Generic, TypeVar

from domain.errors import DomainError
from domain.events import CardsCut, DeadlineSet, Dealt
from domain.match_rules import MatchRules
from domain.tables import SeatsCut, TableEvent
from service.audit.event_diff import Discrepancy, name

S = TypeVar("S")
E = TypeVar("E")

# Whether a clock step stamps anything does not depend on when: it is asked at any time.
_ANY_TIME = datetime(2000, 1, 1, tzinfo=UTC)


class ClockSteps(Generic[S, E]):
    """Follows a record's decisions, a group of events at a time, in the verifier's loop."""

    def __init__(self, rules: MatchRules[S, E]) -> None:
        self._rules = rules
        self._made: list[E] = []  # the append so far, since the last clock step

    def before(self, state: S, events: Sequence[tuple[int, E]], index: int, where: str) -> Any:
        """The command the group at ``events[index]`` must be decided by, when it is the clock
        step of the append before it (None: the group's own command). Raises a
        ``Discrepancy`` where that step is missing and the next move comes first. (A record
        may end mid-append: that of a match in play stops before the hand in play.)"""
        event = events[index][1]
        if _system_step(event):
            return None  # a cut or a deal, made due in the same append
        made, self._made = self._made, []
        stamp = _stamp(event)
        at = _ANY_TIME if stamp is None else stamp.at
        command = self._rules.clock_step(state, made, at, ()) if made else None
        if command is None:
            return None
        try:
            stamped = self._rules.decide(state, command)
        except DomainError:
            return None
        if not stamped:
            return None  # nothing to stamp: a stamp recorded here is a command's own
        if stamp is not None:
            return command
        raise Discrepancy(
            f"{where}version {events[index][0]}: {name(_inner(event))} comes where the "
            "deadline_set of the move before it is due (a clocked match records one after "
            "every move)"
        )

    def decided(self, group: Sequence[E]) -> None:
        """``group`` (decided by the rules) was recorded: a clock step closes an append."""
        if _stamp(group[0]) is None:
            self._made += group


def _inner(event: Any) -> Any:
    return event.event if isinstance(event, TableEvent) else event


def _stamp(event: Any) -> DeadlineSet | None:
    inner = _inner(event)
    return inner if isinstance(inner, DeadlineSet) else None


def _system_step(event: Any) -> bool:
    return isinstance(_inner(event), CardsCut | SeatsCut | Dealt)
