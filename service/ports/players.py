"""The players port: anonymous device accounts, the seats they hold, their list of matches and
their inbox.

A player is known by a credential kept only as its SHA-256 hash. A seat is a player's when the
hash of the seat's token is linked to the player (``link_token``, always before the match is
created or joined with that token). The list of matches and the inbox are written by the
projector, one turn at a time (``PlayerProjection``), and by the use cases that invite.

Each notice of a player's inbox takes the next number of that player's sequence when it
commits: numbers have no gaps and a reader who saw number n has seen every notice before it.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from contextlib import AbstractAsyncContextManager
from datetime import datetime
from typing import Literal, Protocol

import msgspec

from service.ports.webhook_dispatch import NewDelivery
from service.tournament.webhooks.payloads import Kind

MatchStatus = Literal["waiting", "in_progress", "finished"]
NoticeKind = Literal[
    "your_turn", "match_started", "match_ended", "invitation_received", "rematch_offered"
]


class Player(msgspec.Struct, frozen=True):
    player_id: str
    display_name: str
    created_at: datetime


class PlayerSeat(msgspec.Struct, frozen=True):
    """A seat of a match that a player holds."""

    match_id: str
    seat: int
    player_id: str


class PlayerMatch(msgspec.Struct, frozen=True, kw_only=True):
    """A match in a player's list, as the projector last saw it; ``position`` is that of the
    match's latest event in the global log (the list is newest first)."""

    player_id: str
    match_id: str
    seat: int
    status: MatchStatus
    turn: int | None
    version: int
    position: int
    deadline: datetime | None = None  # when the player to move must have moved (a clock)


class NewNotice(msgspec.Struct, frozen=True, kw_only=True):
    player_id: str
    kind: NoticeKind
    match_id: str | None
    payload: bytes  # JSON, as the inbox serves it


class Notice(msgspec.Struct, frozen=True, kw_only=True):
    seq: int
    kind: NoticeKind
    match_id: str | None
    payload: bytes
    created_at: datetime


class RelayHook(msgspec.Struct, frozen=True):
    """A live webhook and the kinds of news it chose."""

    webhook_id: str
    events: list[Kind]


class DuplicatePlayer(Exception):  # noqa: N818  (named for what happened)
    """A player id or a credential hash that is already taken."""


class PlayerStore(Protocol):
    async def create(self, player_id: str, display_name: str, credential_hash: bytes) -> Player:
        """Add a player; raises ``DuplicatePlayer`` if the id or credential hash is taken."""
        ...

    async def by_credential(self, credential_hash: bytes) -> Player | None: ...

    async def get(self, player_id: str) -> Player | None: ...

    async def rotate(self, player_id: str, old_hash: bytes, new_hash: bytes) -> bool:
        """Replace the credential hash, if it is still ``old_hash``: whether it was."""
        ...

    async def link_token(self, player_id: str, token_hash: bytes) -> None:
        """The seat that will hold this token hash is the player's."""
        ...

    async def seat_of(self, player_id: str, match_id: str) -> int | None:
        """The seat the player holds in the match, if any."""
        ...

    async def holders(self, match_id: str) -> list[PlayerSeat]:
        """The seats of the match that players hold."""
        ...

    async def names(self, match_id: str) -> dict[int, str]:
        """The display names of the match's seats held by players, by seat."""
        ...

    async def matches(
        self, credential_hash: bytes, *, before: int | None, limit: int
    ) -> list[PlayerMatch] | None:
        """The matches of the player whose credential has this hash, newest first, those
        before the position ``before`` if given; None if the hash is no player's. Found by
        the credential, so that listing them is one read with the sign-in."""
        ...

    async def matches_of(
        self, player_id: str, *, before: int | None, limit: int
    ) -> list[PlayerMatch]:
        """The same list, found by the player's id (for a player signed in by a session)."""
        ...

    async def notices(self, player_id: str, *, after: int, limit: int) -> list[Notice]:
        """The player's notices numbered after ``after``, in order."""
        ...

    async def add_notices(self, notices: Sequence[NewNotice]) -> None:
        """Add each to its player's inbox, numbered next; all or none."""
        ...


class ProjectionTurn(Protocol):
    @property
    def cursor(self) -> int:
        """The position in the global log the projector has passed (0: none yet)."""
        ...

    async def seats(self, match_ids: Collection[str]) -> list[PlayerSeat]:
        """The seats of these matches that players hold."""
        ...

    async def known(self, match_ids: Collection[str]) -> list[PlayerMatch]:
        """The rows the list already has for these matches."""
        ...

    async def save(self, rows: Sequence[PlayerMatch], notices: Sequence[NewNotice]) -> None:
        """Insert or replace these rows, and add these notices."""
        ...

    async def relay_hooks(self) -> list[RelayHook]:
        """The live webhooks that hear of players' news (the push relays), of any operator."""
        ...

    async def add_deliveries(self, deliveries: Sequence[NewDelivery]) -> None:
        """Add each as pending and due now, unless its webhook already has a delivery for
        that event position and player."""
        ...

    async def move_cursor(self, position: int) -> None: ...


class PlayerProjection(Protocol):
    def turn(self) -> AbstractAsyncContextManager[ProjectionTurn | None]:
        """The projector's turn, or None if another projector holds it now. What a turn
        saved takes effect, and wakes the inboxes it added to, when it ends without an error."""
        ...


def inbox_wakeup(player_id: str) -> str:
    """What the ``Wakeups`` port calls a player's inbox: woken when notices are added to it."""
    return f"player-{player_id}"
