"""Players in a Python process, for tests and quick experiments.

Seats are found in the in-memory match registry by their token hashes, as PostgreSQL joins
``match_seats``. The projector's turn keeps its changes aside and applies them together when it
ends without an error, as the PostgreSQL transaction commits.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable, Collection, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass, field

from adapters.memory.clock import Clock, utc_now
from adapters.memory.match_registry import InMemoryMatchRegistry
from adapters.memory.webhook_tables import WebhookTables
from service.ports.players import (
    DuplicatePlayer,
    NewNotice,
    Notice,
    Player,
    PlayerMatch,
    PlayerSeat,
    RelayHook,
    inbox_wakeup,
)
from service.ports.webhook_dispatch import NewDelivery
from service.tournament.webhooks.payloads import PLAYER_KINDS


@dataclass
class _Account:
    player: Player
    credential_hash: bytes
    notices: list[Notice] = field(default_factory=list)


class InMemoryPlayers:
    def __init__(
        self,
        registry: InMemoryMatchRegistry,
        *,
        wake: Callable[[str], None] = lambda _: None,
        clock: Clock = utc_now,
        webhooks: WebhookTables | None = None,
    ) -> None:
        """``webhooks``: the tables the in-memory webhook adapters share, for push relays."""
        self._registry = registry
        self.webhooks = webhooks or WebhookTables()
        self._wake = wake
        self._clock = clock
        self._accounts: dict[str, _Account] = {}
        self._tokens: dict[bytes, str] = {}
        self._matches: dict[tuple[str, str], PlayerMatch] = {}
        self.cursor = 0
        self._turn_taken = False

    async def create(self, player_id: str, display_name: str, credential_hash: bytes) -> Player:
        if player_id in self._accounts or any(
            a.credential_hash == credential_hash for a in self._accounts.values()
        ):
            raise DuplicatePlayer(player_id)
        player = Player(player_id, display_name, self._clock())
        self._accounts[player_id] = _Account(player, credential_hash)
        return player

    async def by_credential(self, credential_hash: bytes) -> Player | None:
        for account in self._accounts.values():
            if account.credential_hash == credential_hash:
                return account.player
        return None

    async def get(self, player_id: str) -> Player | None:
        account = self._accounts.get(player_id)
        return None if account is None else account.player

    async def rotate(self, player_id: str, old_hash: bytes, new_hash: bytes) -> bool:
        account = self._accounts.get(player_id)
        if account is None or account.credential_hash != old_hash:
            return False
        account.credential_hash = new_hash
        return True

    async def link_token(self, player_id: str, token_hash: bytes) -> None:
        if player_id not in self._accounts or token_hash in self._tokens:
            raise DuplicatePlayer(player_id)
        self._tokens[token_hash] = player_id

    async def seats_of_match(self, match_id: str) -> list[PlayerSeat]:
        match = await self._registry.get(match_id)
        if match is None:
            return []
        return [
            PlayerSeat(match_id, seat.seat, self._tokens[seat.token_hash])
            for seat in match.seats
            if seat.token_hash is not None and seat.token_hash in self._tokens
        ]

    async def seat_of(self, player_id: str, match_id: str) -> int | None:
        for seat in await self.seats_of_match(match_id):
            if seat.player_id == player_id:
                return seat.seat
        return None

    async def holders(self, match_id: str) -> list[PlayerSeat]:
        return await self.seats_of_match(match_id)

    async def names(self, match_id: str) -> dict[int, str]:
        return {
            seat.seat: self._accounts[seat.player_id].player.display_name
            for seat in await self.seats_of_match(match_id)
        }

    async def matches(
        self, credential_hash: bytes, *, before: int | None, limit: int
    ) -> list[PlayerMatch] | None:
        player = await self.by_credential(credential_hash)
        if player is None:
            return None
        return await self.matches_of(player.player_id, before=before, limit=limit)

    async def matches_of(
        self, player_id: str, *, before: int | None, limit: int
    ) -> list[PlayerMatch]:
        rows = [
            row
            for (owner, _), row in self._matches.items()
            if owner == player_id and (before is None or row.position < before)
        ]
        return sorted(rows, key=lambda row: -row.position)[:limit]

    async def notices(self, player_id: str, *, after: int, limit: int) -> list[Notice]:
        account = self._accounts.get(player_id)
        notices = [] if account is None else account.notices
        return [notice for notice in notices if notice.seq > after][:limit]

    async def add_notices(self, notices: Sequence[NewNotice]) -> None:
        if any(notice.player_id not in self._accounts for notice in notices):
            raise AssertionError("a notice for a player who does not exist")
        for new in notices:
            inbox = self._accounts[new.player_id].notices
            inbox.append(
                Notice(
                    seq=len(inbox) + 1,
                    kind=new.kind,
                    match_id=new.match_id,
                    payload=new.payload,
                    created_at=self._clock(),
                )
            )
        for player_id in dict.fromkeys(notice.player_id for notice in notices):
            self._wake(inbox_wakeup(player_id))

    def rows(self) -> list[PlayerMatch]:
        return list(self._matches.values())

    @asynccontextmanager
    async def turn(self) -> AsyncIterator[InMemoryProjectionTurn | None]:
        if self._turn_taken:
            yield None
            return
        self._turn_taken = True
        try:
            turn = InMemoryProjectionTurn(self)
            yield turn
            for row in turn.rows:
                self._matches[row.player_id, row.match_id] = row
            await self.add_notices(turn.added)
            self.webhooks.add_deliveries(turn.deliveries)
            self.cursor = turn.cursor
        finally:
            self._turn_taken = False


class InMemoryProjectionTurn:
    def __init__(self, players: InMemoryPlayers) -> None:
        self._players = players
        self._cursor = players.cursor
        self.rows: list[PlayerMatch] = []
        self.added: list[NewNotice] = []
        self.deliveries: list[NewDelivery] = []

    @property
    def cursor(self) -> int:
        return self._cursor

    async def seats(self, match_ids: Collection[str]) -> list[PlayerSeat]:
        return [seat for m in sorted(match_ids) for seat in await self._players.seats_of_match(m)]

    async def known(self, match_ids: Collection[str]) -> list[PlayerMatch]:
        return [row for row in self._players.rows() if row.match_id in match_ids]

    async def save(self, rows: Sequence[PlayerMatch], notices: Sequence[NewNotice]) -> None:
        self.rows += rows
        self.added += notices

    async def relay_hooks(self) -> list[RelayHook]:
        return [
            RelayHook(s.webhook_id, list(s.events))
            for s in self._players.webhooks.subscriptions.values()
            if s.deleted_at is None and any(kind in s.events for kind in PLAYER_KINDS)
        ]

    async def add_deliveries(self, deliveries: Sequence[NewDelivery]) -> None:
        self.deliveries += deliveries

    async def move_cursor(self, position: int) -> None:
        self._cursor = position
