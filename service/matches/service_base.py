"""What every match use case shares: the ports, the fairness log and the registry rows read,
and, for each match, its rules and its streams (chosen by its seats, ``kind_for``)."""

from __future__ import annotations

import uuid
from collections.abc import Callable
from typing import Any

from cachetools import LRUCache

from domain.match_rules import MatchRules, rules_for
from service.errors import MatchNotFound
from service.fairness.commitments import SeedCommitments
from service.fairness.log import FairnessLog
from service.fairness.seeds import CHAIN_LINKS
from service.matches.use_case_types import PlayerSeat
from service.ports.clock import Clock, system_clock
from service.ports.match_registry import MatchRegistry, RegisteredMatch
from service.store.match_streams import KINDS, MatchStreams, kind_for

RECORDS_CACHED = 10_000


class MatchServiceBase:
    """The state each use case module's class reads; ``MatchService`` joins them up."""

    def __init__(
        self,
        streams: MatchStreams,
        registry: MatchRegistry,
        commitments: SeedCommitments | None = None,
        *,
        new_match_id: Callable[[], str] | None = None,
        chain_links: int = CHAIN_LINKS,
        clock: Clock = system_clock,
        player_seat: PlayerSeat | None = None,
    ) -> None:
        """``streams`` is the two-player matches' streams; the other kinds are kept alike over
        the same store. ``new_match_id`` (a UUID string each call; random by default) and
        ``chain_links`` (the length of each seed chain) are for callers that play matches
        again by seed: the verifier's tests, which also need matches that run through
        several short chains.
        ``clock`` stamps each command with the time it was received (the turn clocks)."""
        self.clock = clock
        self.streams = streams
        self._streams = {kind.prefix: streams.of_kind(kind) for kind in KINDS}
        self.registry = registry
        self.commitments = commitments
        self.fairness = FairnessLog(streams.store, links=chain_links)
        self._new_match_id = new_match_id or _new_match_id
        self.player_seat = player_seat
        # Only records of full matches are cached: nothing in them can change any more.
        self._full_records: LRUCache[str, RegisteredMatch] = LRUCache(RECORDS_CACHED)

    def streams_for(self, match: RegisteredMatch) -> MatchStreams[Any, Any]:
        return self._streams[kind_for(len(match.seats)).prefix]

    def rules_for(self, match: RegisteredMatch) -> MatchRules[Any, Any]:
        return rules_for(len(match.seats))

    async def match(self, match_id: str, *, fresh: bool = False) -> RegisteredMatch:
        """The match's registry row; ``fresh``: read again, never from this process's cache
        (an operator may give a seat a new token, ``service.tournament.seat_tokens``)."""
        record = None if fresh else self._full_records.get(match_id)
        if record is not None:
            return record
        record = await self.registry.get(match_id)
        if record is None:
            raise MatchNotFound(f"there is no match {match_id}")
        if record.full:
            self._full_records[match_id] = record
        return record


def _new_match_id() -> str:
    return str(uuid.uuid4())
