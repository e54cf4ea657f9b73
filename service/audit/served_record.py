"""A match's game record as the API serves it: the fairness stream brought up to date first,
then both streams read as stored."""

from __future__ import annotations

from service.audit.game_record import GameRecord, build_record
from service.fairness.log import fairness_stream
from service.matches.use_cases import MatchService
from service.store.match_streams import stream_id


async def served_record(matches: MatchService, match_id: str) -> tuple[GameRecord, int]:
    """The record, and the match's version now (past the record's end if a hand is on)."""
    match = await matches.match(match_id)
    loaded = await matches.load(match_id)
    await matches.fairness.sync(match, loaded.state)
    store = matches.streams.store
    # Only what the synced state covers: a hand that ends meanwhile waits for the next record.
    events = [
        record
        for record in await store.read_stream(stream_id(match_id))
        if record.version <= loaded.version
    ]
    fairness = await store.read_stream(fairness_stream(match_id))
    return build_record(match, events, fairness), loaded.version
