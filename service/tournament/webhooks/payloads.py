"""What a webhook receives: the kind of end, the match and its external ids, the public event.

Only hand, game and match ends are sent, and each is public in full once it has happened (a
hand's end shows both hands; the stock is never in it). The body is encoded once, stored, and
sent byte for byte on every attempt, so a signature always covers the same bytes.
"""

from __future__ import annotations

from typing import Literal, get_args

import msgspec

from domain import GameWon, HandDrawn, MatchWon, Scored, event_type, redact_event
from domain.events import MatchEnded

Kind = Literal["hand_end", "game_end", "match_end"]
KINDS: tuple[Kind, ...] = get_args(Kind)

# Store type names of the events that end something, by the kind of end.
KIND_OF_TYPE: dict[str, Kind] = {
    "scored": "hand_end",
    "hand_drawn": "hand_end",
    "game_won": "game_end",
    "match_won": "match_end",
    "match_ended": "match_end",
}

Ending = Scored | HandDrawn | GameWon | MatchWon | MatchEnded


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
    result: str


def payload_body(
    *,
    match_id: str,
    external_ref: str | None,
    external_player_ids: list[str | None],
    version: int,
    position: int,
    event: Ending,
) -> bytes:
    public = redact_event(event, None, hand_over=True)
    assert isinstance(public, Ending)
    payload = Payload(
        event_id=f"{match_id}:{version}",
        kind=KIND_OF_TYPE[event_type(event)],
        match_id=match_id,
        external_ref=external_ref,
        players=[PlayerRef(seat, ref) for seat, ref in enumerate(external_player_ids)],
        version=version,
        position=position,
        event=public,
        result=f"/matches/{match_id}/result",
    )
    return msgspec.json.encode(payload)
