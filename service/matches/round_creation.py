"""Creating a round's matches all at once, and finishing a round a request left unanswered."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from typing import Any

import msgspec

from domain import RuleOptions
from service.errors import IdempotencyKeyReused, MatchNotFound
from service.fairness.seeds import new_secret
from service.matches import tokens
from service.matches.creating import CreatingMatches
from service.matches.seat_ids import seat_ids
from service.matches.use_case_types import CreatedMatch, RoundMatch, RoundRequest, _NewMatch
from service.ports.match_registry import NewRound, RegisteredMatch, Registration
from service.store.match_streams import Loaded

ROUND_STARTS_AT_ONCE = 8  # of a round's matches, started at once (each holds a connection)

_NOT_THE_ROUND = "this Idempotency-Key already registered a different round"


def _same_match(registered: RegisteredMatch, asked: RoundMatch) -> bool:
    """Whether a registered match of a round is the one ``asked`` describes."""
    player_ids = seat_ids(asked.external_player_ids, asked.players)
    levels = [*asked.bots, *[None] * asked.players][: asked.players]
    return (
        registered.external_ref == asked.external_ref
        and [seat.external_player_id for seat in registered.seats] == player_ids
        and [seat.bot for seat in registered.seats] == levels
    )


class CreatingRounds(CreatingMatches):
    async def create_round(self, round: RoundRequest) -> list[CreatedMatch]:
        """All the round's matches, or none: they are registered in one transaction (where a
        taken external ref refuses them all) before any of them starts."""
        prepared = [self._prepare_asked(round, match) for match in round.matches]
        # Each match's seed chain is walked (and kept) in a thread while the registry's
        # transaction waits on the database: the walks are most of a round's computing.
        walked = asyncio.create_task(
            asyncio.to_thread(self.fairness.walk_chains, [n.match for n in prepared])
        )
        try:
            await self._register_round(round, prepared)
        finally:
            await walked
        # Fresh streams cannot conflict: their appends go side by side, a few at a time.
        gate = asyncio.Semaphore(ROUND_STARTS_AT_ONCE)

        async def start(new: _NewMatch) -> CreatedMatch:
            async with gate:
                return await self._start(new)

        return list(await asyncio.gather(*(start(new) for new in prepared)))

    def _prepare_asked(self, round: RoundRequest, asked: RoundMatch) -> _NewMatch:
        new = self._prepare(
            options=round.options,
            players=asked.players,
            external_ref=asked.external_ref,
            server_secret=new_secret(),
            operator_id=round.operator_id,
            external_player_ids=asked.external_player_ids,
            bots=asked.bots,
        )
        started = msgspec.structs.replace(new.match, clocks_start_at=round.start_at)
        return new._replace(match=started)

    async def _register_round(self, round: RoundRequest, prepared: Sequence[_NewMatch]) -> None:
        await self.registry.create_round(
            NewRound(
                round_id=round.round_id,
                operator_id=round.operator_id,
                start_at=round.start_at,
                matches=tuple(
                    Registration(
                        match_id=new.match.match_id,
                        external_ref=new.match.external_ref,
                        server_secret=new.match.server_secret,
                        seats=new.match.seats,
                    )
                    for new in prepared
                ),
            )
        )

    async def resume_round(
        self, round: RoundRequest, match_ids: Sequence[str]
    ) -> list[CreatedMatch]:
        """Finish a round that a request registered and never answered (it died or failed
        part way): each match gets new seat tokens, since the first ones were never sent, and
        any match not yet started starts. The answer is the one the first request would have
        given, with the new tokens. Every match is checked against ``round`` before anything
        changes: another round under the same key is refused whole."""
        if len(match_ids) != len(round.matches):
            raise IdempotencyKeyReused(_NOT_THE_ROUND)
        found = [
            await self._registered_as(match_id, asked, round.options)
            for match_id, asked in zip(match_ids, round.matches, strict=True)
        ]
        gate = asyncio.Semaphore(ROUND_STARTS_AT_ONCE)

        async def resume(registered: RegisteredMatch, loaded: Loaded[Any]) -> CreatedMatch:
            async with gate:
                return await self._resume(round.options, registered, loaded)

        return list(await asyncio.gather(*(resume(*pair) for pair in found)))

    async def _registered_as(
        self, match_id: str, asked: RoundMatch, options: RuleOptions
    ) -> tuple[RegisteredMatch, Loaded[Any]]:
        """The registered match and its stream, if it is the match ``asked`` for."""
        registered = await self.registry.get(match_id)
        if registered is None:
            raise MatchNotFound(f"there is no match {match_id}")
        if len(registered.seats) != asked.players or not _same_match(registered, asked):
            raise IdempotencyKeyReused(_NOT_THE_ROUND)
        loaded = await self.streams_for(registered).load(match_id)
        if loaded.version > 0 and loaded.state.options != options:
            raise IdempotencyKeyReused(_NOT_THE_ROUND)
        return registered, loaded

    async def _resume(
        self, options: RuleOptions, registered: RegisteredMatch, loaded: Loaded[Any]
    ) -> CreatedMatch:
        match_id = registered.match_id
        made = {seat.seat: tokens.new_token() for seat in registered.seats if seat.bot is None}
        hashes = {seat: tokens.secret_hash(token) for seat, token in made.items()}
        await self.registry.replace_seat_tokens(match_id, hashes)
        self._full_records.pop(match_id, None)  # it holds the old hashes
        match = await self.match(match_id)
        await self._finish_start(options, match, loaded)
        return CreatedMatch(match_id, made, None, self.fairness.commitment(match))
