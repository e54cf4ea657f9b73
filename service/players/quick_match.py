"""Quick match: ask to be paired with the next players who want the same options and table
size (two, three or four seats).

The queue pairs atomically (``service.ports.quick_match``); the asker who finds an opponent
then makes the match under the id the pairing promised, with a seat token linked to each
player, so both open their seats with their credentials. The waiting player learns of it from
their inbox (match started) or by asking for their quick match. An ask waits at most
``timeout`` and can be cancelled before it is paired.

A process can die between pairing and making the match. The pair then stays pending, claimed
by the dead asker for ``hold``; after that, ``repair`` (run by every process at start and
every ``hold``) or either player reading their quick match claims it and makes the match.
Making is one step that picks up where a dead one stopped: the registered match is started,
not registered again, so each pairing gives one match whatever dies when.
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
from service.ports.quick_match import PendingPair, QuickMatchQueue

DEFAULT_TIMEOUT = timedelta(minutes=2)
# Far longer than making a match takes: a live maker is never taken over.
DEFAULT_HOLD = timedelta(seconds=10)


# The table size of keys written before other sizes could be asked for: they never name it.
_KEYS_WITHOUT_SEATS = 2


class QuickMatchStatus(msgspec.Struct, frozen=True, kw_only=True):
    status: Literal["waiting", "paired", "expired"]
    expires_at: datetime
    match_id: str | None = None
    seat: int | None = None


def options_key(options: RuleOptions, seats: int = _KEYS_WITHOUT_SEATS) -> str:
    """The same options and table size give the same key, whichever order the client sent
    them in. The table size is in it only when it is not two, so that keys of two seats are
    those written before other sizes could be asked for."""
    asked = msgspec.to_builtins(options)
    if seats != _KEYS_WITHOUT_SEATS:
        asked[_SEATS] = seats
    return msgspec.json.encode(asked, order="sorted").decode()


def asked_for(key: str) -> tuple[RuleOptions, int]:
    """The options and table size of a key (``options_key``)."""
    asked = msgspec.json.decode(key)
    seats = asked.pop(_SEATS, _KEYS_WITHOUT_SEATS)
    return msgspec.convert(asked, RuleOptions), seats


_SEATS = "seats"  # never a rule option's name


class QuickMatch:
    def __init__(
        self,
        queue: QuickMatchQueue,
        accounts: Accounts,
        *,
        clock: Callable[[], datetime] = lambda: datetime.now(UTC),
        timeout: timedelta = DEFAULT_TIMEOUT,
        hold: timedelta = DEFAULT_HOLD,
    ) -> None:
        self._queue = queue
        self._accounts = accounts
        self._clock = clock
        self.timeout = timeout
        self.hold = hold

    async def ask(self, player: Player, options: RuleOptions, seats: int = 2) -> QuickMatchStatus:
        now = self._clock()
        expires_at = now + self.timeout
        key = options_key(options, seats)
        paired = await self._queue.ask(
            player.player_id,
            key,
            now=now,
            expires_at=expires_at,
            match_id=str(uuid.uuid4()),
            hold_until=now + self.hold,
            seats=seats,
        )
        if paired is None:
            return QuickMatchStatus(status="waiting", expires_at=expires_at)
        await self._make(
            PendingPair(
                match_id=paired.match_id,
                options_key=key,
                waiting_ids=paired.waiting_ids,
                asker_id=player.player_id,
            )
        )
        return QuickMatchStatus(
            status="paired",
            expires_at=expires_at,
            match_id=paired.match_id,
            seat=len(paired.waiting_ids),
        )

    async def repair(self) -> int:
        """Make the match of every pairing whose maker died (its claim lapsed): how many."""
        pending = await self._claim()
        for pair in pending:
            await self._make(pair)
        return len(pending)

    async def _claim(self, match_id: str | None = None) -> list[PendingPair]:
        now = self._clock()
        return await self._queue.claim_pending(
            now=now, hold_until=now + self.hold, match_id=match_id
        )

    async def _make(self, pair: PendingPair) -> None:
        """Register and start the pair's match, or finish what a dead maker began."""
        matches = self._accounts.matches
        options, seats = asked_for(pair.options_key)
        if await matches.registry.get(pair.match_id) is None:
            tokens = {
                seat: await self._accounts.seat_token(player_id)
                for seat, player_id in enumerate(pair.player_ids)
            }
            await matches.create_match(
                players=seats, options=options, seat_tokens=tokens, match_id=pair.match_id
            )
        else:
            await matches.start_registered(pair.match_id, options)
        await self._queue.made(pair.match_id, now=self._clock())

    async def status(self, player: Player) -> QuickMatchStatus:
        entry = await self._queue.entry(player.player_id)
        if entry is None:
            raise NotQueued("this player has not asked for a quick match")
        if entry.match_id is not None:
            for pair in await self._claim(entry.match_id):  # its maker died
                await self._make(pair)
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
