"""One way to play and read a match of any table size.

``MatchPlays`` is what a request needs of a match beyond ``MatchService``: play a seat's
command with the bot moves it makes due, tell where a command left its stream (what a receipt
signs), how the match stands (``Outcome``), and its game record, hand histories and replays.
The match's kind (``service.audit.record_kinds``) answers what differs by table size.
"""

from __future__ import annotations

from typing import Any

import msgspec

from service.audit.game_record import GameRecord
from service.audit.notary import Reached
from service.audit.record_kinds import RecordKind, record_kind
from service.audit.replay import FormatReplayState, ReplayState
from service.audit.served_record import served_record
from service.bots.runner import BotRunner
from service.matches.outcome import Outcome
from service.matches.use_cases import CommandRequest, MatchService
from service.ports.match_registry import RegisteredMatch
from service.store.match_streams import Loaded


class Commanded(msgspec.Struct, frozen=True):
    """A seat's command played: where its append reached, and the match once the bots it
    made due have answered."""

    reached: Reached
    answered: Loaded[Any]


class MatchPlays:
    def __init__(self, matches: MatchService, bots: BotRunner) -> None:
        self.matches = matches
        self.bots = bots

    @staticmethod
    def kind(match: RegisteredMatch) -> RecordKind[Any, Any]:
        return record_kind(match)

    async def command(
        self, match: RegisteredMatch, seat: int, request: CommandRequest
    ) -> Commanded:
        """The receipt is of the seat's own append; the bots answer in appends of their own."""
        played = await self.matches.handle(match, seat, request)
        stream = self.kind(match).stream.stream_id(match.match_id)
        reached = Reached(stream, played.version, played.state.deals, played.appended)
        return Commanded(reached, await self.bots.answer(match, played))

    async def joined(self, match: RegisteredMatch) -> None:
        """What follows a seat's join: the bots' moves it made due."""
        await self.bots.resume(match.match_id)

    async def outcome(self, match: RegisteredMatch) -> Outcome:
        loaded = await self.matches.load(match)
        events = await self.matches.events(match, None, after_version=0)
        return self.kind(match).outcome(loaded.state, [event for _, event in events])

    async def record(self, match: RegisteredMatch) -> tuple[GameRecord, int]:
        """The game record as served, and the match's version now."""
        return await served_record(self.matches, match)

    async def hand_history(self, match: RegisteredMatch, hand: int) -> str:
        record, _ = await self.record(match)
        kind = self.kind(match)
        return kind.hand_history(record.match_id, kind.events(record), record.fairness, hand)

    async def replay(self, match: RegisteredMatch, at: int) -> ReplayState | FormatReplayState:
        """The complete state right after event ``at`` of the setup or a finished hand."""
        record, version = await self.record(match)
        kind = self.kind(match)
        return kind.replay(record.match_id, kind.events(record), at, version)
