"""Creating a match of any table size: its seeds' secret, its registry row, seat tokens,
invites and first events."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import UTC, datetime
from typing import Any

from domain import RuleOptions
from domain.match_rules import rules_for
from service.bots.seating import bot_levels
from service.errors import EntropyBeforeCommitment, InvalidParameter, UnknownCommitment
from service.fairness.log import fairness_stream
from service.fairness.seeds import new_secret
from service.matches import tokens
from service.matches.seat_ids import seat_ids
from service.matches.service_base import MatchServiceBase
from service.matches.system_steps import system_steps
from service.matches.use_case_types import CreatedMatch, _NewMatch
from service.ports.match_registry import RegisteredMatch, RegisteredSeat
from service.store.match_streams import Loaded

SEATS = (0, 1)


class CreatingMatches(MatchServiceBase):
    async def create_match(
        self,
        *,
        options: RuleOptions,
        players: int = len(SEATS),
        external_ref: str | None = None,
        entropy: Sequence[str] = (),
        invite_seats: Sequence[int] = (),
        operator_id: str | None = None,
        external_player_ids: Sequence[str | None] = (),
        commitment: str | None = None,
        bots: Sequence[str | None] = (),
        seat_tokens: Mapping[int, str] | None = None,
        match_id: str | None = None,
    ) -> CreatedMatch:
        """``seat_tokens`` gives seats the tokens a caller made (and linked to players);
        ``match_id`` is the id a caller already promised (a quick match's pair)."""
        if len(entropy) > players:
            raise InvalidParameter(f"entropy is by seat: {players} at most")
        server_secret = await self._server_secret(commitment, entropy)
        new = self._prepare(
            options=options,
            players=players,
            external_ref=external_ref,
            server_secret=server_secret,
            entropy=entropy,
            invited=_checked_invites(invite_seats, players),
            operator_id=operator_id,
            external_player_ids=external_player_ids,
            bots=bots,
            seat_tokens=seat_tokens,
            match_id=match_id,
        )
        codes = list(new.invite_codes.items())
        first = codes[0] if codes else None
        await self.registry.create(
            new.match.match_id,
            external_ref=external_ref,
            server_secret=server_secret,
            seats=list(new.match.seats),
            invite_code_hash=tokens.secret_hash(first[1]) if first else None,
            invite_seat=first[0] if first else None,
            operator_id=operator_id,
        )
        for seat, code in codes[1:]:
            await self.registry.add_invite(new.match.match_id, tokens.secret_hash(code), seat)
        return await self._start(new)

    async def start_registered(self, match_id: str, options: RuleOptions) -> None:
        """Finish creating a registered match whose creation stopped part way (its process
        died): start it unless it has started, and write the fairness records due. Its seats
        keep the tokens they were registered with."""
        match = await self.match(match_id)
        await self._finish_start(options, match, await self.streams_for(match).load(match_id))

    async def _finish_start(
        self, options: RuleOptions, match: RegisteredMatch, loaded: Loaded[Any]
    ) -> None:
        if loaded.version == 0:
            opened = await self.fairness.store.stream_version(fairness_stream(match.match_id))
            await self._start(_new(match, {}, {}, options), opened=opened or None)
            return
        # Started, perhaps without its fairness records after the cut: sync writes what is due.
        await self.fairness.sync(match, loaded.state)

    def _prepare(
        self,
        *,
        options: RuleOptions,
        players: int = len(SEATS),
        external_ref: str | None,
        server_secret: bytes,
        entropy: Sequence[str] = (),
        invited: Sequence[int] = (),
        operator_id: str | None,
        external_player_ids: Sequence[str | None],
        bots: Sequence[str | None],
        seat_tokens: Mapping[int, str] | None = None,
        match_id: str | None = None,
    ) -> _NewMatch:
        """A match's registry row, seat tokens and first events, not yet stored anywhere."""
        levels = bot_levels(bots, None, seats=players)
        for seat in invited:
            bot_levels(bots, seat, seats=players)  # an invited seat is kept for a person
        entropy = [*entropy, *[""] * players][:players]
        player_ids = seat_ids(external_player_ids, players)
        given = seat_tokens or {}
        made = {
            seat: given.get(seat) or tokens.new_token()
            for seat in range(players)
            if seat not in invited and levels[seat] is None
        }
        match = RegisteredMatch(
            match_id=match_id or self._new_match_id(),
            external_ref=external_ref,
            server_secret=server_secret,
            created_at=datetime.now(UTC),
            seats=tuple(
                RegisteredSeat(
                    seat,
                    tokens.secret_hash(made[seat]) if seat in made else None,
                    entropy[seat],
                    player_ids[seat],
                    levels[seat],
                )
                for seat in range(players)
            ),
            operator_id=operator_id,
        )
        codes = {seat: tokens.new_invite_code() for seat in invited}
        return _new(match, made, codes, options)

    async def _start(self, new: _NewMatch, *, opened: int | None = None) -> CreatedMatch:
        """Open the fairness stream of a registered match (unless ``opened``: its version,
        opened already) and append its first events."""
        rules = self.rules_for(new.match)
        now, start = self.clock(), new.match.clocks_start_at
        steps, state = system_steps(
            rules.fold(new.events, rules.initial()),
            new.match,
            links=self.fairness.links,
            # A round's start still to come is when its clocks start: none runs before it.
            now=now if start is None or start <= now else start,
            made=new.events,
        )
        if opened is None:
            opened = await self.fairness.open(new.match)
        streams = self.streams_for(new.match)
        after, _ = await streams.append(
            new.match.match_id, streams.empty(), [*new.events, *steps], state=state
        )
        await self.fairness.sync(new.match, after.state, written=opened)
        return CreatedMatch(
            new.match.match_id,
            new.tokens,
            next(iter(new.invite_codes.values()), None),
            self.fairness.commitment(new.match),
            new.invite_codes,
        )

    async def _server_secret(self, commitment: str | None, entropy: Sequence[str]) -> bytes:
        """The secret behind a commitment made earlier, or a new one. A seat's entropy is only
        taken once the server has committed to its seeds (see ``service.fairness.seeds``)."""
        if commitment is not None:
            if self.commitments is None:
                raise UnknownCommitment("this service does not take commitments")
            return await self.commitments.claim(commitment)
        if any(entropy):
            raise EntropyBeforeCommitment(
                "entropy sent with a new match needs the server to commit first: "
                'POST /commitments, then send its "commitment" with the entropy'
            )
        return new_secret()


def _new(
    match: RegisteredMatch, made: dict[int, str], codes: dict[int, str], options: RuleOptions
) -> _NewMatch:
    rules = rules_for(len(match.seats))
    start = rules.start(options, len(match.seats))
    return _NewMatch(match, made, codes, rules.decide(rules.initial(), start))


def _checked_invites(invite_seats: Sequence[int], players: int) -> list[int]:
    invited = sorted(set(invite_seats))
    if len(invited) != len(invite_seats) or any(s not in range(players) for s in invited):
        raise InvalidParameter(f"invite_seats are distinct seats from 0 to {players - 1}")
    return invited
