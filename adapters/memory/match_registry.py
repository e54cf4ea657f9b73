"""A match registry in a Python process, for tests and quick experiments.

No method awaits between reading and writing, so on one event loop each call is atomic: two
players accepting the same invite at once get the seat once.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from datetime import datetime

import msgspec

from adapters.memory.clock import Clock, utc_now
from service.errors import ExternalRefTaken
from service.ports.match_registry import (
    AcceptedInvite,
    MatchQuery,
    NewRound,
    Owner,
    RegisteredMatch,
    RegisteredSeat,
    Registration,
    RoundInfo,
    RoundQuery,
)


class _Invite(msgspec.Struct):
    match_id: str
    seat: int
    accepted: bool = False


class InMemoryMatchRegistry:
    def __init__(self, clock: Clock = utc_now) -> None:
        self._clock = clock
        self._matches: dict[str, RegisteredMatch] = {}
        self._invites: dict[bytes, _Invite] = {}
        self._token_hashes: set[bytes] = set()
        self._refs: dict[tuple[str, str], str] = {}  # (operator, external ref) -> match id
        self._rounds: dict[str, RoundInfo] = {}

    async def create(
        self,
        match_id: str,
        *,
        external_ref: str | None,
        server_secret: bytes,
        seats: Sequence[RegisteredSeat],
        invite_code_hash: bytes | None = None,
        invite_seat: int | None = None,
        operator_id: str | None = None,
    ) -> None:
        registration = Registration(
            match_id=match_id,
            external_ref=external_ref,
            server_secret=server_secret,
            seats=tuple(seats),
        )
        self._register([registration], operator_id=operator_id, round_id=None)
        if invite_code_hash is not None and invite_seat is not None:
            self._invites[invite_code_hash] = _Invite(match_id, invite_seat)

    async def create_round(self, round: NewRound) -> None:
        self._register(
            round.matches,
            operator_id=round.operator_id,
            round_id=round.round_id,
            start_at=round.start_at,
        )
        self._rounds[round.round_id] = RoundInfo(
            round_id=round.round_id,
            operator_id=round.operator_id,
            start_at=round.start_at,
            created_at=self._clock(),
            match_ids=tuple(r.match_id for r in round.matches),
        )

    async def round(self, round_id: str) -> RoundInfo | None:
        return self._rounds.get(round_id)

    async def set_round_start(self, round_id: str, start_at: datetime) -> None:
        found = self._rounds[round_id]
        self._rounds[round_id] = msgspec.structs.replace(found, start_at=start_at)
        for match_id in found.match_ids:
            match = self._matches[match_id]
            self._matches[match_id] = msgspec.structs.replace(match, clocks_start_at=start_at)

    async def operator_rounds(self, operator_id: str, query: RoundQuery) -> list[RoundInfo]:
        found = sorted(
            (
                r
                for r in self._rounds.values()
                if r.operator_id == operator_id
                and (query.created_from is None or r.created_at >= query.created_from)
                and (query.created_before is None or r.created_at < query.created_before)
                and (query.after is None or (r.created_at, r.round_id) > query.after)
            ),
            key=lambda r: (r.created_at, r.round_id),
        )
        return found[: query.limit]

    async def by_external_ref(self, operator_id: str, external_ref: str) -> RegisteredMatch | None:
        match_id = self._refs.get((operator_id, external_ref))
        return None if match_id is None else self._matches[match_id]

    async def operator_matches(self, operator_id: str, query: MatchQuery) -> list[RegisteredMatch]:
        prefix = query.external_ref_prefix
        found = sorted(
            (
                match
                for match in self._matches.values()
                if match.operator_id == operator_id
                and (prefix is None or _starts_with(match.external_ref, prefix))
                and (query.created_from is None or match.created_at >= query.created_from)
                and (query.created_before is None or match.created_at < query.created_before)
                and (query.round_id is None or match.round_id == query.round_id)
                and (
                    query.external_player_id is None
                    or any(s.external_player_id == query.external_player_id for s in match.seats)
                )
                and (query.after is None or (match.created_at, match.match_id) > query.after)
            ),
            key=lambda match: (match.created_at, match.match_id),
        )
        return found[: query.limit]

    async def owners(self, match_ids: Collection[str]) -> dict[str, Owner]:
        return {
            match_id: Owner(match.operator_id, match.external_ref, match.round_id)
            for match_id in match_ids
            if (match := self._matches.get(match_id)) is not None
        }

    def _register(
        self,
        registrations: Sequence[Registration],
        *,
        operator_id: str | None,
        round_id: str | None,
        start_at: datetime | None = None,
    ) -> None:
        """All of them or none: everything is checked before anything is kept."""
        refs = [(operator_id, r.external_ref) for r in registrations if r.external_ref is not None]
        if operator_id is not None and (
            len(set(refs)) < len(refs) or any(ref in self._refs for ref in refs)
        ):
            raise ExternalRefTaken(
                "this operator already has a match with this external ref; nothing was created"
            )
        if any(r.match_id in self._matches for r in registrations):
            raise ValueError("a match with this id is already registered")
        now = self._clock()
        for r in registrations:
            self._matches[r.match_id] = RegisteredMatch(
                match_id=r.match_id,
                external_ref=r.external_ref,
                server_secret=r.server_secret,
                created_at=now,
                seats=tuple(sorted(r.seats, key=lambda seat: seat.seat)),
                operator_id=operator_id,
                round_id=round_id,
                clocks_start_at=start_at,
            )
            if operator_id is not None and r.external_ref is not None:
                self._refs[(operator_id, r.external_ref)] = r.match_id
            self._token_hashes.update(s.token_hash for s in r.seats if s.token_hash is not None)

    async def add_invite(self, match_id: str, code_hash: bytes, seat: int) -> None:
        self._invites[code_hash] = _Invite(match_id, seat)

    async def get(self, match_id: str) -> RegisteredMatch | None:
        return self._matches.get(match_id)

    async def invited_match(self, code_hash: bytes) -> str | None:
        invite = self._invites.get(code_hash)
        return None if invite is None or invite.accepted else invite.match_id

    async def accept_invite(
        self, code_hash: bytes, token_hash: bytes, entropy: str
    ) -> AcceptedInvite | None:
        invite = self._invites.get(code_hash)
        if invite is None or invite.accepted:
            return None
        invite.accepted = True
        match = self._matches[invite.match_id]
        seats = tuple(
            msgspec.structs.replace(seat, token_hash=token_hash, entropy=entropy)
            if seat.seat == invite.seat
            else seat
            for seat in match.seats
        )
        self._matches[invite.match_id] = msgspec.structs.replace(match, seats=seats)
        self._token_hashes.add(token_hash)
        return AcceptedInvite(invite.match_id, invite.seat)

    async def replace_seat_tokens(self, match_id: str, token_hashes: dict[int, bytes]) -> None:
        match = self._matches[match_id]
        seats = tuple(
            msgspec.structs.replace(seat, token_hash=token_hashes[seat.seat])
            if seat.seat in token_hashes
            else seat
            for seat in match.seats
        )
        self._matches[match_id] = msgspec.structs.replace(match, seats=seats)
        self._token_hashes.update(token_hashes.values())

    async def matches_with_bots(self) -> set[str]:
        return {
            match_id
            for match_id, match in self._matches.items()
            if any(seat.bot is not None for seat in match.seats)
        }

    async def is_seat_token(self, token_hash: bytes) -> bool:
        return token_hash in self._token_hashes


def _starts_with(ref: str | None, prefix: str) -> bool:
    return ref is not None and ref.startswith(prefix)
