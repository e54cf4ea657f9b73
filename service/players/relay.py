"""A player's news as webhook deliveries, for an operator's push relay (FCM, APNs, ...).

The relay wakes the phone; the app then reads its inbox. So a body says only whose news it is
and what happened (player, match, seat, kind, a notice id to drop repeats by): never cards,
tokens or credentials, and nothing a relay could act on in the player's place. The service
holds no push credentials: the relay does.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

import msgspec

from service.ports.players import PlayerMatch, RelayHook
from service.ports.webhook_dispatch import NewDelivery
from service.tournament.webhooks.payloads import Kind

# The notices a relay hears of, by the webhook kind it subscribes to.
RELAYED: dict[str, Kind] = {"your_turn": "player_your_turn", "match_ended": "player_match_ended"}


class RelayBody(msgspec.Struct, frozen=True, kw_only=True):
    """``notice_id`` names the notice for good (deliveries are at least once)."""

    notice_id: str
    kind: Kind
    player_id: str
    match_id: str
    seat: int
    version: int
    deadline: datetime | None = None  # your_turn in a match with a clock


def relay_deliveries(
    hooks: Sequence[RelayHook], relayed: Sequence[tuple[PlayerMatch, str]]
) -> list[NewDelivery]:
    """One delivery per webhook that wants it, for each (row, notice kind) relayed."""
    deliveries = []
    for row, notice_kind in relayed:
        kind = RELAYED.get(notice_kind)
        wanted = [hook.webhook_id for hook in hooks if kind in hook.events]
        if kind is None or not wanted:
            continue
        body = RelayBody(
            notice_id=f"{row.match_id}:{row.version}:{row.seat}:{notice_kind}",
            kind=kind,
            player_id=row.player_id,
            match_id=row.match_id,
            seat=row.seat,
            version=row.version,
            deadline=row.deadline if kind == "player_your_turn" else None,
        )
        payload = msgspec.json.encode(body)
        deliveries += [
            NewDelivery(
                webhook_id=webhook_id,
                match_id=row.match_id,
                event_position=row.position,
                event_version=row.version,
                kind=kind,
                payload=payload,
                player_id=row.player_id,
            )
            for webhook_id in wanted
        ]
    return deliveries
