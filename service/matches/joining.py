"""Seating an invited player, and announcing the join in the match."""

from __future__ import annotations

from typing import Any

from domain.errors import MatchAlreadyEnded
from service.errors import InviteNotFound
from service.matches import tokens
from service.matches.service_base import MatchServiceBase
from service.matches.system_steps import system_steps
from service.matches.use_case_types import SeatToken
from service.ports import event_store
from service.ports.match_registry import RegisteredMatch

# A join races only the match's other seats and its clock: a few tries always get through.
JOIN_APPEND_TRIES = 8


class JoiningMatches(MatchServiceBase):
    async def join(
        self, invite_code: str, entropy: str = "", token: str | None = None
    ) -> SeatToken:
        """``token``: the one a caller made for the seat (and linked to a player)."""
        token = token or tokens.new_token()
        code_hash = tokens.secret_hash(invite_code)
        invited = await self.registry.invited_match(code_hash)
        # A match that ended before its invite was used (a no-show, an abandonment) seats
        # nobody: the invite is left as it was.
        if invited is not None:
            match = await self.match(invited)
            rules = self.rules_for(match)
            if rules.over((await self.streams_for(match).load(invited)).state):
                raise MatchAlreadyEnded("the match is over: it ended before this invite was used")
        seated = await self.registry.accept_invite(code_hash, tokens.secret_hash(token), entropy)
        if seated is None:
            raise InviteNotFound("the invite code is unknown or has already been used")
        match_id, seat = seated
        await self._announce_join(await self.match(match_id), seat)
        return SeatToken(match_id, seat, token)

    async def _announce_join(self, match: RegisteredMatch, seat: int) -> None:
        """Append the join (where the rules record one), and the cut that was waiting for
        this seat, to the match. The seat is already the player's, so a conflict (another
        seat's join, a clock) is retried on the new head rather than dropped: the join must
        reach the record."""
        streams, rules = self.streams_for(match), self.rules_for(match)
        for attempt in range(JOIN_APPEND_TRIES):
            loaded = await streams.load(match.match_id)
            joined: list[Any] = rules.joined(seat)
            steps, state = system_steps(
                rules.fold(joined, loaded.state),
                match,
                links=self.fairness.links,
                now=self.clock(),
                made=joined,
            )
            if not joined and not steps:
                return  # another seat's join made the cut
            try:
                after, _ = await streams.append(
                    match.match_id, loaded, [*joined, *steps], state=state
                )
            except event_store.ConcurrencyConflict:
                if attempt + 1 == JOIN_APPEND_TRIES:
                    raise
                continue
            await self.fairness.sync(match, after.state)
            return
