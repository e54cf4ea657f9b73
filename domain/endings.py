"""Deciding the endings that are not play, at every table size: a seat resigns, forfeits on
time or never joins, an operator adjudicates, or the match is abandoned. Either way the match
ends at once, a hand in progress is not scored, and the scores stand as they are.

What a table size changes is the match's ``Standing``: its seats, the side each seat plays for
and the side that wins when a seat gives the match up (the other player at two seats; at three
and four, ``domain.tables.endings``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import NamedTuple

from domain.commands import Adjudicate, Resign, Verdict
from domain.errors import IllegalMove, InvalidCommand, MatchAlreadyEnded
from domain.events import EndReason, MatchEnded
from domain.guards import checked_seat
from domain.state import MatchState, Phase

_VERDICTS: dict[str, EndReason] = {"forfeit": "forfeited", "award": "awarded", "void": "voided"}
# The verdict a recorded ending was given by (what a verifier decides again).
VERDICT_OF: dict[str, Verdict] = {
    "forfeited": "forfeit",
    "awarded": "award",
    "voided": "void",
}
MAX_REASON = 500


class Standing(NamedTuple):
    """What an ending reads of a match: whether it has started and is not over, the scores
    that stand (by side), a seat checked to be one of the match's, the side a seat plays for
    and the side that wins when it gives the match up."""

    started: bool
    over: bool
    match_scores: Sequence[int]
    games_won: Sequence[int]
    checked_seat: Callable[[object], int]
    side_of: Callable[[int], int]
    conceded_to: Callable[[int], int]


def two_seat_standing(state: MatchState) -> Standing:
    return Standing(
        started=state.phase is not Phase.START,
        over=state.phase is Phase.MATCH_OVER,
        match_scores=state.match_scores,
        games_won=state.games_won,
        checked_seat=checked_seat,
        side_of=lambda seat: seat,
        conceded_to=lambda seat: 1 - seat,
    )


def resign(standing: Standing, command: Resign) -> MatchEnded:
    seat = standing.checked_seat(command.seat)
    _require_running(standing, "resign")
    return conceded(standing, "resigned", seat)


def abandon(standing: Standing) -> MatchEnded:
    """Nobody moved for too long: the match ends, nobody wins, the scores stand."""
    _require_running(standing, "abandon")
    return ended(standing, "abandoned", None, winner=None)


def checked_verdict(command: Adjudicate) -> EndReason:
    """The ending an adjudication gives, once its verdict and reason are checked (a void names
    no seat)."""
    reason = _VERDICTS.get(command.verdict)
    if reason is None:
        raise InvalidCommand('verdict must be "forfeit", "award" or "void"')
    if not isinstance(command.reason, str) or not command.reason.strip():
        raise InvalidCommand("an adjudication needs a reason")
    if len(command.reason) > MAX_REASON:
        raise InvalidCommand(f"the reason is at most {MAX_REASON} characters")
    if command.verdict == "void" and command.seat is not None:
        raise InvalidCommand("a void names no seat")
    return reason


def adjudicate(standing: Standing, command: Adjudicate) -> MatchEnded:
    """An operator's verdict: a forfeit ends the match as the seat's resignation would, an
    award gives it to the seat's side, a void to nobody."""
    reason = checked_verdict(command)
    if command.verdict == "void":
        _require_running(standing, "adjudicate")
        return ended(standing, "voided", None, winner=None, note=command.reason)
    seat = standing.checked_seat(command.seat)
    _require_running(standing, "adjudicate")
    if command.verdict == "award":
        return ended(standing, reason, seat, winner=standing.side_of(seat), note=command.reason)
    return conceded(standing, reason, seat, note=command.reason)


def conceded(
    standing: Standing, reason: EndReason, seat: int, *, note: str | None = None
) -> MatchEnded:
    """``seat`` gives the match up for ``reason``: the side it concedes to wins."""
    return ended(standing, reason, seat, winner=standing.conceded_to(seat), note=note)


def ended(
    standing: Standing,
    reason: EndReason,
    seat: int | None,
    *,
    winner: int | None,
    note: str | None = None,
) -> MatchEnded:
    """The match ends now for ``reason``; the scores stand as they are."""
    return MatchEnded(
        reason=reason,
        seat=seat,
        winner=winner,
        note=note,
        match_scores=list(standing.match_scores),
        games_won=list(standing.games_won),
    )


def _require_running(standing: Standing, doing: str) -> None:
    if standing.over:
        raise MatchAlreadyEnded(f"the match is over: you cannot {doing} it any more")
    if not standing.started:
        raise IllegalMove(f"you cannot {doing} a match that has not been created")
