"""A new match of three or four seats before anything is stored: its registry row and tokens.

Shared by a match created alone (``service.matches.formats``) and one created in an operator's
round (``RoundTables`` below, which ``MatchService.create_round`` calls for such matches).
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime
from typing import TYPE_CHECKING, NamedTuple

from domain import RuleOptions
from service.bots.seating import bot_levels
from service.errors import IdempotencyKeyReused
from service.fairness.log import fairness_stream
from service.fairness.seeds import new_secret
from service.matches import tokens
from service.matches.seat_ids import seat_ids
from service.matches.use_cases import CreatedMatch, RoundMatch
from service.ports.match_registry import RegisteredMatch, RegisteredSeat

if TYPE_CHECKING:
    from service.matches.formats import FormatMatchService


class NewTable(NamedTuple):
    match: RegisteredMatch
    tokens: dict[int, str]  # by seat: the seats of people not invited


def new_table(
    *,
    match_id: str,
    players: int,
    bots: Sequence[str | None],
    invited: Sequence[int] = (),
    external_ref: str | None,
    operator_id: str | None,
    external_player_ids: Sequence[str | None],
) -> NewTable:
    player_ids = seat_ids(external_player_ids, players)
    levels = bot_levels(bots, None, seats=players)
    for seat in invited:
        bot_levels(bots, seat, seats=players)  # an invited seat is kept for a person
    made = {
        seat: tokens.new_token()
        for seat in range(players)
        if seat not in invited and levels[seat] is None
    }
    match = RegisteredMatch(
        match_id=match_id,
        external_ref=external_ref,
        server_secret=new_secret(),
        created_at=datetime.now(UTC),
        seats=tuple(
            RegisteredSeat(
                seat,
                tokens.secret_hash(made[seat]) if seat in made else None,
                "",
                player_ids[seat],
                levels[seat],
            )
            for seat in range(players)
        ),
        operator_id=operator_id,
    )
    return NewTable(match, made)


class RoundTables:
    """The matches of more than two seats in an operator's round: prepared before the round is
    registered, started after, and finished by a retry of a round that never answered."""

    def __init__(self, formats: FormatMatchService) -> None:
        self._formats = formats

    def prepare(self, asked: RoundMatch, operator_id: str, match_id: str) -> NewTable:
        return new_table(
            match_id=match_id,
            players=asked.players,
            bots=asked.bots,
            external_ref=asked.external_ref,
            operator_id=operator_id,
            external_player_ids=asked.external_player_ids,
        )

    async def start(self, new: NewTable, options: RuleOptions) -> CreatedMatch:
        return await self._formats.start(new.match, options, new.tokens)

    async def check(self, registered: RegisteredMatch, options: RuleOptions, refused: str) -> None:
        """Refuse (with ``refused``) a registered match that started with other options."""
        loaded = await self._formats.streams.load(registered.match_id)
        if loaded.version > 0 and loaded.state.options != options:
            raise IdempotencyKeyReused(refused)

    async def resume(self, registered: RegisteredMatch, options: RuleOptions) -> CreatedMatch:
        """New tokens for every person's seat (the first were never sent), and the match
        started unless it has."""
        formats = self._formats
        loaded = await formats.streams.load(registered.match_id)
        made = {seat.seat: tokens.new_token() for seat in registered.seats if seat.bot is None}
        hashes = {seat: tokens.secret_hash(token) for seat, token in made.items()}
        await formats.registry.replace_seat_tokens(registered.match_id, hashes)
        if loaded.version == 0:
            written = await formats.fairness.store.stream_version(
                fairness_stream(registered.match_id)
            )
            return await formats.start(registered, options, made, opened=bool(written))
        commitment = formats.fairness.commitment(registered)
        return CreatedMatch(registered.match_id, made, None, commitment)
