"""Events of a three- or four-player match: its own facts, and the two-player hand's events
wrapped with the table they happened at.

A "side" is what keeps a score: a player in the three-player game, a team in the
four-player game (team 0: seats 0 and 2; team 1: seats 1 and 3). Lists named per side are
indexed that way.

Three two-player events are also the match's own: ``match_ended`` (the match ended other than
by play: ``winner``, ``match_scores`` and ``games_won`` are by side), ``deadline_set`` (the
match's next deadline, the earliest of its tables' turn clocks or the join deadline: ``seat``
is a match seat and ``banks_ms`` lists every seat's bank), so the store keeps a format match's
deadline as it keeps a two-player match's, and ``timed_out`` (a no-show, just before its
``match_ended``).
"""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec
from msgspec import Meta

from domain.events import DeadlineSet, Event, MatchEnded, TimedOut
from domain.options import RuleOptions
from domain.rules_versions import UNVERSIONED, RulesVersion
from domain.scoring import Settlement

Players = Literal[3, 4]


class _FormatEvent(msgspec.Struct, frozen=True, tag_field="type"):
    pass


class FormatMatchCreated(_FormatEvent, tag="format_match_created", frozen=True, omit_defaults=True):
    """``rules_version`` is left out when it is 1: a match created before versions were
    recorded has none and reads as 1, and its stored bytes are exactly those encoded now."""

    players: Players
    options: RuleOptions
    rules_version: Annotated[
        RulesVersion,
        Meta(
            description="The reading of the rules the match is played by (docs/rules.md, "
            '"Rules versions"). Absent: 1, a match created before versions were recorded.'
        ),
    ] = UNVERSIONED


class SeatsCut(_FormatEvent, tag="seats_cut", frozen=True):
    """Every seat cuts one card (``rounds``: one card per seat, by seat); a tie for the lowest
    rank cuts again, so only the last round decides. ``dealer`` cut the lowest card."""

    rounds: list[list[str]]
    dealer: int


class RoundStarted(_FormatEvent, tag="round_started", frozen=True):
    """A round begins: one hand at each table. ``tables`` lists each table's two match seats,
    by table seat: the first is dealt to first and offered the upcard first, the second plays
    the dealer's part. ``dealer_side`` deals: the seat sitting out in the three-player game,
    the team whose members deal at both tables in the four-player game."""

    round: int
    game: int
    hand: int
    dealer_side: int
    tables: list[list[int]]
    sitting_out: int | None


class TableEvent(_FormatEvent, tag="table_event", frozen=True, gc=False):
    """An event of the two-player hand at ``table``, whose table seats 0 and 1 are the match
    seats ``seats``; every seat field of ``event`` is a table seat."""

    table: int
    seats: list[int]
    event: Event


class RoundScored(_FormatEvent, tag="round_scored", frozen=True):
    """Every hand of the round is over. ``points``: what each side won in the round's hands
    (a hand ended at the wall counts zero); ``winner``: the side scoring ``net`` (the
    difference between two teams; a player's own hand points in the three-player game), None
    when nobody wins the round (under rules version 2 the three-player game's winner may score
    0). ``hand_points`` and ``hands_won`` are this game's, after the round."""

    round: int
    points: list[int]
    winner: int | None
    net: int
    hand_points: list[int]
    hands_won: list[int]


class FormatGameWon(_FormatEvent, tag="format_game_won", frozen=True):
    game: int
    winner: int
    hand_points: list[int]
    hands_won: list[int]
    game_bonus: int
    line_bonuses: list[int]
    settlements: list[Settlement]
    match_scores: list[int]


class FormatMatchWon(_FormatEvent, tag="format_match_won", frozen=True):
    winner: int
    match_scores: list[int]
    games_won: list[int]


FormatEvent = (
    FormatMatchCreated
    | SeatsCut
    | RoundStarted
    | TableEvent
    | RoundScored
    | FormatGameWon
    | FormatMatchWon
    | MatchEnded
    | DeadlineSet
    | TimedOut
)

# A match ends when it is won, or otherwise (a resignation, a forfeit on time).
FORMAT_MATCH_ENDINGS = (FormatMatchWon, MatchEnded)
FORMAT_MATCH_ENDING_TYPES = ("format_match_won", "match_ended")


def unwrapped(event: object) -> object:
    """The two-player event a table's event wraps; any other event as it is."""
    return event.event if isinstance(event, TableEvent) else event


_encoder = msgspec.json.Encoder()
_decoder = msgspec.json.Decoder(FormatEvent)


def encode_tables_event(event: FormatEvent) -> bytes:
    return _encoder.encode(event)


def decode_tables_event(data: bytes | str) -> FormatEvent:
    return _decoder.decode(data)
