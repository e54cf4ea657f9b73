"""A finished hand's history in a three- or four-player match: the two-player hand's history
(``service.audit.hand_history``) of its table, in table seats, headed by the round, the table
and which match seats sit there. Hands are numbered through the match in the order dealt, at
every table, as their seeds are."""

from __future__ import annotations

from domain.events import Dealt, HandDrawn, Scored
from domain.formats import FormatEvent, FormatState, TableEvent, evolve_format
from service.audit.game_record import GameRecord
from service.audit.hand_history import told_hand
from service.errors import HandNotFinished
from service.store.codec import TABLE_EVENTS


def record_format_events(record: GameRecord) -> list[tuple[int, FormatEvent]]:
    return [
        (e.version, TABLE_EVENTS.decode(e.type, e.schema_version, e.data.encode()))
        for e in record.match_stream.events
    ]


def format_hand_history(record: GameRecord, deal: int) -> str:
    events = record_format_events(record)
    state = FormatState()
    dealt = 0
    for index, (_, event) in enumerate(events):
        if isinstance(event, TableEvent) and isinstance(event.event, Dealt):
            dealt += 1
            if dealt == deal:
                return _told(record, state, events[index:], deal)
        state = evolve_format(state, event)
    raise HandNotFinished(f"hand {deal} of the match is not finished (or not dealt)")


def _told(
    record: GameRecord, state: FormatState, events: list[tuple[int, FormatEvent]], deal: int
) -> str:
    first = events[0][1]
    assert isinstance(first, TableEvent)
    table = first.table
    hand = [(v, e.event) for v, e in events if isinstance(e, TableEvent) and e.table == table]
    if not any(isinstance(event, Scored | HandDrawn) for _, event in hand):
        raise HandNotFinished(f"hand {deal} of the match is not finished")
    first_seat, second_seat = first.seats
    where = (
        f"round {state.round}, table {table}; table seats 0 and 1 are seats {first_seat} "
        f"and {second_seat} of the match"
    )
    return told_hand(record.match_id, state.tables[table].state, hand, record.fairness, deal, where)
