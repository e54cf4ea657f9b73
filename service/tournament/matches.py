"""An operator's own matches: found by external ref, listed with filters, paged by a cursor.

The cursor is the (creation time, match id) of the last match a page held, so pages never
repeat or skip a match whatever is created meanwhile (new matches sort after it). A status
filter is applied to each page the registry gives: a page may hold fewer than ``limit``
matches, and ``next`` is None only at the end.
"""

from __future__ import annotations

import base64
import uuid
from datetime import datetime
from typing import Literal

import msgspec

from service.errors import InvalidParameter, MatchNotFound
from service.ports.event_store import EventStore
from service.ports.match_registry import MatchQuery, MatchRegistry, RegisteredMatch
from service.store.match_streams import stream_id

Status = Literal["waiting_for_opponent", "in_progress", "finished"]
# Events after which a match is over: won by play, or ended for another reason.
MATCH_ENDS = ("match_won", "match_ended")


class Listed(msgspec.Struct, frozen=True, kw_only=True):
    match: RegisteredMatch
    status: Status


class ListPage(msgspec.Struct, frozen=True, kw_only=True):
    matches: list[Listed]
    next: str | None  # pass as ``cursor`` for the following page; None: there is no more


class MatchFilter(msgspec.Struct, frozen=True, kw_only=True):
    status: Status | None = None
    external_ref_prefix: str | None = None
    created_from: datetime | None = None
    created_before: datetime | None = None
    round_id: str | None = None
    external_player_id: str | None = None


class OperatorMatches:
    def __init__(self, registry: MatchRegistry, store: EventStore) -> None:
        self._registry = registry
        self._store = store

    async def by_external_ref(self, operator_id: str, external_ref: str) -> Listed:
        match = await self._registry.by_external_ref(operator_id, external_ref)
        if match is None:
            raise MatchNotFound(f"you have no match with the external ref {external_ref!r}")
        return (await self.with_status([match]))[0]

    async def page(
        self, operator_id: str, where: MatchFilter, *, cursor: str | None, limit: int
    ) -> ListPage:
        found = await self._registry.operator_matches(
            operator_id,
            MatchQuery(
                external_ref_prefix=where.external_ref_prefix,
                created_from=where.created_from,
                created_before=where.created_before,
                round_id=where.round_id,
                external_player_id=where.external_player_id,
                after=None if cursor is None else decode_cursor(cursor),
                limit=limit,
            ),
        )
        listed = await self.with_status(found)
        last = found[-1] if len(found) == limit else None
        return ListPage(
            matches=[m for m in listed if where.status in (None, m.status)],
            next=None if last is None else encode_cursor(last.created_at, last.match_id),
        )

    async def with_status(self, matches: list[RegisteredMatch]) -> list[Listed]:
        ended = await self._store.latest_versions(
            [stream_id(match.match_id) for match in matches], MATCH_ENDS
        )
        return [Listed(match=m, status=_status(m, stream_id(m.match_id) in ended)) for m in matches]


def _status(match: RegisteredMatch, ended: bool) -> Status:
    if ended:
        return "finished"
    return "in_progress" if match.full else "waiting_for_opponent"


def encode_cursor(created_at: datetime, match_id: str) -> str:
    raw = msgspec.json.encode([created_at, match_id])
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def decode_cursor(cursor: str) -> tuple[datetime, str]:
    try:
        raw = base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4))
        created_at, match_id = msgspec.json.decode(raw, type=tuple[datetime, uuid.UUID])
    except (ValueError, msgspec.DecodeError):
        raise InvalidParameter("cursor: pass a 'next' from this list") from None
    return created_at, str(match_id)
