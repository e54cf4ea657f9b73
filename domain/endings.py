"""Deciding the endings that are not play: a seat resigns, an operator adjudicates, or the
match is abandoned."""

from __future__ import annotations

from domain.commands import Abandon, Adjudicate, Resign, Verdict
from domain.errors import IllegalMove, InvalidCommand, MatchAlreadyEnded
from domain.events import EndReason, Event, MatchEnded
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


def resign(state: MatchState, command: Resign) -> list[Event]:
    seat = checked_seat(command.seat)
    _require_running(state, "resign")
    return [ended(state, "resigned", seat, winner=1 - seat)]


def abandon(state: MatchState, command: Abandon) -> list[Event]:
    """Nobody moved for too long: the match ends, nobody wins, the scores stand."""
    _require_running(state, "abandon")
    return [ended(state, "abandoned", None, winner=None)]


def checked_verdict(command: Adjudicate) -> EndReason:
    """The ending an adjudication gives, once its verdict and reason are checked (a void names
    no seat); at every table size."""
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


def adjudicate(state: MatchState, command: Adjudicate) -> list[Event]:
    reason = checked_verdict(command)
    if command.verdict == "void":
        _require_running(state, "adjudicate")
        return [ended(state, "voided", None, winner=None, note=command.reason)]
    seat = checked_seat(command.seat)
    _require_running(state, "adjudicate")
    winner = 1 - seat if command.verdict == "forfeit" else seat
    return [ended(state, reason, seat, winner=winner, note=command.reason)]


def ended(
    state: MatchState,
    reason: EndReason,
    seat: int | None,
    *,
    winner: int | None,
    note: str | None = None,
) -> MatchEnded:
    """The match ends now for ``reason``; the scores stand as they are."""
    score = state.score
    return MatchEnded(
        reason=reason,
        seat=seat,
        winner=winner,
        note=note,
        match_scores=list(score.match_scores),
        games_won=list(score.games_won),
    )


def _require_running(state: MatchState, doing: str) -> None:
    if state.phase is Phase.MATCH_OVER:
        raise MatchAlreadyEnded(f"the match is over: you cannot {doing} it any more")
    if state.phase is Phase.START:
        raise IllegalMove(f"you cannot {doing} a match that has not been created")
