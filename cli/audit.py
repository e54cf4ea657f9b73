"""``gin verify RECORD.json`` and ``gin audit MATCH_ID``: the two ways to check a match.

``verify`` needs nothing but the record file. ``audit`` reads the match from the database and
checks what a record cannot show on its own: that every stored hash still chains to the
stream's head (so a row edited in place, even with its hash recomputed, is found), and that
the match's stored secret gives the commitment the match published; then it verifies the
record built from those rows exactly as ``verify`` would.
"""

from __future__ import annotations

import argparse
import asyncio
import uuid
from pathlib import Path

from adapters.postgres.database import open_database
from adapters.postgres.event_store import PostgresEventStore, open_pool
from adapters.postgres.match_registry import PostgresMatchRegistry
from service.audit.game_record import FairnessBehind, build_record
from service.audit.verify import Verdict, verify_file, verify_record
from service.fairness.events import SeedsCommitted, decode_fairness
from service.fairness.log import fairness_stream
from service.fairness.seeds import commitment
from service.ports.event_store import EventStore
from service.ports.match_registry import MatchRegistry
from service.store.match_streams import stream_id


async def audit_match(store: EventStore, registry: MatchRegistry, match_id: str) -> Verdict:
    try:
        match_id = str(uuid.UUID(match_id))
    except ValueError:
        return Verdict(False, [], f"{match_id!r} is not a match id")
    match = await registry.get(match_id)
    if match is None:
        return Verdict(False, [], f"there is no match {match_id} in this database")
    lines: list[str] = []
    for what, stream in (("match", stream_id(match_id)), ("fairness", fairness_stream(match_id))):
        report = await store.verify_stream(stream)
        if report.broken is not None:
            broken = report.broken
            problem = f"the stored {what} stream is broken at version {broken.version}: "
            return Verdict(False, lines, problem + broken.problem)
        lines.append(f"stored {what} stream: {report.events_checked} events, hash chain intact")
    match_events = await store.read_stream(stream_id(match_id))
    fairness_events = await store.read_stream(fairness_stream(match_id))
    first = decode_fairness(fairness_events[0].data) if fairness_events else None
    if not isinstance(first, SeedsCommitted):
        return Verdict(False, lines, "the fairness stream does not begin with a commitment")
    if commitment(match.server_secret, 1, first.links).hex() != first.commitment:
        return Verdict(False, lines, "the match's stored secret does not give its commitment")
    try:
        record = build_record(match, match_events, fairness_events)
    except FairnessBehind as error:
        return Verdict(False, lines, str(error))
    verdict = verify_record(record)
    return Verdict(verdict.ok, lines + verdict.lines, verdict.problem)


def add_audit_commands(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    verify = commands.add_parser("verify", help="check a game record file, offline")
    verify.add_argument("record", type=Path, help="a record from GET /matches/{id}/record")
    verify.set_defaults(run=run_verify)
    audit = commands.add_parser("audit", help="check a match against the database")
    audit.add_argument("match_id")
    audit.add_argument("--database-url", help="PostgreSQL to read (default: $GIN_DATABASE_URL)")
    audit.add_argument("--data-dir", help="the embedded server's data folder")
    audit.set_defaults(run=run_audit)


def run_verify(args: argparse.Namespace) -> int:
    return _print(verify_file(args.record))


def run_audit(args: argparse.Namespace) -> int:
    database = open_database(args.database_url, data_dir=args.data_dir, migrate=False)
    try:
        verdict = asyncio.run(_audit(database.url, args.match_id))
    finally:
        database.close()
    return _print(verdict)


async def _audit(url: str, match_id: str) -> Verdict:
    async with open_pool(url, min_size=1, max_size=2) as pool:
        return await audit_match(PostgresEventStore(pool), PostgresMatchRegistry(pool), match_id)


def _print(verdict: Verdict) -> int:
    print(verdict.render(), end="")
    return 0 if verdict.ok else 1
