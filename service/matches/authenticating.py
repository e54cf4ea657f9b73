"""Authenticating a request: the seat its token (or a player's credential) opens."""

from __future__ import annotations

import hmac

from service.errors import MissingToken, WrongToken
from service.matches import tokens
from service.matches.service_base import MatchServiceBase
from service.matches.use_case_types import Seated
from service.ports.match_registry import RegisteredMatch


def _seats_opened(match: RegisteredMatch, token: str) -> list[int]:
    hashed = tokens.secret_hash(token)  # once, not once per seat: every request passes here
    return [
        seat.seat
        for seat in match.seats
        if seat.token_hash is not None and hmac.compare_digest(hashed, seat.token_hash)
    ]


class AuthenticatingSeats(MatchServiceBase):
    async def authenticate(self, match_id: str, token: str | None) -> Seated:
        """The seat ``token`` opens in this match; refused unless it opens exactly one."""
        match = await self.match(match_id)
        if match.operator_id is not None:
            # Its operator may reissue a seat's token: the old one is refused at once, in
            # every process, so the seats are read as they are now.
            match = await self.match(match_id, fresh=True)
        if token is None:
            raise MissingToken("send the seat's token as 'Authorization: Bearer <token>'")
        if self.player_seat is not None and not token.startswith(tokens.TOKEN_PREFIX):
            seat = await self.player_seat(token, match_id)
            if seat is None:
                raise WrongToken("this credential does not hold a seat in this match")
            return Seated(match, seat)
        seats = _seats_opened(match, token)
        if len(seats) != 1 and self._full_records.pop(match_id, None) is not None:
            # A round finished by a retry gives its seats new tokens (``resume_round``): a
            # record cached before then is read again once.
            match = await self.match(match_id)
            seats = _seats_opened(match, token)
        if len(seats) != 1:
            raise WrongToken("this token does not open a seat in this match")
        return Seated(match, seats[0])

    async def seat_of(self, match_id: str, token: str | None) -> int:
        return (await self.authenticate(match_id, token)).seat
