"""``gin witness URL --keep DIR --public-key FILE``: keep a server's log checkpoints and find a
fork or a rollback of its log (``service.audit.witness``).

What it keeps, in ``DIR``: ``latest.note`` (the checkpoint every new one is checked against),
``checkpoints/<size>.note`` (each one kept), and on an alarm ``evidence/<time>-<fork|rollback>/``
with the kept and the served note, both signed: proof for anyone that the server signed two
histories. Exit status: 0 while every checkpoint is consistent (``--once``: after one check),
1 on a fork or a rollback, 2 when the server cannot be asked or its checkpoint is refused
(``--once`` only; polling goes on and says so on stderr).
"""

from __future__ import annotations

import argparse
import sys
import time
from datetime import UTC, datetime
from pathlib import Path

from adapters.ed25519_signer import verify_ed25519
from adapters.http_log_server import HttpLogServer
from service.audit.notes import NoteError, parse_verifier_key
from service.audit.witness import Outcome, Step, witness_step

LATEST = "latest.note"


def add_witness_command(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    witness = commands.add_parser(
        "witness", help="keep a server's log checkpoints; report a forked or rolled-back log"
    )
    witness.add_argument("url", help="the service's base URL, e.g. https://gin.example")
    witness.add_argument(
        "--keep", type=Path, required=True, help="the folder the checkpoints are kept in"
    )
    witness.add_argument(
        "--public-key",
        type=Path,
        action="append",
        required=True,
        help="a verifier key from GET /checkpoints/key, got from a source you trust "
        "(repeat for keys rotated out)",
    )
    witness.add_argument(
        "--every", type=float, default=60.0, help="seconds between two checks (default 60)"
    )
    witness.add_argument("--once", action="store_true", help="check once and exit")
    witness.set_defaults(run=run_witness)


def run_witness(args: argparse.Namespace) -> int:
    try:
        keys = [parse_verifier_key(path.read_text()) for path in args.public_key]
    except OSError as error:
        return _refuse(f"cannot read {error.filename}: {error.strerror}")
    except NoteError as error:
        return _refuse(str(error))
    server = HttpLogServer(args.url)
    keep: Path = args.keep
    (keep / "checkpoints").mkdir(parents=True, exist_ok=True)
    while True:
        latest = keep / LATEST
        kept = latest.read_text() if latest.exists() else None
        try:
            step = witness_step(server, kept, keys, verify_ed25519)
        except NoteError as error:
            return _refuse(f"{latest} is not a checkpoint signed by the given keys: {error}")
        _record(keep, kept, step)
        if step.outcome.alarm:
            return 1
        if args.once:
            return 2 if step.outcome in (Outcome.UNREACHABLE, Outcome.UNREADABLE) else 0
        try:
            time.sleep(args.every)
        except KeyboardInterrupt:
            return 0


def _record(keep: Path, kept: str | None, step: Step) -> None:
    stamp = datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
    if step.outcome in (Outcome.FIRST, Outcome.EXTENDED):
        assert step.note is not None
        size = step.note.split("\n")[1]
        (keep / "checkpoints" / f"{size}.note").write_text(step.note)
        (keep / f"{LATEST}.new").write_text(step.note)
        (keep / f"{LATEST}.new").replace(keep / LATEST)  # never a half-written latest
    if step.outcome.alarm:
        assert kept is not None
        assert step.note is not None
        evidence = keep / "evidence" / f"{stamp}-{step.outcome.value}"
        evidence.mkdir(parents=True, exist_ok=True)
        (evidence / "kept.note").write_text(kept)
        (evidence / "served.note").write_text(step.note)
        print(f"gin witness: {step.line} (evidence: {evidence})", file=sys.stderr, flush=True)
    elif step.outcome in (Outcome.UNREACHABLE, Outcome.UNREADABLE):
        print(f"gin witness: {stamp} {step.line}", file=sys.stderr, flush=True)
    if not step.outcome.alarm:
        print(f"{stamp} {step.line}", flush=True)


def _refuse(problem: str) -> int:
    print(f"gin witness: {problem}", file=sys.stderr)
    return 2
