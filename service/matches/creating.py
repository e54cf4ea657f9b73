"""Creating a match: its seeds' secret, its registry row, seat tokens and first events."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import UTC, datetime

from domain import RuleOptions, StartMatch, decide, fold, new_match
from service.bots.seating import bot_levels
from service.errors import EntropyBeforeCommitment, UnknownCommitment
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
        external_ref: str | None = None,
        entropy: Sequence[str] = (),
        invite_seat: int | None = None,
        operator_id: str | None = None,
        external_player_ids: Sequence[str | None] = (),
        commitment: str | None = None,
        bots: Sequence[str | None] = (),
        seat_tokens: Mapping[int, str] | None = None,
        match_id: str | None = None,
    ) -> CreatedMatch:
        """``seat_tokens`` gives seats the tokens a caller made (and linked to players);
        ``match_id`` is the id a caller already promised (a quick match's pair)."""
        server_secret = await self._server_secret(commitment, entropy)
        new = self._prepare(
            options=options,
            external_ref=external_ref,
            server_secret=server_secret,
            entropy=entropy,
            invite_seat=invite_seat,
            operator_id=operator_id,
            external_player_ids=external_player_ids,
            bots=bots,
            seat_tokens=seat_tokens,
            match_id=match_id,
        )
        await self.registry.create(
            new.match.match_id,
            external_ref=external_ref,
            server_secret=server_secret,
            seats=list(new.match.seats),
            invite_code_hash=tokens.secret_hash(new.invite_code) if new.invite_code else None,
            invite_seat=invite_seat,
            operator_id=operator_id,
        )
        return await self._start(new)

    async def start_registered(self, match_id: str, options: RuleOptions) -> None:
        """Finish creating a registered match whose creation stopped part way (its process
        died): start it unless it has started, and write the fairness records due. Its seats
        keep the tokens they were registered with."""
        match = await self.match(match_id)
        await self._finish_start(options, match, await self.streams.load(match_id))

    async def _finish_start(
        self, options: RuleOptions, match: RegisteredMatch, loaded: Loaded
    ) -> None:
        if loaded.version == 0:
            opened = await self.fairness.store.stream_version(fairness_stream(match.match_id))
            new = _NewMatch(match, {}, None, decide(new_match(), StartMatch(options)))
            await self._start(new, opened=opened or None)
            return
        # Started, perhaps without its fairness records after the cut: sync writes what is due.
        await self.fairness.sync(match, loaded.state)

    def _prepare(
        self,
        *,
        options: RuleOptions,
        external_ref: str | None,
        server_secret: bytes,
        entropy: Sequence[str] = (),
        invite_seat: int | None = None,
        operator_id: str | None,
        external_player_ids: Sequence[str | None],
        bots: Sequence[str | None],
        seat_tokens: Mapping[int, str] | None = None,
        match_id: str | None = None,
    ) -> _NewMatch:
        """A match's registry row, seat tokens and first events, not yet stored anywhere."""
        levels = bot_levels(bots, invite_seat)
        entropy = [*entropy, "", ""][:2]
        player_ids = seat_ids(external_player_ids, len(SEATS))
        given = seat_tokens or {}
        made = {
            seat: given.get(seat) or tokens.new_token()
            for seat in SEATS
            if seat != invite_seat and levels[seat] is None
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
                for seat in SEATS
            ),
            operator_id=operator_id,
        )
        invite_code = tokens.new_invite_code() if invite_seat is not None else None
        return _NewMatch(match, made, invite_code, decide(new_match(), StartMatch(options)))

    async def _start(self, new: _NewMatch, *, opened: int | None = None) -> CreatedMatch:
        """Open the fairness stream of a registered match (unless ``opened``: its version,
        opened already) and append its first events."""
        steps, state = system_steps(
            fold(new.events), new.match, links=self.fairness.links, now=self.clock()
        )
        if opened is None:
            opened = await self.fairness.open(new.match)
        after, _ = await self.streams.append(
            new.match.match_id, Loaded(new_match(), 0), [*new.events, *steps], state=state
        )
        await self.fairness.sync(new.match, after.state, written=opened)
        return CreatedMatch(
            new.match.match_id, new.tokens, new.invite_code, self.fairness.commitment(new.match)
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
