"""``gin verify RECORD.json``: check a game record with nothing but the record.

No database, no network. In order: the record's shape, both hash chains, the fairness stream
(commitments, revealed seeds, the server secret), then every deal recomputed from its seed and
every move, score and bonus re-run through the rules. The first discrepancy is named precisely
and ends the check; the verdict lists each hand (who dealt, how it ended, the score) up to it.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TypeVar

import msgspec

from domain import RuleOptions
from domain.errors import DomainError
from service.audit.event_diff import Discrepancy, name
from service.audit.game_record import (
    FORMAT,
    FORMAT_VERSION,
    GameRecord,
    StreamRecord,
    decode_record,
)
from service.audit.record_kinds import record_kind_of
from service.audit.verify_seeds import check_fairness
from service.fairness.events import (
    FairnessEvent,
    SeedsCommitted,
    decode_fairness,
    fairness_type,
    summary_of,
)
from service.store.hash_chain import GENESIS, link_hash

T = TypeVar("T")

_SCHEMA_VERSIONS = (-(2**31), 2**31 - 1)


class Verdict(msgspec.Struct, frozen=True):
    ok: bool
    lines: list[str]
    problem: str | None = None

    def render(self) -> str:
        verdict = "VERIFIED: every check holds" if self.ok else f"DISCREPANCY: {self.problem}"
        return "\n".join([*self.lines, verdict]) + "\n"


def verify_file(path: Path) -> Verdict:
    try:
        text = path.read_bytes()
    except OSError as error:
        return Verdict(False, [], f"cannot read {path}: {error.strerror}")
    return verify_document(text, str(path))


def verify_document(text: bytes | str, named: str = "the document") -> Verdict:
    """The verdict on a record's JSON text, whatever the text holds."""
    try:
        record = decode_record(text)
    except msgspec.DecodeError as error:
        return Verdict(False, [], f"{named} is not a game record: {error}")
    return verify_record(record)


def verify_record(record: GameRecord) -> Verdict:
    lines: list[str] = []
    try:
        _check(record, lines.append)
    except Discrepancy as problem:
        return Verdict(False, lines, str(problem))
    except Exception as error:
        # A verifier answers every record with a verdict. Every check names what it finds;
        # reaching here is a gap in them, said as such.
        return Verdict(False, lines, f"the record cannot be checked: {name(error)}: {error}")
    return Verdict(True, lines)


def _check(record: GameRecord, report: Callable[[str], None]) -> None:
    if record.format != FORMAT or record.format_version != FORMAT_VERSION:
        raise Discrepancy(f"this is not a {FORMAT} version {FORMAT_VERSION} document")
    match_stream, fairness_stream = record.match_stream, record.fairness_stream
    # The match stream's id says the kind of match; it is in every hash, so it cannot be
    # changed alone.
    kind = record_kind_of(record.match_id, match_stream.stream_id)
    _check_stream_id("match stream", match_stream, kind.stream.stream_id(record.match_id))
    _check_stream_id("fairness stream", fairness_stream, f"fairness-{record.match_id}")
    _check_chain("match stream", match_stream)
    _check_chain("fairness stream", fairness_stream)
    fairness = _decoded("fairness stream", fairness_stream, _fairness, fairness_type)
    events = _decoded("match stream", match_stream, kind.decode, kind.tag)
    plain = [event for _, event in events]
    due = functools.partial(kind.slots_due, events)
    seeds = check_fairness(
        record.match_id, fairness, due, kind.seed_labels(events), kind.seats(plain)
    )
    kind.check_play(events, seeds, report)
    last = events[-1][0] if events else 0
    fairness_events = [event for _, event in fairness]
    _check_summary(record, kind.options(plain), kind.finished(plain), last, fairness_events)


def _check_stream_id(what: str, stream: StreamRecord, expected: str) -> None:
    if stream.stream_id != expected:
        raise Discrepancy(f"the {what} is {stream.stream_id!r}, not {expected!r}")


def _check_chain(what: str, stream: StreamRecord) -> None:
    versions = [event.version for event in stream.events]
    previous = GENESIS
    for expected, event in enumerate(stream.events, 1):
        if event.version != expected:
            raise Discrepancy(f"{what}: {_misplaced(versions, expected, event.version)}")
        where = f"{what} version {expected}"
        if not _SCHEMA_VERSIONS[0] <= event.schema_version <= _SCHEMA_VERSIONS[1]:
            # The chain hashes it as 4 signed bytes: no recorded event has another.
            raise Discrepancy(f"{where}: schema version {event.schema_version} cannot be hashed")
        if event.previous_hash != previous.hex():
            raise Discrepancy(f"{where}: previous_hash does not chain from version {expected - 1}")
        computed = link_hash(
            previous,
            stream.stream_id,
            event.version,
            event.type,
            event.schema_version,
            event.data.encode(),
        )
        if computed.hex() != event.hash:
            raise Discrepancy(
                f"{where}: the hash does not match the event's content chained to version "
                f"{expected - 1} (the event was changed after it was recorded)"
            )
        previous = computed


def _misplaced(versions: Sequence[int], expected: int, found: int) -> str:
    if expected not in versions:
        return f"version {expected} is missing (the record goes on with version {found})"
    if versions.count(found) > 1:
        return f"version {found} appears more than once"
    return f"version {found} comes before version {expected}: the events are out of order"


def _fairness(type: str, schema_version: int, data: bytes) -> FairnessEvent:
    return decode_fairness(data)


def _decoded(
    what: str,
    stream: StreamRecord,
    decode: Callable[[str, int, bytes], T],
    tag: Callable[[T], str],
) -> list[tuple[int, T]]:
    decoded = []
    for event in stream.events:
        where = f"{what} version {event.version}"
        try:
            value = decode(event.type, event.schema_version, event.data.encode())
        except (msgspec.DecodeError, LookupError, DomainError) as error:
            raise Discrepancy(
                f"{where}: the data is not a valid {event.type} event: {error}"
            ) from None
        if tag(value) != event.type:
            raise Discrepancy(f"{where}: the data is a {tag(value)} event, not {event.type}")
        # Older schema versions are upcast when decoded; a newer one is not this verifier's.
        newest = getattr(type(value), "schema_version", 1)
        if not 1 <= event.schema_version <= newest:
            raise Discrepancy(
                f"{where}: schema version {event.schema_version} of {event.type} is not one "
                f"this verifier knows (1 to {newest})"
            )
        decoded.append((event.version, value))
    return decoded


def _check_summary(
    record: GameRecord,
    options: RuleOptions | None,
    finished: bool,
    last: int,
    fairness: Sequence[FairnessEvent],
) -> None:
    """The record's own fields against its streams: ``options`` those the match was created
    with (None: no creation recorded), ``finished`` whether its events end the match."""
    if options is None:
        raise Discrepancy("the match stream holds no events")
    if record.options != options:
        raise Discrepancy("the record's options are not those the match was created with")
    first = fairness[0]
    assert isinstance(first, SeedsCommitted), "checked with the fairness stream"
    summary = summary_of(fairness, first.links)
    for field in summary.__struct_fields__:
        if getattr(summary, field) != getattr(record.fairness, field):
            raise Discrepancy(f"the record's fairness summary differs from its stream in {field}")
    if (record.status == "finished") != finished:
        raise Discrepancy(
            f"the record says the match is {record.status}, but its events end at version "
            f"{last} {'with' if finished else 'without'} the match being won"
        )
