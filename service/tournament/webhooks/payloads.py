"""What a webhook receives: the kind of news, the match and its external ids, the public event.

Sent: a match created (``match_created``), an invited seat taken (``player_joined``, naming
the seat and its external player id), started (``match_started``: the cut for the first
deal, made once every seat is taken), and each hand, game and match end; each is public in
full once it has happened (a hand's end shows both hands; the stock is never in it). A three-
or four-player match sends the same news: its creation, its cut, each table's hand end (a
``table_event`` holding the hand's ``scored`` or ``hand_drawn``), each game and its end. A match's
end carries its ``reason``; a match played to its target ends ``played_out``. The body is
encoded once, stored, and sent byte for byte on every attempt, so a signature always covers
the same bytes.
"""

from __future__ import annotations

from typing import Literal, get_args

import msgspec
from msgspec.structs import replace

from domain import (
    CardsCut,
    Event,
    GameWon,
    HandDrawn,
    MatchCreated,
    MatchWon,
    Scored,
    redact_event,
)
from domain.events import MatchEnded, SeatJoined
from domain.tables import (
    FormatEvent,
    FormatGameWon,
    FormatMatchCreated,
    FormatMatchWon,
    SeatsCut,
    TableEvent,
)
from service.store.codec import tag_of

Kind = Literal[
    "match_created",
    "match_started",
    "hand_end",
    "game_end",
    "match_end",
    "player_joined",
    "player_your_turn",
    "player_match_ended",
]
# A player's news, for a push relay (service.players.relay): never a default, and only for
# operator keys with the scope ``players:relay``, since it tells of every player.
PLAYER_KINDS: tuple[Kind, ...] = ("player_your_turn", "player_match_ended")
# The news of an operator's matches: what a webhook hears of unless it chooses.
KINDS: tuple[Kind, ...] = tuple(k for k in get_args(Kind) if k not in PLAYER_KINDS)

# Store type names of the events that end something, by the kind of end.
KIND_OF_TYPE: dict[str, Kind] = {
    "match_created": "match_created",
    "cards_cut": "match_started",
    "scored": "hand_end",
    "hand_drawn": "hand_end",
    "game_won": "game_end",
    "match_won": "match_end",
    "match_ended": "match_end",
    "seat_joined": "player_joined",
    "format_match_created": "match_created",
    "seats_cut": "match_started",
    "format_game_won": "game_end",
    "format_match_won": "match_end",
    "table_event": "hand_end",  # only a table's hand end: see ``kind_of``
}
HAND_ENDS = (Scored, HandDrawn)

Ending = (
    MatchCreated
    | CardsCut
    | Scored
    | HandDrawn
    | GameWon
    | MatchWon
    | MatchEnded
    | SeatJoined
    | FormatMatchCreated
    | SeatsCut
    | TableEvent
    | FormatGameWon
    | FormatMatchWon
)


def kind_of(event: Event | FormatEvent) -> Kind | None:
    """The news ``event`` is, or None: a table's event is news only as the end of its hand."""
    if isinstance(event, TableEvent) and not isinstance(event.event, HAND_ENDS):
        return None
    return KIND_OF_TYPE.get(tag_of(event))


class PlayerRef(msgspec.Struct, frozen=True):
    seat: int
    external_player_id: str | None


class Payload(msgspec.Struct, frozen=True, kw_only=True):
    """``event_id`` names the event for good: a receiver that sees it twice (deliveries are at
    least once) can drop the second."""

    event_id: str
    kind: Kind
    match_id: str
    external_ref: str | None
    players: list[PlayerRef]
    version: int
    position: int
    event: Ending
    result: str  # GET it for the match's result, as it stands
    reason: str | None = None  # why the match ended (match_end only)
    round_id: str | None = None  # the round the match was created in, if any
    player: PlayerRef | None = None  # who took the seat (player_joined only)


def payload_body(
    *,
    match_id: str,
    external_ref: str | None,
    external_player_ids: list[str | None],
    round_id: str | None = None,
    version: int,
    position: int,
    event: Ending,
) -> bytes:
    public = _public(event)
    kind = kind_of(event)
    assert kind is not None
    payload = Payload(
        event_id=f"{match_id}:{version}",
        kind=kind,
        match_id=match_id,
        external_ref=external_ref,
        players=[PlayerRef(seat, ref) for seat, ref in enumerate(external_player_ids)],
        version=version,
        position=position,
        event=public,
        result=f"/matches/{match_id}/result",
        reason=_reason(event),
        player=_joined(event, external_player_ids),
        round_id=round_id,
    )
    return msgspec.json.encode(payload)


def _public(event: Ending) -> Ending:
    """The event in full but for the stock; each kind is news once its cards may be shown."""
    if isinstance(event, TableEvent):
        return replace(event, event=redact_event(event.event, None, hand_over=True))
    if isinstance(event, FormatMatchCreated | SeatsCut | FormatGameWon | FormatMatchWon):
        return event
    public = redact_event(event, None, hand_over=True)
    assert isinstance(public, Ending)
    return public


def _reason(event: Ending) -> str | None:
    """Why the match ended: by play to its target, or the reason its ending event gives."""
    if isinstance(event, MatchWon | FormatMatchWon):
        return "played_out"
    if isinstance(event, MatchEnded):
        return event.reason
    return None


def _joined(event: Ending, external_player_ids: list[str | None]) -> PlayerRef | None:
    if not isinstance(event, SeatJoined):
        return None
    ids = external_player_ids
    return PlayerRef(event.seat, ids[event.seat] if event.seat < len(ids) else None)
