"""A witness of the global log: someone other than the server who keeps its log checkpoints
and checks each new one against the last it kept, so a log that was forked (two histories
signed) or rolled back (a restore from an older backup, acknowledged events gone) is found
by someone who does not have to trust the server or read its database.

Each step takes the server's current checkpoint; its signature must be by one of the keys the
witness was given. Against the last checkpoint kept (``size`` ``m``, head ``h``):

- a smaller log than ``m``: **rollback** (events the server signed for are gone);
- the same size with another head: **fork**;
- a larger log: the server's consistency proof from ``m`` must show ``h`` to be its start
  (RFC 9162 section 2.1.4), else **fork**; if it does, the new checkpoint is kept.

On a fork or rollback the kept checkpoint stays the last one kept: every later step is
checked against it again, and both signed notes are the evidence.
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from typing import Protocol

import msgspec

from service.audit.log_checkpoints import parse_log_checkpoint
from service.audit.merkle_proofs import consistent
from service.audit.notes import NoteError, VerifierKey, parse_note, signed_by
from service.ports.signer import SignatureCheck


class LogServer(Protocol):
    """What a witness asks the server (``GET /log/checkpoint`` and
    ``GET /log/proofs/consistency``); OSError if it cannot be asked."""

    def checkpoint(self) -> str: ...

    def consistency(self, first: int, second: int) -> list[bytes]: ...


class Outcome(enum.Enum):
    FIRST = "first"  # nothing was kept: trusted as the start
    SAME = "same"  # the very checkpoint kept last
    EXTENDED = "extended"  # consistent with the last kept, and kept
    FORK = "fork"
    ROLLBACK = "rollback"
    UNREADABLE = "unreadable"  # not a log checkpoint, or not signed by a given key
    UNREACHABLE = "unreachable"

    @property
    def alarm(self) -> bool:
        """The server showed two histories: say so loudly and keep the evidence."""
        return self in (Outcome.FORK, Outcome.ROLLBACK)


class Step(msgspec.Struct, frozen=True):
    outcome: Outcome
    line: str
    note: str | None = None  # the server's checkpoint, as fetched


def witness_step(
    server: LogServer, kept: str | None, keys: Sequence[VerifierKey], check: SignatureCheck
) -> Step:
    """Fetch the server's checkpoint and judge it against ``kept`` (the note kept last)."""
    try:
        note = server.checkpoint()
    except OSError as error:
        return Step(Outcome.UNREACHABLE, f"cannot fetch the log checkpoint: {error}")
    try:
        size, head = _checked(note, keys, check)
    except NoteError as error:
        return Step(Outcome.UNREADABLE, f"the server's log checkpoint is refused: {error}", note)
    if kept is None:
        return Step(Outcome.FIRST, f"kept the first log checkpoint: {size} events", note)
    kept_size, kept_head = _checked(kept, keys, check)
    if size < kept_size:
        line = (
            f"ROLLBACK: the server signs a log of {size} events, but it signed one of "
            f"{kept_size} before: {kept_size - size} events it covered are gone"
        )
        return Step(Outcome.ROLLBACK, line, note)
    if size == kept_size:
        if head == kept_head:
            return Step(Outcome.SAME, f"no new events: {size}", note)
        line = f"FORK: the server signs two different logs of {size} events"
        return Step(Outcome.FORK, line, note)
    try:
        proof = server.consistency(kept_size, size)
    except OSError as error:
        return Step(Outcome.UNREACHABLE, f"cannot fetch the consistency proof: {error}", note)
    if not consistent(kept_size, kept_head, size, head, proof):
        line = (
            f"FORK: the server's log of {size} events does not begin with the log of "
            f"{kept_size} events it signed before (no consistency proof holds)"
        )
        return Step(Outcome.FORK, line, note)
    line = f"kept a log checkpoint of {size} events, consistent with the last ({kept_size})"
    return Step(Outcome.EXTENDED, line, note)


def _checked(note: str, keys: Sequence[VerifierKey], check: SignatureCheck) -> tuple[int, bytes]:
    parsed = parse_note(note)
    if signed_by(parsed, list(keys), check) is None:
        raise NoteError("no valid signature by any of the public keys")
    return parse_log_checkpoint(parsed.text)
