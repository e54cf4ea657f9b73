"""Checkpoints and receipts: a stream's head, signed with a key the database never sees.

A hash chain alone shows an edit only to someone who holds a hash from before it: whoever can
write the tables can recompute every later hash and the stream's head. So the service signs
what the head was, and hands the signature out where the database cannot take it back:

- a **checkpoint** (public: ``GET /matches/{id}/checkpoint`` and the game record) names a
  stream, a version and the hash of the event at that version, in the C2SP tlog-checkpoint
  layout (origin, size, base64 hash). It is made only at the end of a game record, a hand
  boundary, whose hash the record publishes anyway.
- a **receipt** (``Gin-Receipt`` on every accepted command, for that seat) names the match
  stream, the version and global position its command reached, and a *blinded* head:
  ``SHA-256("gin-receipt-1" || head hash || blind)``, the blind being the server seed of the
  hand being played (link ``d + 1`` for deal ``d``; 32 zero bytes before the first deal). A
  bare head hash in the middle of a hand would give the cards away: with two consecutive
  heads, a seat could try each card the opponent may have drawn until the hash matched. The
  seed is revealed when the hand ends, and from then on anyone with the record checks the
  receipt.

Both are signed notes (``service.audit.notes``). Anyone who holds one issued after an event
finds any later rewrite of that event, hashes recomputed or not: the head it holds no longer
follows from the stream.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
from collections.abc import Callable, Mapping, Sequence
from typing import Literal

import msgspec

from service.audit.notes import NoteError

ORIGIN_PREFIX = "gin-rummy/"
RECEIPT_HEADER = "gin-rummy receipt v1"
RECEIPT_TAG = b"gin-receipt-1"
NO_BLIND = bytes(32)


class Attestation(msgspec.Struct, frozen=True, kw_only=True):
    """A checkpoint's or a receipt's text, parsed."""

    kind: Literal["checkpoint", "receipt"]
    stream_id: str
    version: int
    value: bytes  # a checkpoint's head hash; a receipt's blinded head
    deal: int | None = None  # receipts: deals made by ``version`` (the blind's hand)
    position: int | None = None  # receipts: the event's position in the global log

    def describe(self) -> str:
        return f"{self.kind} for {self.stream_id} version {self.version}"


def checkpoint_text(stream_id: str, version: int, head: bytes) -> str:
    return f"{ORIGIN_PREFIX}{stream_id}\n{version}\n{base64.b64encode(head).decode()}\n"


def blinded(head: bytes, blind: bytes) -> bytes:
    return hashlib.sha256(RECEIPT_TAG + head + blind).digest()


def receipt_text(
    stream_id: str, version: int, position: int, deal: int, head: bytes, blind: bytes
) -> str:
    return (
        f"{RECEIPT_HEADER}\nstream {stream_id}\nversion {version}\nposition {position}\n"
        f"deal {deal}\nhead {base64.b64encode(blinded(head, blind)).decode()}\n"
    )


def parse_attestation(text: str) -> Attestation:
    lines = text.removesuffix("\n").split("\n")
    try:
        if lines[0] == RECEIPT_HEADER:
            fields = dict(line.split(" ", 1) for line in lines[1:])
            if sorted(fields) != ["deal", "head", "position", "stream", "version"]:
                raise NoteError("a receipt names stream, version, position, deal and head")
            return Attestation(
                kind="receipt",
                stream_id=fields["stream"],
                version=_number(fields["version"]),
                value=_hash(fields["head"]),
                deal=_number(fields["deal"]),
                position=_number(fields["position"]),
            )
        if lines[0].startswith(ORIGIN_PREFIX) and len(lines) >= 3:
            return Attestation(
                kind="checkpoint",
                stream_id=lines[0].removeprefix(ORIGIN_PREFIX),
                version=_number(lines[1]),
                value=_hash(lines[2]),
            )
    except ValueError as error:
        raise NoteError(f"not a checkpoint or receipt: {error}") from error
    raise NoteError("neither a gin-rummy checkpoint nor a receipt")


def _number(text: str) -> int:
    if not text.isdigit():
        raise NoteError(f"{text!r} is not a number")
    return int(text)


def _hash(text: str) -> bytes:
    try:
        value = base64.b64decode(text, validate=True)
    except binascii.Error as error:
        raise NoteError(f"{text!r} is not base64") from error
    if len(value) != 32:
        raise NoteError("a hash is 32 bytes")
    return value


class StreamFacts(msgspec.Struct, frozen=True, kw_only=True):
    """What a checker knows of one stream: the hash at each version it shows (index 0 is
    version 1), the deals made by each version, and whether this is the whole stream (the
    database, or a finished match) or a part that ends at a hand boundary."""

    hashes: list[bytes]
    deals: list[int]
    complete: bool


def check_attestation(
    found: Attestation,
    streams: Mapping[str, StreamFacts],
    blind_of: Callable[[int], bytes | None],
) -> tuple[str | None, str | None]:
    """(a discrepancy, or None; else a line saying what was checked or why it cannot be yet).

    ``blind_of(deal)`` is the blind of a receipt issued during that deal, None if the seed
    is not known yet (the hand is still being played)."""
    facts = streams.get(found.stream_id)
    if facts is None:
        return f"the {found.describe()} names a stream this match does not have", None
    end = len(facts.hashes)
    if found.version < 1:
        return f"the {found.describe()} names no event", None
    if found.version > end:
        # A checkpoint is only made at a record's end, and a later record never ends sooner;
        # a receipt from a deal the record has finished lies within it too.
        finished = found.deal is not None and found.deal <= (facts.deals[-1] if facts.deals else 0)
        if facts.complete or found.kind == "checkpoint" or finished:
            return (
                f"the {found.describe()} is beyond the end of the stream (version {end}): "
                "events it covers have been removed",
                None,
            )
        return None, f"{found.describe()}: past the record's end, not checkable yet"
    head = facts.hashes[found.version - 1]
    if found.kind == "checkpoint":
        if head != found.value:
            return _rewritten(found, head), None
        return None, f"{found.describe()}: the head hash matches"
    deals = facts.deals[found.version - 1]
    if found.deal != deals:
        return (
            f"the {found.describe()} was issued during deal {found.deal}, but the stream has "
            f"{deals} deals by that version: history was rewritten after it was issued",
            None,
        )
    blind = blind_of(deals)
    if blind is None:
        return None, f"{found.describe()}: deal {deals} is not finished, not checkable yet"
    if blinded(head, blind) != found.value:
        return _rewritten(found, head), None
    return None, f"{found.describe()}: the blinded head matches"


def _rewritten(found: Attestation, head: bytes) -> str:
    return (
        f"the {found.describe()} was signed over another head than the stream's hash there "
        f"({head.hex()[:16]}...): history up to version {found.version} was rewritten after "
        "it was issued"
    )


def stream_facts(hashes: Sequence[bytes], types: Sequence[str], *, complete: bool) -> StreamFacts:
    deals: list[int] = []
    count = 0
    for type in types:
        count += type == "dealt"
        deals.append(count)
    return StreamFacts(hashes=list(hashes), deals=deals, complete=complete)


class _Tagged(msgspec.Struct):
    type: str = ""


class _Nested(msgspec.Struct):
    event: _Tagged | None = None


_nested = msgspec.json.Decoder(_Nested)


def with_table_deals(facts: StreamFacts, events: Sequence[tuple[str, bytes | str]]) -> StreamFacts:
    """``facts`` with deals counted wherever a stream keeps them: a three- or four-player
    match stores each table's deal inside a ``table_event``. ``events``: each event's type and
    data, in order."""
    deals: list[int] = []
    count = 0
    for type, data in events:
        if type == "dealt":
            count += 1
        elif type == "table_event":
            try:
                nested = _nested.decode(data).event
            except msgspec.DecodeError:  # a mangled event deals nothing; the checks say so
                nested = None
            count += nested is not None and nested.type == "dealt"
        deals.append(count)
    return msgspec.structs.replace(facts, deals=deals)
