"""Quick match: ask to be paired with the next player who wants the same options.

The queue pairs atomically (``service.ports.quick_match``); the asker who finds an opponent
then creates the match under the id the pairing promised, with a seat token linked to each
player, so both open their seats with their credentials. The waiting player learns of it from
their inbox (match started) or by asking for their quick match. An ask waits at most
``timeout`` and can be cancelled before it is paired.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Literal

import msgspec

from domain import RuleOptions
from service.errors import NotQueued
from service.players.accounts import Accounts
from service.ports.players import Player
from service.ports.quick_match import QuickMatchQueue

DEFAULT_TIMEOUT = timedelta(minutes=2)


class QuickMatchStatus(msgspec.Struct, frozen=True, kw_only=True):
    status: Literal["waiting", "paired", "expired"]
    expires_at: datetime
    match_id: str | None = None
    seat: int | None = None


def options_key(options: RuleOptions) -> str:
    """The same options give the same key, whichever order the client sent them in."""
    return msgspec.json.encode(msgspec.to_builtins(options), order="sorted").decode()


class QuickMatch:
    def __init__(
        self,
        queue: QuickMatchQueue,
        accounts: Accounts,
        *,
        clock: Callable[[], datetime] = lambda: datetime.now(UTC),
        timeout: timedelta = DEFAULT_TIMEOUT,
    ) -> None:
        self._queue = queue
        self._accounts = accounts
        self._clock = clock
        self.timeout = timeout

    async def ask(self, player: Player, options: RuleOptions) -> QuickMatchStatus:
        now = self._clock()
        expires_at = now + self.timeout
        paired = await self._queue.ask(
            player.player_id,
            options_key(options),
            now=now,
            expires_at=expires_at,
            match_id=str(uuid.uuid4()),
        )
        if paired is None:
            return QuickMatchStatus(status="waiting", expires_at=expires_at)
        seats = {
            0: await self._accounts.seat_token(paired.opponent_id),
            1: await self._accounts.seat_token(player.player_id),
        }
        await self._accounts.matches.create_match(
            options=options, seat_tokens=seats, match_id=paired.match_id
        )
        return QuickMatchStatus(
            status="paired", expires_at=expires_at, match_id=paired.match_id, seat=1
        )

    async def status(self, player: Player) -> QuickMatchStatus:
        entry = await self._queue.entry(player.player_id)
        if entry is None:
            raise NotQueued("this player has not asked for a quick match")
        if entry.match_id is not None:
            return QuickMatchStatus(
                status="paired",
                expires_at=entry.expires_at,
                match_id=entry.match_id,
                seat=entry.seat,
            )
        status: Literal["waiting", "expired"] = (
            "waiting" if entry.expires_at > self._clock() else "expired"
        )
        return QuickMatchStatus(status=status, expires_at=entry.expires_at)

    async def cancel(self, player: Player) -> None:
        if not await self._queue.cancel(player.player_id, now=self._clock()):
            raise NotQueued("this player is not waiting for a quick match")
