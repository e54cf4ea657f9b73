"""``gin verify RECORD.json`` and ``gin audit MATCH_ID``: the two ways to check a match.

``verify`` needs nothing but the record file. ``audit`` reads the match from the database and
checks what a record cannot show on its own: that every stored hash still chains to the
stream's head (so a row edited in place, even with its own hash recomputed, is found; one
whose every later hash and the head were recomputed too is not), and that
the match's stored secret gives the commitment the match published; then it verifies the
record built from those rows exactly as ``verify`` would.
"""

from __future__ import annotations

import argparse
import asyncio
import uuid
from pathlib import Path

import msgspec

from adapters.ed25519_signer import verify_ed25519
from adapters.postgres.database import open_database
from adapters.postgres.event_store import open_pool
from domain.errors import DomainError
from service.audit.checkpoints import with_table_deals
from service.audit.game_record import FairnessBehind, GameRecord, build_record, decode_record
from service.audit.log_checkpoints import check_log_checkpoints
from service.audit.notes import NoteError, VerifierKey, expand, parse_verifier_key
from service.audit.record_kinds import record_kind
from service.audit.verify import Verdict, verify_file, verify_record
from service.audit.verify_log_proofs import check_log_proofs
from service.audit.verify_notes import (
    check_notes,
    joined,
    record_facts,
    record_notes,
    stored_facts,
)
from service.audit.verify_seeds import MAX_LINKS
from service.fairness.events import SeedsCommitted, decode_fairness
from service.fairness.log import fairness_stream
from service.fairness.seeds import commitment
from service.ports.event_store import EventStore
from service.ports.match_registry import MatchRegistry
from web.composition.storage import Storage


class Notes:
    """The receipts and checkpoints given on the command line, and the keys to check them."""

    def __init__(
        self, notes: list[tuple[str, str]] | None = None, keys: list[VerifierKey] | None = None
    ) -> None:
        self.notes = notes or []
        self.keys = keys or []


async def audit_match(
    store: EventStore, registry: MatchRegistry, match_id: str, notes: Notes | None = None
) -> Verdict:
    try:
        match_id = str(uuid.UUID(match_id))
    except ValueError:
        return Verdict(False, [], f"{match_id!r} is not a match id")
    match = await registry.get(match_id)
    if match is None:
        return Verdict(False, [], f"there is no match {match_id} in this database")
    lines: list[str] = []
    kind = record_kind(match)
    own = kind.stream.stream_id(match_id)
    for what, stream in (("match", own), ("fairness", fairness_stream(match_id))):
        report = await store.verify_stream(stream)
        if report.broken is not None:
            broken = report.broken
            problem = f"the stored {what} stream is broken at version {broken.version}: "
            return Verdict(False, lines, problem + broken.problem)
        lines.append(f"stored {what} stream: {report.events_checked} events, hash chain intact")
    match_events = await store.read_stream(own)
    fairness_events = await store.read_stream(fairness_stream(match_id))
    try:
        first = decode_fairness(fairness_events[0].data) if fairness_events else None
    except msgspec.DecodeError as error:
        return Verdict(False, lines, f"the fairness stream's first event is unreadable: {error}")
    if not isinstance(first, SeedsCommitted):
        return Verdict(False, lines, "the fairness stream does not begin with a commitment")
    if not 1 <= first.links <= MAX_LINKS:
        return Verdict(False, lines, f"the fairness stream's chains have {first.links} links")
    if commitment(match.server_secret, 1, first.links).hex() != first.commitment:
        return Verdict(False, lines, "the match's stored secret does not give its commitment")
    try:
        record = build_record(kind, match, match_events, fairness_events)
    except FairnessBehind as error:
        return Verdict(False, lines, str(error))
    except (msgspec.DecodeError, DomainError) as error:
        # A stored event the record is built from does not decode: the rows were changed.
        return Verdict(False, lines, f"a stored event of the match is unreadable: {error}")
    verdict = verify_record(record)
    verdict = Verdict(verdict.ok, lines + verdict.lines, verdict.problem)
    if not verdict.ok or notes is None or not notes.notes:
        return verdict
    streams, blind_of = stored_facts(
        [match_events, fairness_events], match.server_secret, first.links
    )
    if match_events:
        streams[own] = with_table_deals(streams[own], [(e.type, e.data) for e in match_events])
    return joined(verdict, check_notes(notes.notes, notes.keys, verify_ed25519, streams, blind_of))


def add_audit_commands(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    verify = commands.add_parser("verify", help="check a game record file, offline")
    verify.add_argument("record", type=Path, help="a record from GET /matches/{id}/record")
    _note_options(verify)
    verify.add_argument(
        "--log-checkpoint",
        type=Path,
        action="append",
        default=[],
        help="a signed checkpoint of the whole log, from GET /log/checkpoint (repeatable), "
        "that --log-proof proves a receipt's event in",
    )
    verify.add_argument(
        "--log-proof",
        type=Path,
        action="append",
        default=[],
        help="an inclusion proof from GET /log/proofs/inclusion of a --receipt's position "
        "in a --log-checkpoint's size (repeatable); checked once the match is over",
    )
    verify.set_defaults(run=run_verify)
    audit = commands.add_parser(
        "audit", help="check a match, or the whole log against checkpoints, in the database"
    )
    audit.add_argument("match_id", nargs="?", help="the match to check (all of it)")
    audit.add_argument(
        "--log-checkpoint",
        type=Path,
        action="append",
        default=[],
        help="a signed checkpoint of the whole log, from GET /log/checkpoint (repeatable); "
        "checked with --public-key",
    )
    audit.add_argument(
        "--log-proof",
        type=Path,
        action="append",
        default=[],
        help="an inclusion proof from GET /log/proofs/inclusion of a --receipt's position "
        "in a --log-checkpoint's size (repeatable; with MATCH_ID, once the match is over)",
    )
    audit.add_argument("--database-url", help="PostgreSQL to read (default: $GIN_DATABASE_URL)")
    audit.add_argument("--data-dir", help="the embedded server's data folder")
    _note_options(audit)
    audit.set_defaults(run=run_audit)


def _note_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--receipt",
        type=Path,
        action="append",
        default=[],
        help="a Gin-Receipt header value (or the note it encodes) kept from a command",
    )
    parser.add_argument(
        "--checkpoint",
        type=Path,
        action="append",
        default=[],
        help="a signed checkpoint, from GET /matches/{id}/checkpoint",
    )
    parser.add_argument(
        "--public-key",
        type=Path,
        action="append",
        default=[],
        help="a verifier key from GET /checkpoints/key (repeat for keys rotated out)",
    )


def _read_notes(args: argparse.Namespace) -> Notes | str:
    """The notes and keys named on the command line, or why they cannot be read."""
    try:
        keys = [parse_verifier_key(path.read_text()) for path in args.public_key]
        notes = [
            (f"{kind} {path}", expand(path.read_text()))
            for kind, paths in (("receipt", args.receipt), ("checkpoint", args.checkpoint))
            for path in paths
        ]
    except OSError as error:
        return f"cannot read {error.filename}: {error.strerror}"
    except NoteError as error:
        return str(error)
    if notes and not keys:
        return "receipts and checkpoints are checked with --public-key (GET /checkpoints/key)"
    return Notes(notes, keys)


def run_verify(args: argparse.Namespace) -> int:
    notes = _read_notes(args)
    if isinstance(notes, str):
        return _print(Verdict(False, [], notes))
    if args.log_proof and not notes.keys:
        return _print(Verdict(False, [], "log proofs are checked with --public-key"))
    verdict = verify_file(args.record)
    if not verdict.ok or not notes.keys:
        return _print(verdict)
    record = decode_record(args.record.read_bytes())
    streams, blind_of = record_facts(record)
    own = record.match_stream
    if own.events:
        events = [(e.type, e.data) for e in own.events]
        streams[own.stream_id] = with_table_deals(streams[own.stream_id], events)
    given = record_notes(record) + notes.notes
    verdict = joined(verdict, check_notes(given, notes.keys, verify_ed25519, streams, blind_of))
    if not verdict.ok or not args.log_proof:
        return _print(verdict)
    try:
        proofs = [(f"log proof {path}", path.read_text()) for path in args.log_proof]
        logs = [(f"log checkpoint {path}", path.read_text()) for path in args.log_checkpoint]
    except OSError as error:
        return _print(Verdict(False, [], f"cannot read {error.filename}: {error.strerror}"))
    proved = check_log_proofs(record, proofs, logs, notes.notes, notes.keys, verify_ed25519)
    return _print(joined(verdict, proved))


def run_audit(args: argparse.Namespace) -> int:
    notes = _read_notes(args)
    if isinstance(notes, str):
        return _print(Verdict(False, [], notes))
    if args.match_id is None and not args.log_checkpoint:
        return _print(Verdict(False, [], "name a match, or give --log-checkpoint, or both"))
    try:
        log_notes = [(f"log checkpoint {path}", path.read_text()) for path in args.log_checkpoint]
        proofs = [(f"log proof {path}", path.read_text()) for path in args.log_proof]
    except OSError as error:
        return _print(Verdict(False, [], f"cannot read {error.filename}: {error.strerror}"))
    if (log_notes or proofs) and not notes.keys:
        return _print(Verdict(False, [], "log checkpoints are checked with --public-key"))
    if proofs and args.match_id is None:
        return _print(Verdict(False, [], "a log proof is of a receipt of the match named"))
    database = open_database(args.database_url, data_dir=args.data_dir, migrate=False)
    try:
        verdict = asyncio.run(_audit(database.url, args.match_id, notes, log_notes, proofs))
    finally:
        database.close()
    return _print(verdict)


async def _audit(
    url: str,
    match_id: str | None,
    notes: Notes,
    log_notes: list[tuple[str, str]],
    proofs: list[tuple[str, str]],
) -> Verdict:
    async with open_pool(url, min_size=1, max_size=2) as pool:
        storage = Storage.on(pool)
        store, registry = storage.store, storage.registry
        verdict = Verdict(True, [])
        if log_notes:
            tree = storage.log_tree()
            verdict = await check_log_checkpoints(tree, log_notes, notes.keys, verify_ed25519)
        if match_id is None or not verdict.ok:
            return verdict
        verdict = joined(verdict, await audit_match(store, registry, match_id, notes))
        if not verdict.ok or not proofs:
            return verdict
        record = await stored_record(store, registry, match_id)
        proved = check_log_proofs(
            record, proofs, log_notes, notes.notes, notes.keys, verify_ed25519
        )
        return joined(verdict, proved)


async def stored_record(store: EventStore, registry: MatchRegistry, match_id: str) -> GameRecord:
    """The record of a match ``audit_match`` found sound."""
    match = await registry.get(str(uuid.UUID(match_id)))
    assert match is not None
    kind = record_kind(match)
    own = await store.read_stream(kind.stream.stream_id(match.match_id))
    return build_record(kind, match, own, await store.read_stream(fairness_stream(match.match_id)))


def _print(verdict: Verdict) -> int:
    print(verdict.render(), end="")
    return 0 if verdict.ok else 1
