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

from service.audit.log_tree import (
    NO_BLIND,
    Frontier,
    blinding_match,
    event_leaf,
    leaf_hash,
    log_blind,
)
from service.audit.merkle_proofs import KeptLeaves
from service.audit.notes import NoteError, VerifierKey, parse_note, sign_note, signed_by
from service.audit.verify import Verdict
from service.errors import DatabaseUnavailable
from service.ports.event_store import EventStore, StoredEvent
from service.ports.match_registry import MatchRegistry
from service.ports.signer import SignatureCheck, Signer

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


class LogTree:
    """The global log folded into a Merkle tree, caught up from the store on demand."""

    def __init__(
        self, store: EventStore, registry: MatchRegistry, *, keep_leaves: bool = False
    ) -> None:
        self.store = store
        self.registry = registry
        self.frontier = Frontier()
        # What proofs need (``service.audit.log_proofs``): every leaf's hash and place.
        self.leaves = KeptLeaves() if keep_leaves else None
        self._after = 0  # the position of the last event folded in
        self._blinds: dict[str, bytes] = {}
        self._second_rule_from: int | None = None
        # For checking only: the same log with every leaf under the first rule (what a server
        # of a release before the second still signed after the migration).
        self.first_rule: Frontier | None = None
        self.first_rule_heads: dict[int, bytes] = {}

    async def second_rule_from(self) -> int | None:
        """How many events at the start of the log keep the first leaf rule; None if the store
        has no record of the second (its schema predates it: every event is of the first)."""
        if self._second_rule_from is None:
            self._second_rule_from = await self.store.every_match_blinded_from()
        return self._second_rule_from

    async def catch_up(self, sizes: Collection[int] = ()) -> dict[int, bytes]:
        """Fold in every event committed so far; the heads at ``sizes`` passed on the way."""
        second_from = await self.second_rule_from()
        heads = {}
        if self.frontier.size in sizes:
            heads[self.frontier.size] = self.frontier.root()
        while True:
            page = await self.store.read_all(after_position=self._after, limit=PAGE)
            for event in page:
                second = second_from is not None and self.frontier.size >= second_from
                match_id = blinding_match(event.stream_id, second_rule=second)
                leaf = event_leaf(event, await self._blind(match_id))
                self.frontier.append(leaf)
                if self.leaves is not None:
                    self.leaves.append(leaf_hash(leaf), event.position)
                self._after = event.position
                if self.frontier.size in sizes:
                    heads[self.frontier.size] = self.frontier.root()
                if self.first_rule is not None:
                    await self._fold_first_rule(event, sizes)
            if len(page) < PAGE:
                return heads

    def keep_first_rule_too(self) -> None:
        """Fold the log under the first leaf rule throughout as well (before any catch-up)."""
        assert self.frontier.size == 0, "the first rule's tree starts with the log"
        self.first_rule = Frontier()

    async def _fold_first_rule(self, event: StoredEvent, sizes: Collection[int]) -> None:
        assert self.first_rule is not None
        match_id = blinding_match(event.stream_id, second_rule=False)
        self.first_rule.append(event_leaf(event, await self._blind(match_id)))
        if self.first_rule.size in sizes:
            self.first_rule_heads[self.first_rule.size] = self.first_rule.root()

    async def _blind(self, match_id: str | None) -> bytes:
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
            if await self.tree.second_rule_from() is None:
                # The migration that records where the second leaf rule starts is still to
                # run: a head now would fix leaves under a rule nobody could tell afterwards.
                raise DatabaseUnavailable(
                    "the database is not migrated yet; no log checkpoint until it is"
                )
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
    second_from = await tree.second_rule_from()
    # Only an upgraded database (one whose log began under the first rule) can have had an
    # old release's server sign past where the second starts.
    if second_from and any(size > second_from for _, size, _, _ in given):
        tree.keep_first_rule_too()
    heads = await tree.catch_up({size for _, size, _, _ in given})
    total = tree.frontier.size
    lines = [f"stored global log: {total} events", _leaf_rules(second_from)]
    for source, size, head, signer in given:
        if size > total:
            problem = (
                f"{source}: the checkpoint covers {size} events but the log has {total}: "
                "events it covers have been removed"
            )
            return Verdict(False, lines, problem)
        if heads[size] != head and tree.first_rule_heads.get(size) == head:
            # Sound: either head binds every leaf; it only says which rule its signer used.
            lines.append(
                f"{source} (signed by {signer}): the first {size} events give its head under "
                "the first leaf rule throughout: a server of a release before migration 0020 "
                "signed it after the migration"
            )
            continue
        if heads[size] != head:
            problem = (
                f"{source}: the log's first {size} events give another tree head than the "
                "signed one: the log was rewritten after the checkpoint was issued"
            )
            return Verdict(False, lines, problem)
        lines.append(f"{source} (signed by {signer}): the first {size} events give its head")
    return Verdict(True, lines)


def _leaf_rules(second_from: int | None) -> str:
    if second_from is None:
        return "leaf rule: match- and fairness- streams blinded (the schema predates the second)"
    return (
        f"leaf rules: match- and fairness- streams blinded in the first {second_from} events, "
        "every stream of a match after them"
    )
