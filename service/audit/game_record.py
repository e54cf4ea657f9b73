"""A match's game record: one self-contained JSON document that anyone can verify offline.

It holds the rule options, the seats (never a token), the fairness summary, and both of the
match's streams as stored: every event with its version, type, schema version, its data as the
exact JSON text that was hashed, its hash and the hash before it. A match in progress is
recorded up to the end of its last finished hand, or at three and four seats up to the start
of the round being played: a hand in play is left out entirely (``events_left_out`` counts its
events), so the record holds nothing a seat may not know, at any table. Every kind of match
is recorded alike; ``service.audit.record_kinds`` says where the kinds differ.
``docs/audit.md`` describes the format for anyone writing their own verifier.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import TYPE_CHECKING, Any, Literal

import msgspec

from domain import RuleOptions
from domain.errors import DomainError
from domain.events import MATCH_ENDING_TYPES
from domain.tables import FORMAT_MATCH_ENDING_TYPES
from service.fairness.events import (
    FairnessView,
    SeedsCommitted,
    decode_fairness,
    fairness_slots,
    summary_of,
)
from service.fairness.log import fairness_stream
from service.ports.event_store import StoredEvent
from service.ports.match_registry import RegisteredMatch
from service.store.hash_chain import GENESIS

if TYPE_CHECKING:
    from service.audit.record_kinds import RecordKind

FORMAT = "gin-rummy-record"
FORMAT_VERSION = 1

Status = Literal["waiting_for_opponent", "in_progress", "finished"]


class EventEntry(msgspec.Struct, frozen=True, kw_only=True):
    """One event as stored; ``data`` is the exact UTF-8 JSON text its hash covers."""

    version: int
    type: str
    schema_version: int
    data: str
    hash: str
    previous_hash: str


class StreamRecord(msgspec.Struct, frozen=True, kw_only=True):
    stream_id: str
    events: list[EventEntry]


class RecordSeat(msgspec.Struct, frozen=True, kw_only=True):
    seat: int
    joined: bool
    external_player_id: str | None = None
    bot: str | None = None  # the level of a seat the server played
    display_name: str | None = None  # the name of the player account holding it, if any


class GameRecord(msgspec.Struct, frozen=True, kw_only=True):
    format: str = FORMAT
    format_version: int = FORMAT_VERSION
    match_id: str
    external_ref: str | None
    created_at: datetime
    status: Status
    options: RuleOptions
    seats: list[RecordSeat]
    hands_finished: int
    events_left_out: int
    fairness: FairnessView
    match_stream: StreamRecord
    fairness_stream: StreamRecord
    # Signed checkpoints of both streams at the record's end (``service.audit.checkpoints``).
    checkpoints: list[str] = msgspec.field(default_factory=list)


class FairnessBehind(Exception):  # noqa: N818
    """The fairness stream lacks records the match's finished hands need."""


def build_record(
    kind: RecordKind[Any, Any],
    match: RegisteredMatch,
    match_events: Sequence[StoredEvent],
    fairness_events: Sequence[StoredEvent],
) -> GameRecord:
    """The record of a match of ``kind`` from its stored streams."""
    kept = kind.finished_part(match_events)
    events = [kind.stream.codec.from_record(record) for record in kept]
    options = kind.options(events)
    first_commit = decode_fairness(fairness_events[0].data) if fairness_events else None
    if options is None or not isinstance(first_commit, SeedsCommitted):
        raise FairnessBehind(f"match {match.match_id} has not been fully created")
    links = first_commit.links
    state = kind.stream.fold(events, kind.stream.initial())
    needed = len(fairness_slots(kind.stream.rules.seeds(state), links))
    if len(fairness_events) < needed:
        raise FairnessBehind(
            f"match {match.match_id}: the fairness stream holds {len(fairness_events)} "
            f"records where its finished hands need {needed}"
        )
    fairness = [decode_fairness(record.data) for record in fairness_events[:needed]]
    status: Status = "finished"  # a no-show ends a match nobody joined
    if not kind.finished(events):
        status = "in_progress" if match.full else "waiting_for_opponent"
    return GameRecord(
        match_id=match.match_id,
        external_ref=match.external_ref,
        created_at=match.created_at,
        status=status,
        options=options,
        seats=[
            RecordSeat(
                seat=seat.seat,
                joined=seat.token_hash is not None or seat.bot is not None,
                external_player_id=seat.external_player_id,
                bot=seat.bot,
            )
            for seat in match.seats
        ],
        hands_finished=sum(kind.ends_hand(event) for event in events),
        events_left_out=len(match_events) - len(kept),
        fairness=summary_of(fairness, links),
        match_stream=stream_record(kind.stream.stream_id(match.match_id), kept),
        fairness_stream=stream_record(fairness_stream(match.match_id), fairness_events[:needed]),
    )


def finished_hands(records: Sequence[StoredEvent]) -> Sequence[StoredEvent]:
    """A two-player match's events before the hand in progress (all of them when no hand is
    in progress: a match that ended mid-hand has none)."""
    last_deal = None
    for index, record in enumerate(records):
        if record.type == "dealt":
            last_deal = index
        elif record.type in ("scored", "hand_drawn", *MATCH_ENDING_TYPES):
            last_deal = None
    return records if last_deal is None else records[:last_deal]


def finished_rounds(records: Sequence[StoredEvent]) -> Sequence[StoredEvent]:
    """A three- or four-player match's events up to the start of the round being played
    (every table's hand of it is left out until the round is over); all of them once the
    match is over: no round starts after it is won, and a match that ended mid-round reveals
    every hand, as its seeds are revealed then."""
    if any(record.type in FORMAT_MATCH_ENDING_TYPES for record in records):
        return records
    last_start = max(
        (index for index, record in enumerate(records) if record.type == "round_started"),
        default=None,
    )
    return records if last_start is None else records[: last_start + 1]


def stream_record(stream: str, records: Sequence[StoredEvent]) -> StreamRecord:
    events = []
    previous = GENESIS
    for record in records:
        events.append(
            EventEntry(
                version=record.version,
                type=record.type,
                schema_version=record.schema_version,
                data=record.data.decode(),
                hash=record.hash.hex(),
                previous_hash=previous.hex(),
            )
        )
        previous = record.hash
    return StreamRecord(stream_id=stream, events=events)


def decode_record(data: bytes | str) -> GameRecord:
    """The record in ``data``; ``msgspec.DecodeError`` if it is not one (rule options out of
    their range included: the domain refuses them with its own error)."""
    try:
        return msgspec.json.decode(data, type=GameRecord)
    except DomainError as error:
        raise msgspec.ValidationError(f"the record's options: {error}") from None
