"""Events: facts in the past tense, the only input of ``evolve``.

An event records what happened, never how to recompute it: ``Dealt`` carries the dealt cards
and the stock order, so replay never shuffles. Cards are written in notation; lists indexed
by seat hold one entry per seat. ``schema_version`` is bumped when a type's fields change.
"""

from __future__ import annotations

from datetime import datetime
from typing import ClassVar, Literal

import msgspec

from domain.options import RuleOptions

Outcome = Literal["knock", "undercut", "gin", "big_gin", "tie"]
DrawSource = Literal["stock", "discard"]
# Why a match ended other than by play ("played_out", a ``MatchWon``).
EndReason = Literal[
    "resigned", "forfeited_on_time", "no_show", "forfeited", "awarded", "voided", "abandoned"
]
ClockKind = Literal["turn", "join"]


class _Event(msgspec.Struct, frozen=True, tag_field="type"):
    schema_version: ClassVar[int] = 1


class MatchCreated(_Event, tag="match_created", frozen=True):
    options: RuleOptions


class CardsCut(_Event, tag="cards_cut", frozen=True):
    """Each pair is [seat 0's card, seat 1's card]; ties cut again, so only the last differs."""

    pairs: list[list[str]]
    winner: int


class DealerChosen(_Event, tag="dealer_chosen", frozen=True):
    seat: int
    dealer: int


class Dealt(_Event, tag="dealt", frozen=True):
    """A hand begins. ``stock`` is in draw order; ``knock_limit`` and ``multiplier`` hold for
    this hand (they differ from the options only with Oklahoma)."""

    game: int
    hand: int
    dealer: int
    hands: list[list[str]]
    upcard: str
    stock: list[str]
    knock_limit: int
    multiplier: int


class UpcardPassed(_Event, tag="upcard_passed", frozen=True):
    seat: int


class Drew(_Event, tag="drew", frozen=True):
    """``card`` is None only in a view of the opponent's draw from the stock."""

    seat: int
    source: DrawSource
    card: str | None


class Discarded(_Event, tag="discarded", frozen=True):
    seat: int
    card: str


class Knocked(_Event, tag="knocked", frozen=True):
    """The knocker shows ``melds`` and ``deadwood``. ``card`` is the face-down knock card (None
    for big gin, which has none, and in a view that may not see it yet)."""

    seat: int
    card: str | None
    melds: list[list[str]]
    deadwood: list[str]
    deadwood_count: int
    gin: bool
    big_gin: bool


class LaidOff(_Event, tag="laid_off", frozen=True):
    """The defender added ``card`` to the knocker's meld number ``meld``."""

    seat: int
    card: str
    meld: int


class Scored(_Event, tag="scored", frozen=True):
    """The hand is over. ``winner`` None: a tie that scores nothing. ``hands`` are the cards
    each seat held at the end (the knocker's ten, or eleven for big gin; the defender's ten,
    including those laid off); ``hand_points`` are both players' hand points in this game
    after this hand."""

    knocker: int
    outcome: Outcome
    winner: int | None
    points: int
    multiplier: int
    knocker_deadwood: int
    defender_deadwood: int
    knock_card: str | None
    knocker_melds: list[list[str]]
    defender_melds: list[list[str]]
    defender_deadwood_cards: list[str]
    layoffs: list[tuple[str, int]]
    hands: list[list[str]]
    hand_points: list[int]


class HandDrawn(_Event, tag="hand_drawn", frozen=True):
    """The wall: two cards left in the stock, nobody scores, the same dealer deals again."""

    dealer: int
    hands: list[list[str]]


class GameWon(_Event, tag="game_won", frozen=True):
    """``winner`` reached the game target. Each total is hand points plus bonuses; the player
    with the higher total (``scored_by``, normally the winner) scores ``points``, the
    difference, into the match."""

    game: int
    winner: int
    hand_points: list[int]
    hands_won: list[int]
    game_bonus: int
    line_bonuses: list[int]
    shutout_bonus: int
    totals: list[int]
    scored_by: int | None
    points: int
    match_scores: list[int]


class MatchWon(_Event, tag="match_won", frozen=True):
    winner: int
    match_scores: list[int]
    games_won: list[int]


class DeadlineSet(_Event, tag="deadline_set", frozen=True):
    """The turn clock after a decision received ``at``: ``seat`` must act by ``due_at`` (both
    None: nobody is on the clock). ``banks_ms`` are both seats' time banks left."""

    seat: int | None
    at: datetime
    due_at: datetime | None
    banks_ms: list[int]
    kind: ClockKind = "turn"  # "join": the invited seat must join by ``due_at``


class TimedOut(_Event, tag="timed_out", frozen=True):
    """``seat`` did not act by ``due_at``; noticed ``at``. The default move (docs/rules.md)
    follows, unless this is the seat's ``consecutive``-th timeout that forfeits the match."""

    seat: int
    due_at: datetime
    at: datetime
    consecutive: int


class SeatReturned(_Event, tag="seat_returned", frozen=True):
    """``seat`` acted itself after timing out: its count of consecutive timeouts starts over."""

    seat: int


class SeatJoined(_Event, tag="seat_joined", frozen=True):
    """An invited ``seat`` was taken. Play ignores it: the service appends it when the invite
    is accepted, so that the join is a fact of the match others can be told of."""

    seat: int


class MatchEnded(_Event, tag="match_ended", frozen=True):
    """The match ended other than by play. ``seat`` is the seat the reason is about (who
    resigned, forfeited or was awarded the match); ``winner`` None: nobody won (voided,
    abandoned)."""

    reason: EndReason
    seat: int | None
    winner: int | None
    note: str | None
    match_scores: list[int]
    games_won: list[int]


Event = (
    MatchCreated
    | CardsCut
    | DealerChosen
    | Dealt
    | UpcardPassed
    | Drew
    | Discarded
    | Knocked
    | LaidOff
    | Scored
    | HandDrawn
    | GameWon
    | MatchWon
    | DeadlineSet
    | TimedOut
    | SeatReturned
    | MatchEnded
    | SeatJoined
)

EVENT_TYPES: dict[str, type[Event]] = {
    cls.__struct_config__.tag: cls  # type: ignore[misc]
    for cls in (
        MatchCreated,
        CardsCut,
        DealerChosen,
        Dealt,
        UpcardPassed,
        Drew,
        Discarded,
        Knocked,
        LaidOff,
        Scored,
        HandDrawn,
        GameWon,
        MatchWon,
        DeadlineSet,
        TimedOut,
        SeatReturned,
        MatchEnded,
        SeatJoined,
    )
}

# The events that end a match: by play, or otherwise.
MATCH_ENDINGS = (MatchWon, MatchEnded)
MATCH_ENDING_TYPES = ("match_won", "match_ended")

_encoder = msgspec.json.Encoder()
_decoder = msgspec.json.Decoder(Event)


def event_type(event: Event) -> str:
    """The type tag an event is stored and sent under, e.g. "discarded"."""
    tag = type(event).__struct_config__.tag
    assert isinstance(tag, str)
    return tag


def encode_event(event: Event) -> bytes:
    """Canonical JSON: the type tag first, then the fields in definition order, no spaces."""
    return _encoder.encode(event)


def decode_event(data: bytes | str) -> Event:
    """The inverse of ``encode_event``; stored data that does not decode raises msgspec's
    errors, since it is a fault of the store, not of a player."""
    return _decoder.decode(data)
