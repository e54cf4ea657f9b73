"""What a signed checkpoint finds in a record file that verifies on its own terms: a record
rewritten with its hash chain recomputed, and a record cut short at a hand boundary: at 2, 3
and 4 seats."""

from __future__ import annotations

import msgspec
import pytest

from adapters.ed25519_signer import verify_ed25519
from adapters.memory.event_store import InMemoryEventStore
from adapters.memory.signer import memory_signer
from service.audit.game_record import GameRecord
from service.audit.notary import Notary
from service.audit.notes import verifier_key
from service.audit.verify import Verdict
from service.audit.verify_notes import check_notes, record_facts
from tests.audit.service_play import played_match
from tests.audit.tampering import (
    Document,
    data,
    document,
    entries,
    kinds,
    rehash,
    set_data,
    verdict,
)

SIGNER = memory_signer()


@pytest.fixture(scope="module", params=[2, 3, 4])
def record(request: pytest.FixtureRequest) -> GameRecord:
    return played_match(21, seats=request.param)


def moves(doc: Document, kind: str) -> list[int]:
    """The indexes of the record's events of ``kind``: a match's own or a table's."""
    return [i for i, entry in enumerate(entries(doc)) if kind in kinds(entry)]


def stream_id(record: GameRecord) -> str:
    return record.match_stream.stream_id


def checked(doc: Document, checkpoints: list[str]) -> Verdict:
    record = msgspec.json.decode(msgspec.json.encode(doc), type=GameRecord)
    streams, blind_of = record_facts(record)
    notes = [(f"checkpoint {n}", text) for n, text in enumerate(checkpoints, 1)]
    return check_notes(notes, [verifier_key(SIGNER)], verify_ed25519, streams, blind_of)


def checkpoints(record: GameRecord) -> list[str]:
    return Notary(SIGNER, InMemoryEventStore()).record_checkpoints(record)


def test_the_record_its_checkpoints_were_made_from_passes(record: GameRecord) -> None:
    verdict = checked(document(record), checkpoints(record))

    assert verdict.ok, verdict.problem
    assert [line.endswith(": the head hash matches") for line in verdict.lines] == [True, True]


def test_an_event_rewritten_with_the_chain_recomputed_no_longer_matches(
    record: GameRecord,
) -> None:
    doc = document(record)
    entry = entries(doc)[moves(doc, "discarded")[0]]
    set_data(entry, {**data(entry), "note": "added later"})
    rehash(doc)
    last = entries(doc)[-1]["version"]
    assert verdict(doc).ok  # the rules ignore the added field, and the chain was recomputed

    found = checked(doc, checkpoints(record))

    assert found.problem is not None
    assert found.problem.startswith(
        f"checkpoint 1: the checkpoint for {stream_id(record)} version {last} was signed "
        "over another head than the stream's hash there"
    )


def test_a_record_cut_short_ends_before_its_checkpoint(record: GameRecord) -> None:
    doc = document(record)
    last_deal = moves(doc, "dealt")[-1]
    del entries(doc)[last_deal:]
    doc["status"] = "in_progress"

    verdict = checked(doc, checkpoints(record))

    assert verdict.problem is not None
    assert verdict.problem.startswith(
        f"checkpoint 1: the checkpoint for {stream_id(record)} version "
    )
    assert verdict.problem.endswith(
        f"is beyond the end of the stream (version {last_deal}): events it covers have been removed"
    )


def test_a_checkpoint_edited_after_signing_is_refused(record: GameRecord) -> None:
    text = checkpoints(record)[0]
    lines = text.split("\n")
    lines[1] = str(int(lines[1]) - 1)

    verdict = checked(document(record), ["\n".join(lines)])

    assert verdict.problem == "checkpoint 1: no valid signature by any of the public keys given"
