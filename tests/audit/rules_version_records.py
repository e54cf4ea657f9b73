"""Three-player records with a hand won for 0 points, one of each rules version, for the
verifiers' tests (``gin verify`` and the browser's): a match played now, and one kept in
``records/`` as the release before rules versions made it."""

from __future__ import annotations

from pathlib import Path

import msgspec

from domain import RuleOptions
from tests.audit.service_play import play_match
from tests.audit.tampering import Document, data, entries, rehash, set_data

RECORDS = Path(__file__).parent / "records"
# Made by the release before rules versions, with ZERO_BONUSES: its first hand is a tied
# knock, an undercut worth 0, and the round after it is dealt again by the same dealer.
UNVERSIONED_RECORD = RECORDS / "three_players_zero_point_undercut_rules_1.json"
SEEDS_SEARCHED = 200
ZERO_BONUSES = RuleOptions(undercut_bonus=0, gin_bonus=0, game_target=30, match_target=0)


def unversioned_record() -> Document:
    doc: Document = msgspec.json.decode(UNVERSIONED_RECORD.read_bytes())
    return doc


async def current_record() -> Document:
    """A three-player match played now with a hand won for 0 points: the first seed whose
    match has one (the seed fixes the server secret too, so the search always ends at the
    same match)."""
    for seed in range(SEEDS_SEARCHED):
        record = await play_match(seed, seats=3, options=ZERO_BONUSES)
        doc: Document = msgspec.json.decode(msgspec.json.encode(record))
        if zero_point_rounds(doc):
            return doc
    raise AssertionError(f"no match of {SEEDS_SEARCHED} had a hand won for 0 points")


def zero_point_rounds(doc: Document) -> list[Document]:
    """The round scores that follow a hand scored for 0 points by its winner."""
    found, ended = [], None
    for entry in entries(doc):
        event = data(entry)
        if event["type"] == "table_event" and event["event"]["type"] == "scored":
            ended = event["event"]
        elif event["type"] == "round_scored":
            if ended is not None and ended["winner"] is not None and ended["points"] == 0:
                found.append(event)
            ended = None
    return found


def created(doc: Document) -> Document:
    first = data(entries(doc)[0])
    assert first["type"] == "format_match_created"
    return first


def with_rules_version(doc: Document, version: int | None) -> Document:
    """A copy of ``doc`` whose match names ``version`` (None: no version), every hash of its
    match stream recomputed."""
    changed: Document = msgspec.json.decode(msgspec.json.encode(doc))
    event = {key: value for key, value in created(changed).items() if key != "rules_version"}
    if version is not None:
        event["rules_version"] = version
    set_data(entries(changed)[0], event)
    rehash(changed)
    return changed
