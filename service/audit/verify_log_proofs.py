"""A receipt's event checked against a log checkpoint with an inclusion proof, from a finished
match's record: what a player can do without the store.

The receipt names the event (stream, version, position in the log); the record gives its hash
and, once the match is over, the match's secret, whose hash blinds the event's leaf
(``service.audit.log_tree``). Together they make the leaf; the proof
(``GET /log/proofs/inclusion``) leads from it to a head, which must be the one the log
checkpoint of the proof's size signs. So the event the player was given a receipt for is in
the one log the service signs, as anyone holding that checkpoint (a witness) sees it.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence

import msgspec

from service.audit.checkpoints import Attestation, parse_attestation
from service.audit.game_record import GameRecord
from service.audit.log_checkpoints import parse_log_checkpoint
from service.audit.log_proofs import InclusionProof, decoded
from service.audit.log_tree import BLIND_TAG, NO_BLIND, leaf_hash, leaf_of
from service.audit.merkle_proofs import root_from_inclusion
from service.audit.notes import NoteError, VerifierKey, parse_note, signed_by
from service.audit.verify import Verdict
from service.ports.signer import SignatureCheck

Given = tuple[str, str]  # (where it came from, its text)


def check_log_proofs(
    record: GameRecord,
    proofs: Sequence[Given],
    log_checkpoints: Sequence[Given],
    receipts: Sequence[Given],
    keys: Sequence[VerifierKey],
    check: SignatureCheck,
) -> Verdict:
    """Each proof against the receipt of its position and the log checkpoint of its size."""
    lines: list[str] = []
    try:
        heads = dict(_log_heads(log_checkpoints, keys, check))
        by_position = _receipts(receipts, keys, check)
    except NoteError as error:
        return Verdict(False, lines, str(error))
    for source, text in proofs:
        try:
            proof = msgspec.json.decode(text, type=InclusionProof)
            path = decoded(proof.audit_path)
        except (msgspec.DecodeError, ValueError) as error:
            return Verdict(False, lines, f"{source}: not an inclusion proof: {error}")
        receipt = by_position.get(proof.position)
        if receipt is None:
            return Verdict(
                False, lines, f"{source}: no receipt given for position {proof.position}"
            )
        if proof.tree_size not in heads:
            problem = f"{source}: no log checkpoint of {proof.tree_size} events given"
            return Verdict(False, lines, problem)
        if record.fairness.secret is None:
            # The leaf's blind is unknown, and the event may be in the hand being played.
            lines.append(f"{source}: not checkable yet: the match is not over")
            continue
        event_hash = _event_hash(record, receipt)
        if isinstance(event_hash, str):
            return Verdict(False, lines, f"{source}: {event_hash}")
        blind = hashlib.sha256(BLIND_TAG + bytes.fromhex(record.fairness.secret)).digest()
        place = (receipt.stream_id, receipt.version, proof.position, event_hash)
        # A leaf is bare only for a three- or four-player event written before the second
        # leaf rule; either leaf in the signed tree shows this very event is.
        found = [
            root_from_inclusion(
                proof.leaf_index, proof.tree_size, leaf_hash(leaf_of(*place, b)), path
            )
            for b in (blind, NO_BLIND)
        ]
        if heads[proof.tree_size] not in found:
            problem = (
                f"{source}: the receipt's event ({receipt.stream_id} version {receipt.version}) "
                f"is not in the log the checkpoint of {proof.tree_size} events signs"
            )
            return Verdict(False, lines, problem)
        lines.append(
            f"{source}: {receipt.stream_id} version {receipt.version} is event "
            f"{proof.leaf_index + 1} of the signed log of {proof.tree_size} events"
        )
    return Verdict(True, lines)


def _log_heads(
    given: Sequence[Given], keys: Sequence[VerifierKey], check: SignatureCheck
) -> list[tuple[int, bytes]]:
    heads = []
    for source, text in given:
        try:
            note = parse_note(text)
            if signed_by(note, list(keys), check) is None:
                raise NoteError("no valid signature by any of the public keys")
            heads.append(parse_log_checkpoint(note.text))
        except NoteError as error:
            raise NoteError(f"{source}: {error}") from error
    return heads


def _receipts(
    given: Sequence[Given], keys: Sequence[VerifierKey], check: SignatureCheck
) -> dict[int, Attestation]:
    found = {}
    for source, text in given:
        try:
            note = parse_note(text)
            if signed_by(note, list(keys), check) is None:
                raise NoteError("no valid signature by any of the public keys")
            attestation = parse_attestation(note.text)
        except NoteError as error:
            raise NoteError(f"{source}: {error}") from error
        if attestation.kind == "receipt" and attestation.position is not None:
            found[attestation.position] = attestation
    return found


def _event_hash(record: GameRecord, receipt: Attestation) -> bytes | str:
    for stream in (record.match_stream, record.fairness_stream):
        if stream.stream_id == receipt.stream_id:
            for event in stream.events:
                if event.version == receipt.version:
                    return bytes.fromhex(event.hash)
            return f"the record has no version {receipt.version} of {receipt.stream_id}"
    return f"the receipt is of {receipt.stream_id}, not of this record's match"
