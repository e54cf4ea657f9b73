"""One way to play and read a match of any table size.

``MatchPlay`` is what a request needs of a match: load it, play a seat's command (with the
bot moves it makes due), read its events as a seat may see them, tell where a command left
its stream (what a receipt signs), how the match stands (``Outcome``), and its game record,
hand histories and replays. ``MatchPlays``
chooses the implementation by the match's seat count, in this one place: two seats play
through ``MatchService``, three and four through ``FormatMatchService``; the callers never
ask how many seats a match has.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

import msgspec

from domain.events import Event
from domain.formats import FormatEvent, FormatPhase, FormatState
from domain.state import MatchState, Phase
from service.audit.game_record import GameRecord
from service.audit.notary import Reached
from service.audit.record_kinds import ONE_HAND, TABLES, RecordKind, record_kind
from service.audit.replay import FormatReplayState, ReplayState
from service.audit.served_record import RecordedMatches, served_record
from service.bots.runner import BotRunner
from service.matches.formats import FormatMatchService
from service.matches.outcome import Outcome, table_outcome, two_player_outcome
from service.matches.use_cases import CommandRequest, MatchService
from service.ports.match_registry import RegisteredMatch
from service.store.match_streams import Loaded

AnyLoaded = Loaded[MatchState] | Loaded[FormatState]
AnyEvent = Event | FormatEvent


class Commanded(msgspec.Struct, frozen=True):
    """A seat's command played: where its append reached, and the match once the bots it
    made due have answered."""

    reached: Reached
    answered: AnyLoaded


class MatchPlay(Protocol):
    endings: tuple[type, ...]  # the events that end the match

    def stream_id(self, match_id: str) -> str: ...

    def event_type(self, event: Any) -> str: ...

    async def load(self, match: RegisteredMatch) -> AnyLoaded: ...

    async def finished(self, match: RegisteredMatch) -> bool: ...

    async def command(
        self, match: RegisteredMatch, seat: int, request: CommandRequest
    ) -> Commanded: ...

    async def events(
        self, match: RegisteredMatch, seat: int | None, *, after_version: int
    ) -> Sequence[tuple[int, AnyEvent]]: ...

    async def joined(self, match: RegisteredMatch) -> None:
        """What follows a seat's join: the cut it was waiting for, the bots' moves."""

    async def outcome(self, match: RegisteredMatch) -> Outcome: ...

    async def record(self, match: RegisteredMatch) -> tuple[GameRecord, int]:
        """The game record as served, and the match's version now."""

    async def hand_history(self, match: RegisteredMatch, hand: int) -> str: ...

    async def replay(self, match: RegisteredMatch, at: int) -> ReplayState | FormatReplayState:
        """The complete state right after event ``at`` of the setup or a finished hand."""


class Audited:
    """What the kind of match (``service.audit.record_kinds``) answers alike at every table
    size: its stream, its events' types, its record, hand histories and replays."""

    kind: RecordKind[Any, Any]

    def recorded(self) -> RecordedMatches:
        raise NotImplementedError

    def stream_id(self, match_id: str) -> str:
        return self.kind.stream.stream_id(match_id)

    def event_type(self, event: Any) -> str:
        return self.kind.tag(event)

    def reached(self, match: RegisteredMatch, played: Loaded[Any]) -> Reached:
        """Where a command's append left the match's stream: what its receipt signs."""
        return Reached(
            self.stream_id(match.match_id), played.version, played.state.deals, played.appended
        )

    async def record(self, match: RegisteredMatch) -> tuple[GameRecord, int]:
        return await served_record(self.recorded(), match)

    async def hand_history(self, match: RegisteredMatch, hand: int) -> str:
        record, _ = await self.record(match)
        events = self.kind.events(record)
        return self.kind.hand_history(record.match_id, events, record.fairness, hand)

    async def replay(self, match: RegisteredMatch, at: int) -> ReplayState | FormatReplayState:
        record, version = await self.record(match)
        return self.kind.replay(record.match_id, self.kind.events(record), at, version)


class TwoSeats(Audited):
    kind = ONE_HAND
    endings: tuple[type, ...] = ONE_HAND.endings

    def __init__(self, matches: MatchService, bots: BotRunner) -> None:
        self.matches = matches
        self.bots = bots

    async def load(self, match: RegisteredMatch) -> Loaded[MatchState]:
        return await self.matches.load(match)

    async def finished(self, match: RegisteredMatch) -> bool:
        return (await self.matches.load(match)).state.phase is Phase.MATCH_OVER

    async def command(
        self, match: RegisteredMatch, seat: int, request: CommandRequest
    ) -> Commanded:
        played = await self.matches.handle(match, seat, request)
        return Commanded(self.reached(match, played), await self.bots.answer(match, played))

    async def events(
        self, match: RegisteredMatch, seat: int | None, *, after_version: int
    ) -> list[tuple[int, Event]]:
        return await self.matches.events(match.match_id, seat, after_version=after_version)

    async def joined(self, match: RegisteredMatch) -> None:
        await self.bots.resume(match.match_id)

    async def outcome(self, match: RegisteredMatch) -> Outcome:
        loaded = await self.matches.load(match)
        events = await self.events(match, None, after_version=0)
        return two_player_outcome(loaded.state, [event for _, event in events])

    def recorded(self) -> RecordedMatches:
        return self.matches


class Tables(Audited):
    """Three and four seats: every table's hand in one stream; bots answer within the
    command."""

    kind = TABLES
    endings: tuple[type, ...] = TABLES.endings

    def __init__(self, formats: FormatMatchService) -> None:
        self.formats = formats

    async def load(self, match: RegisteredMatch) -> Loaded[FormatState]:
        return await self.formats.load(match)

    async def finished(self, match: RegisteredMatch) -> bool:
        return (await self.formats.load(match)).state.phase is FormatPhase.MATCH_OVER

    async def command(
        self, match: RegisteredMatch, seat: int, request: CommandRequest
    ) -> Commanded:
        played = await self.formats.handle(
            match, seat, request.command, request.if_match, request.idempotency_key
        )
        # The receipt is of the whole append, the bots' moves within it included.
        return Commanded(self.reached(match, played), played)

    async def events(
        self, match: RegisteredMatch, seat: int | None, *, after_version: int
    ) -> list[tuple[int, FormatEvent]]:
        return await self.formats.events(match, seat, after_version=after_version)

    async def joined(self, match: RegisteredMatch) -> None:
        await self.formats.after_join(match)

    async def outcome(self, match: RegisteredMatch) -> Outcome:
        loaded = await self.formats.load(match)
        events = await self.events(match, None, after_version=0)
        return table_outcome(loaded.state, [event for _, event in events])

    def recorded(self) -> RecordedMatches:
        return self.formats


class MatchPlays:
    def __init__(self, matches: MatchService, bots: BotRunner, formats: FormatMatchService):
        self.two_seats = TwoSeats(matches, bots)
        self.tables = Tables(formats)

    def service_for(self, match: RegisteredMatch) -> MatchPlay:
        """The match's kind chooses (``record_kind``; only ``kind_for`` reads a seat count)."""
        return self.two_seats if record_kind(match) is ONE_HAND else self.tables
