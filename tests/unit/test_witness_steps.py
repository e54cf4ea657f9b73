"""Each step of ``gin witness`` (``service.audit.witness``) against a log held in memory and
signed with a real key: an extension is kept, a rollback and each kind of fork are alarms, a
checkpoint signed by another key or a server that cannot be asked are said and not kept."""

from __future__ import annotations

import pytest

from adapters.ed25519_signer import verify_ed25519
from adapters.memory.signer import memory_signer
from service.audit.log_checkpoints import log_checkpoint_text
from service.audit.log_tree import leaf_hash
from service.audit.merkle_proofs import KeptLeaves
from service.audit.notes import sign_note, verifier_key
from service.audit.witness import Outcome, witness_step
from service.ports.signer import Signer

SIGNER = memory_signer()
KEYS = [verifier_key(SIGNER)]


class Log:
    """A server's log: its leaves, and the checkpoint of all of them, signed."""

    def __init__(self, leaves: list[bytes], signer: Signer = SIGNER) -> None:
        self.kept = KeptLeaves()
        for n, leaf in enumerate(leaves):
            self.kept.append(leaf_hash(leaf), n + 1)
        self.signer = signer
        self.down = False

    def checkpoint(self) -> str:
        if self.down:
            raise ConnectionRefusedError("connection refused")
        text = log_checkpoint_text(self.kept.size, self.kept.head(self.kept.size))
        return sign_note(self.signer, text)

    def consistency(self, first: int, second: int) -> list[bytes]:
        return self.kept.consistency_proof(first, second)


def leaves(count: int, tag: str = "") -> list[bytes]:
    return [f"event {n}{tag}".encode() for n in range(count)]


def step(log: Log, kept: str | None) -> tuple[Outcome, str]:
    found = witness_step(log, kept, KEYS, verify_ed25519)
    return found.outcome, found.line


def test_a_log_that_grows_is_kept_and_one_that_does_not_is_the_same() -> None:
    first = Log(leaves(5))
    assert step(first, None)[0] is Outcome.FIRST
    kept = first.checkpoint()
    assert step(first, kept)[0] is Outcome.SAME
    for size in (6, 8, 13):
        grown = Log(leaves(size))
        outcome, line = step(grown, kept)
        assert outcome is Outcome.EXTENDED, line
        kept = grown.checkpoint()


@pytest.mark.parametrize(
    ("served", "outcome"),
    [
        (leaves(4), Outcome.ROLLBACK),
        (leaves(6, " rewritten"), Outcome.FORK),  # the same size, another head
        (leaves(3) + leaves(9, " forked")[3:], Outcome.FORK),  # longer, another start
        ([*leaves(5)[:4], b"changed", *leaves(9)[5:]], Outcome.FORK),  # the last kept leaf
    ],
)
def test_a_log_that_does_not_extend_the_kept_one_is_an_alarm(
    served: list[bytes], outcome: Outcome
) -> None:
    kept = Log(leaves(6)).checkpoint() if len(served) == 6 else Log(leaves(5)).checkpoint()
    found, line = step(Log(served), kept)
    assert found is outcome, line
    assert found.alarm
    assert line.startswith(outcome.name)


def test_another_key_or_no_answer_is_said_and_nothing_kept() -> None:
    kept = Log(leaves(5)).checkpoint()
    impostor = Log(leaves(7), memory_signer())
    outcome, line = step(impostor, kept)
    assert outcome is Outcome.UNREADABLE
    assert "no valid signature" in line
    down = Log(leaves(7))
    down.down = True
    outcome, line = step(down, kept)
    assert outcome is Outcome.UNREACHABLE
    assert not outcome.alarm
