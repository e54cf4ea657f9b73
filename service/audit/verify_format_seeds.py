"""Checking a three- or four-player record's fairness stream: the records due are worked out
from the recorded events alone (not from the service's own rule in ``service.formats``): a
deal's seed is due once its hand and every hand dealt before it are over, a round's new
commitments before its seeds, every seed and the server secret once the match is over."""

from __future__ import annotations

from collections.abc import Sequence

from domain.events import Dealt, HandDrawn, Scored
from domain.formats import (
    FORMAT_MATCH_ENDINGS,
    FormatEvent,
    FormatMatchCreated,
    RoundStarted,
    SeatsCut,
    TableEvent,
)
from service.audit.verify_seeds import SeedBook, check_seeds
from service.fairness.events import FairnessEvent, Slot, slots_revealing
from service.fairness.seeds import CUT_LINK


def check_format_fairness(
    match_id: str,
    fairness: Sequence[tuple[int, FairnessEvent]],
    events: Sequence[tuple[int, FormatEvent]],
) -> SeedBook:
    created = next((e for _, e in events if isinstance(e, FormatMatchCreated)), None)
    players = created.players if created is not None else 3
    return check_seeds(
        match_id, fairness, lambda links: _due(events, players, links), _labels(events), players
    )


def _due(events: Sequence[tuple[int, FormatEvent]], players: int, links: int) -> list[Slot]:
    deals = 0
    playing: dict[int, int] = {}  # by table: the deal its hand came from
    over: set[int] = set()  # deals whose hand has ended
    for _, event in events:
        if isinstance(event, TableEvent) and isinstance(event.event, Dealt):
            deals += 1
            playing[event.table] = deals
        elif isinstance(event, TableEvent) and isinstance(event.event, Scored | HandDrawn):
            over.add(playing.get(event.table, 0))
    match_over = any(isinstance(e, FORMAT_MATCH_ENDINGS) for _, e in events)
    revealed = deals if match_over else 0
    while revealed + 1 in over:
        revealed += 1
    return slots_revealing(
        cut=any(isinstance(e, SeatsCut) for _, e in events),
        deals=deals,
        revealed=revealed,
        match_over=match_over,
        links=links,
        deals_per_round=2 if players == 4 else 1,
    )


def _labels(events: Sequence[tuple[int, FormatEvent]]) -> dict[int, str]:
    labels = {CUT_LINK: "the cut"}
    round_number, deals = 0, 0
    for _, event in events:
        if isinstance(event, RoundStarted):
            round_number = event.round
        elif isinstance(event, TableEvent) and isinstance(event.event, Dealt):
            deals += 1
            labels[deals + 1] = f"round {round_number} table {event.table}"
    return labels
