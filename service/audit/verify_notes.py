"""Checking a record, or the stored streams, against signed checkpoints and receipts.

Each note must carry a valid signature by one of the public keys given; then the head it
signed must follow from the stream at its version. A note issued after an event that has
since been rewritten (hashes recomputed or not) fails the second check: that is the only way
a rewrite by someone who can write the database and recompute every hash is found.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from service.audit.checkpoints import (
    NO_BLIND,
    StreamFacts,
    check_attestation,
    parse_attestation,
    stream_facts,
)
from service.audit.game_record import GameRecord, StreamRecord
from service.audit.notes import NoteError, VerifierKey, parse_note, signed_by
from service.audit.verify import Verdict
from service.fairness.seeds import deal_link, server_seed
from service.ports.event_store import StoredEvent
from service.ports.signer import SignatureCheck

BlindOf = Callable[[int], bytes | None]


def check_notes(
    notes: Sequence[tuple[str, str]],
    keys: Sequence[VerifierKey],
    check: SignatureCheck,
    streams: Mapping[str, StreamFacts],
    blind_of: BlindOf,
) -> Verdict:
    """``notes``: (where it came from, its text) each. Stops at the first discrepancy."""
    lines: list[str] = []
    for source, text in notes:
        try:
            note = parse_note(text)
            found = parse_attestation(note.text)
        except NoteError as error:
            return Verdict(False, lines, f"{source}: {error}")
        key = signed_by(note, list(keys), check)
        if key is None:
            problem = f"{source}: no valid signature by any of the public keys given"
            return Verdict(False, lines, problem)
        discrepancy, line = check_attestation(found, streams, blind_of)
        if discrepancy is not None:
            return Verdict(False, lines, f"{source}: {discrepancy}")
        lines.append(f"{source} (signed by {key.name}): {line}")
    return Verdict(True, lines)


def record_facts(record: GameRecord) -> tuple[dict[str, StreamFacts], BlindOf]:
    """What a record shows: its streams up to its end, and the seeds revealed so far."""
    complete = record.status == "finished"
    streams = {
        stream.stream_id: _record_stream(stream, complete)
        for stream in (record.match_stream, record.fairness_stream)
    }
    seeds = {revealed.step: bytes.fromhex(revealed.seed) for revealed in record.fairness.revealed}

    def blind_of(deal: int) -> bytes | None:
        return NO_BLIND if deal == 0 else seeds.get(f"deal {deal}")

    return streams, blind_of


def _record_stream(stream: StreamRecord, complete: bool) -> StreamFacts:
    return stream_facts(
        [bytes.fromhex(e.hash) for e in stream.events],
        [e.type for e in stream.events],
        complete=complete,
    )


def stored_facts(
    streams: Sequence[Sequence[StoredEvent]], secret: bytes, links: int
) -> tuple[dict[str, StreamFacts], BlindOf]:
    """What the database shows: whole streams, and every seed from the match's secret."""
    facts = {
        events[0].stream_id: stream_facts(
            [e.hash for e in events], [e.type for e in events], complete=True
        )
        for events in streams
        if events
    }

    def blind_of(deal: int) -> bytes:
        return NO_BLIND if deal == 0 else server_seed(secret, deal_link(deal), links)

    return facts, blind_of


def record_notes(record: GameRecord) -> list[tuple[str, str]]:
    return [(f"record checkpoint {n}", text) for n, text in enumerate(record.checkpoints, 1)]


def joined(first: Verdict, second: Verdict) -> Verdict:
    return Verdict(
        first.ok and second.ok, first.lines + second.lines, first.problem or second.problem
    )
