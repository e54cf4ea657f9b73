"""The game record of a three- or four-player match: the same document as a two-player
match's (``service.audit.game_record``), holding the match's own stream (``format-match-<id>``)
and its fairness stream.

A match in progress is recorded up to the start of the round being played: every table's
hand of that round is left out until the round is over, so the record (and the fairness
records it needs) tells nobody a card of a hand in play, at either table. A match that is
over, won or ended otherwise, is recorded whole.
"""

from __future__ import annotations

from collections.abc import Sequence

from domain.events import HandDrawn, Scored
from domain.formats import (
    FORMAT_MATCH_ENDING_TYPES,
    FORMAT_MATCH_ENDINGS,
    FormatMatchCreated,
    TableEvent,
    fold_format,
)
from service.audit.game_record import GameRecord, record_of
from service.fairness.log import fairness_stream
from service.formats.fairness import format_fairness_slots
from service.matches.formats import FormatMatchService
from service.ports.event_store import StoredEvent
from service.ports.match_registry import RegisteredMatch
from service.store.codec import TABLE_EVENTS
from service.store.match_streams import THREE_OR_FOUR_SEATS


def build_format_record(
    match: RegisteredMatch,
    match_events: Sequence[StoredEvent],
    fairness_events: Sequence[StoredEvent],
) -> GameRecord:
    kept = finished_rounds(match_events)
    events = [TABLE_EVENTS.from_record(record) for record in kept]
    created = next((e for e in events if isinstance(e, FormatMatchCreated)), None)
    return record_of(
        match,
        stream=THREE_OR_FOUR_SEATS.stream_id(match.match_id),
        kept=kept,
        left_out=len(match_events) - len(kept),
        fairness_events=fairness_events,
        due=lambda links: len(format_fairness_slots(fold_format(events), links)),
        options=created.options if created is not None else None,
        finished=any(isinstance(e, FORMAT_MATCH_ENDINGS) for e in events),
        hands_finished=sum(
            isinstance(e, TableEvent) and isinstance(e.event, Scored | HandDrawn) for e in events
        ),
    )


def finished_rounds(records: Sequence[StoredEvent]) -> Sequence[StoredEvent]:
    """The events up to the start of the round being played; all of them once the match is
    over: no round starts after it is won, and a match that ended mid-round reveals every
    hand, as its seeds are revealed then."""
    if any(record.type in FORMAT_MATCH_ENDING_TYPES for record in records):
        return records
    last_start = max(
        (index for index, record in enumerate(records) if record.type == "round_started"),
        default=None,
    )
    return records if last_start is None else records[: last_start + 1]


async def served_format_record(
    formats: FormatMatchService, match: RegisteredMatch
) -> tuple[GameRecord, int]:
    """The record, and the match's version now; the fairness stream is brought up to date
    first, as for a two-player match."""
    loaded = await formats.load(match)
    await formats.sync_fairness(match, loaded.state)
    store = formats.streams.store
    events = [
        record
        for record in await store.read_stream(THREE_OR_FOUR_SEATS.stream_id(match.match_id))
        if record.version <= loaded.version
    ]
    fairness = await store.read_stream(fairness_stream(match.match_id))
    return build_format_record(match, events, fairness), loaded.version
