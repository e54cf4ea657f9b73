"""Signed checkpoints of the whole global log, and checking a store against them.

A match's checkpoints and receipts cover one match; whoever holds none for a match would not
see it rewritten. A **log checkpoint** covers every event of every match up to a point: the
RFC 9162 tree head of the global log's first ``size`` events (``service.audit.log_tree``),
signed with the service's key as a C2SP tlog-checkpoint::

    gin-rummy-log
    <size>
    <base64 tree head>

An operator who keeps one (``GET /log/checkpoint``, fetched on a schedule and stored away from
the database) can later run ``gin audit --log-checkpoint``: any event among the first ``size``
edited, removed, reordered or inserted, with every hash recomputed or not, gives another head.
"""

from __future__ import annotations

import asyncio
import base64
import binascii
from collections.abc import Collection, Sequence

from service.audit.log_tree import NO_BLIND, Frontier, event_leaf, log_blind
from service.audit.notes import NoteError, VerifierKey, parse_note, sign_note, signed_by
from service.audit.verify import Verdict
from service.fairness.log import FAIRNESS_STREAM_PREFIX
from service.ports.event_store import EventStore
from service.ports.match_registry import MatchRegistry
from service.ports.signer import SignatureCheck, Signer
from service.store.match_streams import MATCH_STREAM_PREFIX

LOG_ORIGIN = "gin-rummy-log"
PAGE = 1000


def log_checkpoint_text(size: int, head: bytes) -> str:
    return f"{LOG_ORIGIN}\n{size}\n{base64.b64encode(head).decode()}\n"


def parse_log_checkpoint(text: str) -> tuple[int, bytes]:
    """(size, tree head) of a log checkpoint's text."""
    lines = text.split("\n")
    if len(lines) < 3 or lines[0] != LOG_ORIGIN:
        raise NoteError(f"not a log checkpoint (its first line is not {LOG_ORIGIN!r})")
    if not lines[1].isdigit():
        raise NoteError(f"{lines[1]!r} is not a log size")
    try:
        head = base64.b64decode(lines[2], validate=True)
    except binascii.Error as error:
        raise NoteError(f"{lines[2]!r} is not base64") from error
    if len(head) != 32:
        raise NoteError("a tree head is 32 bytes")
    return int(lines[1]), head


def match_of_stream(stream_id: str) -> str | None:
    for prefix in (MATCH_STREAM_PREFIX, FAIRNESS_STREAM_PREFIX):
        if stream_id.startswith(prefix):
            return stream_id.removeprefix(prefix)
    return None


class LogTree:
    """The global log folded into a Merkle tree, caught up from the store on demand."""

    def __init__(self, store: EventStore, registry: MatchRegistry) -> None:
        self.store = store
        self.registry = registry
        self.frontier = Frontier()
        self._after = 0  # the position of the last event folded in
        self._blinds: dict[str, bytes] = {}

    async def catch_up(self, sizes: Collection[int] = ()) -> dict[int, bytes]:
        """Fold in every event committed so far; the heads at ``sizes`` passed on the way."""
        heads = {}
        if self.frontier.size in sizes:
            heads[self.frontier.size] = self.frontier.root()
        while True:
            page = await self.store.read_all(after_position=self._after, limit=PAGE)
            for event in page:
                self.frontier.append(event_leaf(event, await self._blind(event.stream_id)))
                self._after = event.position
                if self.frontier.size in sizes:
                    heads[self.frontier.size] = self.frontier.root()
            if len(page) < PAGE:
                return heads

    async def _blind(self, stream_id: str) -> bytes:
        match_id = match_of_stream(stream_id)
        if match_id is None:
            return NO_BLIND
        if match_id not in self._blinds:
            # A match is registered (committed) before its first event is appended, so any
            # event in the log has its match; one without stays unblinded (and uncached).
            match = await self.registry.get(match_id)
            if match is None:
                return NO_BLIND
            self._blinds[match_id] = log_blind(match.server_secret)
        return self._blinds[match_id]


class LogNotary:
    """Issues log checkpoints: the tree head of everything committed when asked."""

    def __init__(self, signer: Signer, tree: LogTree) -> None:
        self.signer = signer
        self.tree = tree
        self._lock = asyncio.Lock()  # one catch-up at a time: the frontier is not shared-safe

    async def checkpoint(self) -> str:
        async with self._lock:
            await self.tree.catch_up()
            text = log_checkpoint_text(self.tree.frontier.size, self.tree.frontier.root())
        return sign_note(self.signer, text)


async def check_log_checkpoints(
    tree: LogTree,
    notes: Sequence[tuple[str, str]],
    keys: Sequence[VerifierKey],
    check: SignatureCheck,
) -> Verdict:
    """The store (``tree``, not yet caught up) against signed log checkpoints: ``notes`` are
    (where it came from, its text) each."""
    given: list[tuple[str, int, bytes, str]] = []
    for source, text in notes:
        try:
            note = parse_note(text)
            size, head = parse_log_checkpoint(note.text)
        except NoteError as error:
            return Verdict(False, [], f"{source}: {error}")
        key = signed_by(note, list(keys), check)
        if key is None:
            return Verdict(False, [], f"{source}: no valid signature by any of the public keys")
        given.append((source, size, head, key.name))
    heads = await tree.catch_up({size for _, size, _, _ in given})
    total = tree.frontier.size
    lines = [f"stored global log: {total} events"]
    for source, size, head, signer in given:
        if size > total:
            problem = (
                f"{source}: the checkpoint covers {size} events but the log has {total}: "
                "events it covers have been removed"
            )
            return Verdict(False, lines, problem)
        if heads[size] != head:
            problem = (
                f"{source}: the log's first {size} events give another tree head than the "
                "signed one: the log was rewritten after the checkpoint was issued"
            )
            return Verdict(False, lines, problem)
        lines.append(f"{source} (signed by {signer}): the first {size} events give its head")
    return Verdict(True, lines)
