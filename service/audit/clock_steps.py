"""The clock's steps a record must show, and only those.

The service makes a clock step in the same append as each move (``service.matches.
system_steps``): once a decision and the cut or deals it made due are decided, the match's
rules say which clocks restart (``MatchRules.clock_step``). Each stamp is checked as any event
is, decided again at its recorded time; this also requires it where it is due, so that a record
with a stamp taken out (the deadline it set, the bank it charged) is refused rather than read
as a clock that never ran, and at three and four seats it requires the stamp of every table the
move touched.

A stamp no move made due is the service's only before anything happened after the match's
creation (its join deadline, a round's start moved) and, at a table of three or four, right
before a decision that ends the round (the seat's time charged before its table goes). Anywhere
else it is refused: inserted with an earlier time, it would give a seat an earlier deadline and
so a timeout it never had.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any, Generic, TypeVar

from domain.errors import DomainError
from domain.events import CardsCut, DeadlineSet, Dealt
from domain.match_rules import MatchRules
from domain.tables import RoundScored, SeatsCut, unwrapped
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
        self._created = False
        self._moved = False  # something has happened since the match was created
        # A stamp no move made due, after the first move: where it is, and whether its own
        # group was decided (the next must end a round).
        self._unasked: str | None = None
        self._unasked_decided = False

    def before(self, state: S, events: Sequence[tuple[int, E]], index: int, where: str) -> Any:
        """The command the group at ``events[index]`` must be decided by, when it is the clock
        step of the append before it (None: the group's own command). Raises a
        ``Discrepancy`` where that step is missing and the next move comes first. (A record
        may end mid-append: that of a match in play stops before the hand in play.)"""
        version, event = events[index]
        if _system_step(event):
            return None  # a cut or a deal, made due in the same append
        made, self._made = self._made, []
        stamp = _stamp(event)
        at = _ANY_TIME if stamp is None else stamp.at
        command = self._rules.clock_step(state, made, at, ()) if made else None
        stamped = self._decided(state, command)
        if stamped and stamp is None:
            raise Discrepancy(
                f"{where}version {version}: {name(unwrapped(event))} comes where the deadline_set "
                "of the move before it is due (a clocked match records one after every move)"
            )
        if stamp is not None and not stamped and self._moved:
            self._unasked = f"{where}version {version}: a deadline_set no move made due"
        return command if stamped else None

    def decided(self, group: Sequence[E]) -> None:
        """``group`` (decided by the rules) was recorded: a clock step closes an append."""
        first = group[0]
        if self._unasked is not None:
            if not self._unasked_decided:
                self._unasked_decided = True
            elif not any(isinstance(event, RoundScored) for event in group):
                raise Discrepancy(self._unasked)
            else:
                self._unasked, self._unasked_decided = None, False
        if _stamp(first) is not None:
            return
        self._made += group
        if self._created and not _system_step(first):
            self._moved = True  # a seat's join or decision, or the server's for it
        self._created = True

    def _decided(self, state: S, command: Any) -> bool:
        """Whether ``command``, a clock step, stamps anything."""
        if command is None:
            return False
        try:
            return bool(self._rules.decide(state, command))
        except DomainError:
            return False


def _stamp(event: Any) -> DeadlineSet | None:
    inner = unwrapped(event)
    return inner if isinstance(inner, DeadlineSet) else None


def _system_step(event: Any) -> bool:
    return isinstance(unwrapped(event), CardsCut | SeatsCut | Dealt)
