"""Plain sentences about a match, shared by the verifier's verdict and the hand histories."""

from __future__ import annotations

from collections.abc import Sequence

from domain import (
    DealerChosen,
    Discarded,
    Drew,
    Event,
    GameWon,
    HandDrawn,
    Knocked,
    LaidOff,
    MatchWon,
    Scored,
    UpcardPassed,
)
from domain.events import MatchEnded


def seat(number: int | None) -> str:
    return "nobody" if number is None else f"seat {number}"


def _points(number: int) -> str:
    return "1 point" if number == 1 else f"{number} points"


def listed(values: Sequence[int]) -> str:
    """Scores by seat or side: "112-40-0"."""
    return "-".join(str(value) for value in values)


def hand_ending(event: Scored | HandDrawn) -> str:
    """How a hand ended and what it scored, e.g. "seat 1 went gin: 37 points to seat 1"."""
    if isinstance(event, HandDrawn):
        return "drawn at the wall: no score"
    knocker, counts = seat(event.knocker), f"deadwood {event.knocker_deadwood} v "
    counts += str(event.defender_deadwood)
    doubled = f" (x{event.multiplier})" if event.multiplier != 1 else ""
    scores = f"{_points(event.points)} to {seat(event.winner)}{doubled}"
    if event.outcome == "big_gin":
        return f"{knocker} went big gin: {scores}"
    if event.outcome == "gin":
        return f"{knocker} went gin: {scores}"
    if event.outcome == "undercut":
        return f"{knocker} knocked and was undercut ({counts}): {scores}"
    if event.outcome == "tie":
        return f"{knocker} knocked, a tie ({counts}): no score"
    return f"{knocker} knocked ({counts}): {scores}"


def game_ending(event: GameWon) -> str:
    return (
        f"game {event.game} won by {seat(event.winner)}: totals {listed(event.totals)} with "
        f"bonuses, {_points(event.points)} to {seat(event.scored_by)}; "
        f"match {listed(event.match_scores)}"
    )


def match_ending(event: MatchWon) -> str:
    return (
        f"match won by {seat(event.winner)}: {listed(event.match_scores)}, "
        f"games {listed(event.games_won)}"
    )


ENDING_WORDS = {
    "resigned": "resigned by {seat}",
    "forfeited_on_time": "forfeited on time by {seat}",
    "no_show": "ended: {seat} never joined",
    "forfeited": "forfeited by {seat} (adjudicated)",
    "awarded": "awarded to {seat} (adjudicated)",
    "voided": "voided (adjudicated), no winner",
    "abandoned": "abandoned: nobody moved for too long, no winner",
}


def match_ended(event: MatchEnded, *, sides: bool = False) -> str:
    """How a match ended other than by play; with ``sides``, that of a match of tables told in
    a table's history (in table seats): its seat is the match's, its winner a side."""
    who = seat(event.seat) + (" of the match" if sides and event.seat is not None else "")
    how = ENDING_WORDS[event.reason].format(seat=who)
    won = f"side {event.winner}" if sides else seat(event.winner)
    winner = f", won by {won}" if event.winner is not None else ""
    note = f" ({event.note})" if event.note else ""
    scores, games = (listed(values) for values in (event.match_scores, event.games_won))
    return f"match {how}{winner}{note}: {scores}, games {games}"


def move(event: Event, upcard_offer: bool) -> str | None:
    """One action of a hand in words; None for events that are not a player's action."""
    if isinstance(event, UpcardPassed):
        return f"{seat(event.seat)} passes the upcard"
    if isinstance(event, Drew):
        if event.source == "stock":
            return f"{seat(event.seat)} draws {event.card} from the stock"
        taken = "takes the upcard" if upcard_offer else "takes from the discard pile"
        return f"{seat(event.seat)} {taken}, {event.card}"
    if isinstance(event, Discarded):
        return f"{seat(event.seat)} discards {event.card}"
    if isinstance(event, Knocked):
        return _knock(event)
    if isinstance(event, LaidOff):
        return f"{seat(event.seat)} lays off {event.card} on the knocker's meld {event.meld}"
    if isinstance(event, DealerChosen):
        return f"{seat(event.seat)} won the cut and chose {seat(event.dealer)} to deal"
    return None


def _knock(event: Knocked) -> str:
    melds = " | ".join(" ".join(meld) for meld in event.melds)
    dead = " ".join(event.deadwood) or "none"
    if event.big_gin:
        return f"{seat(event.seat)} goes big gin: {melds}"
    going = "goes gin" if event.gin else "knocks"
    return (
        f"{seat(event.seat)} {going} with {event.card} face down: {melds}; "
        f"deadwood {dead} ({event.deadwood_count})"
    )
