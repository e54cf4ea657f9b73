"""What the audit of a match needs to know about its kind: one row per kind of match stream
(``service.store.match_streams``), so that recording, replaying, telling a hand and verifying
each take one path at every table size.

A two-player match's stream holds one hand at a time; a three- or four-player match's holds
every table's hand of a round, each event of a table wrapped with its table. The hooks below
are where that difference matters, each named for what it answers.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from domain import Event, HandDrawn, MatchCreated, MatchState, RuleOptions, Scored
from domain.events import MATCH_ENDINGS, event_type
from domain.tables import (
    FORMAT_MATCH_ENDINGS,
    FormatEvent,
    FormatMatchCreated,
    TableEvent,
    TablesState,
)
from service.audit.game_record import GameRecord, finished_hands, finished_rounds
from service.audit.hand_history import hand_history, table_hand_history
from service.audit.replay import FormatReplayState, ReplayState, replay_state, tables_replay_state
from service.audit.verify_play import Report, check_play, check_tables_play
from service.audit.verify_seeds import (
    SeedBook,
    hand_labels,
    hand_slots_due,
    table_labels,
    table_slots_due,
)
from service.fairness.events import FairnessView, Slot
from service.matches.outcome import Outcome, table_outcome, two_player_outcome
from service.ports.event_store import StoredEvent
from service.ports.match_registry import RegisteredMatch
from service.store.codec import TABLE_EVENTS, TWO_SEAT_EVENTS, tag_of
from service.store.match_streams import THREE_OR_FOUR_SEATS, TWO_SEATS, StreamKind, kind_for

S = TypeVar("S")
E = TypeVar("E")


@dataclass(frozen=True)
class RecordKind(Generic[S, E]):
    stream: StreamKind[S, E]
    decode: Callable[[str, int, bytes], E]  # a stored event, upcast
    tag: Callable[[E], str]  # the type an event is stored under
    created: type  # the event a match begins with; it holds the rule options
    endings: tuple[type, ...]  # the events that end the match
    ends_hand: Callable[[E], bool]  # whether an event ends one table's hand
    # The stored events a record holds of a match in progress: none of a hand in play.
    finished_part: Callable[[Sequence[StoredEvent]], Sequence[StoredEvent]]
    # The verifier's rule, from the recorded events alone, and what each link seeded.
    slots_due: Callable[[Sequence[tuple[int, E]], int], list[Slot]]
    seed_labels: Callable[[Sequence[tuple[int, E]]], dict[int, str]]
    check_play: Callable[[Sequence[tuple[int, E]], SeedBook, Report], object]
    replay: Callable[[str, Sequence[tuple[int, E]], int, int], ReplayState | FormatReplayState]
    hand_history: Callable[[str, Sequence[tuple[int, E]], FairnessView, int], str]
    fewest_seats: int
    outcome: Callable[[S, Sequence[E]], Outcome]  # how the match stands, at every size

    def events(self, record: GameRecord) -> list[tuple[int, E]]:
        """The record's match events, decoded as they stand (``service.audit.verify``
        checks them)."""
        return [
            (e.version, self.decode(e.type, e.schema_version, e.data.encode()))
            for e in record.match_stream.events
        ]

    def options(self, events: Sequence[E]) -> RuleOptions | None:
        created = next((e for e in events if isinstance(e, self.created)), None)
        options: RuleOptions | None = getattr(created, "options", None)
        return options

    def finished(self, events: Sequence[E]) -> bool:
        return any(isinstance(e, self.endings) for e in events)

    def seats(self, events: Sequence[E]) -> int:
        """The seats whose entropy the fairness stream holds."""
        created = next((e for e in events if isinstance(e, self.created)), None)
        return int(getattr(created, "players", self.fewest_seats))


def _ends_table_hand(event: FormatEvent) -> bool:
    return isinstance(event, TableEvent) and isinstance(event.event, Scored | HandDrawn)


ONE_HAND: RecordKind[MatchState, Event] = RecordKind(
    stream=TWO_SEATS,
    decode=TWO_SEAT_EVENTS.decode,
    tag=event_type,
    created=MatchCreated,
    endings=MATCH_ENDINGS,
    ends_hand=lambda event: isinstance(event, Scored | HandDrawn),
    finished_part=finished_hands,
    slots_due=hand_slots_due,
    seed_labels=hand_labels,
    check_play=check_play,
    replay=replay_state,
    hand_history=hand_history,
    fewest_seats=2,
    outcome=two_player_outcome,
)
TABLES: RecordKind[TablesState, FormatEvent] = RecordKind(
    stream=THREE_OR_FOUR_SEATS,
    decode=TABLE_EVENTS.decode,
    tag=tag_of,
    created=FormatMatchCreated,
    endings=FORMAT_MATCH_ENDINGS,
    ends_hand=_ends_table_hand,
    finished_part=finished_rounds,
    slots_due=table_slots_due,
    seed_labels=table_labels,
    check_play=check_tables_play,
    replay=tables_replay_state,
    hand_history=table_hand_history,
    fewest_seats=3,
    outcome=table_outcome,
)
_BY_STREAM: dict[str, RecordKind[Any, Any]] = {
    kind.stream.prefix: kind for kind in (ONE_HAND, TABLES)
}


def record_kind(match: RegisteredMatch) -> RecordKind[Any, Any]:
    return _BY_STREAM[kind_for(len(match.seats)).prefix]


def record_kind_of(match_id: str, stream: str) -> RecordKind[Any, Any]:
    """The kind a record's match stream (its id, which every hash covers) says it is of; a
    stream id of no kind is checked as a two-player one's, and refused as such."""
    for kind in _BY_STREAM.values():
        if kind.stream.stream_id(match_id) == stream:
            return kind
    return ONE_HAND
