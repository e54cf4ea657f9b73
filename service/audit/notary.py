"""Issuing checkpoints and receipts (formats in ``service.audit.checkpoints``).

A receipt signs the hash of the event its command's append reached: the head that committed,
as the store returned it with the append (or, for a retry answered from its first append, as
read back). The blind is the hand's server seed, which
the service can always compute from the match's secret.
"""

from __future__ import annotations

import msgspec

from service.audit.checkpoints import NO_BLIND, checkpoint_text, receipt_text
from service.audit.game_record import GameRecord, StreamRecord
from service.audit.notes import compact, sign_note, verifier_key
from service.fairness.seeds import CHAIN_LINKS, deal_link, server_seed
from service.ports.event_store import AppendResult, EventStore
from service.ports.match_registry import RegisteredMatch
from service.ports.signer import Signer


class Reached(msgspec.Struct, frozen=True):
    """Where a command's append left a match's stream, at any table size: its version, the
    deals made by then (whose last seed blinds a receipt) and, when this process has just
    made it, the append."""

    stream_id: str
    version: int
    deals: int
    appended: AppendResult | None = None


class Notary:
    def __init__(
        self, signer: Signer, store: EventStore, *, links: int = CHAIN_LINKS, receipts: bool = True
    ) -> None:
        self.signer = signer
        self.store = store
        self.links = links
        self.receipts = receipts  # off only to measure what they cost

    def verifier_key(self) -> str:
        return verifier_key(self.signer).text()

    async def receipt(self, match: RegisteredMatch, reached: Reached) -> str | None:
        """The compact signed receipt of the match's stream at ``reached.version`` (None if
        receipts are switched off), at any table size: the blind is the seed of the last deal
        made, at whichever table, which is revealed only once every hand dealt so far is
        over."""
        if not self.receipts:
            return None
        stream = reached.stream_id
        appended = reached.appended
        if appended is not None and appended.last_hash is not None:
            position, head_hash = appended.positions[-1], appended.last_hash
        else:
            stored = await self.store.read_stream(stream, after_version=reached.version - 1)
            position, head_hash = stored[0].position, stored[0].hash
        deals = reached.deals
        blind = (
            server_seed(match.server_secret, deal_link(deals), self.links) if deals else NO_BLIND
        )
        text = receipt_text(stream, reached.version, position, deals, head_hash, blind)
        return compact(sign_note(self.signer, text))

    def record_checkpoints(self, record: GameRecord) -> list[str]:
        """Signed checkpoints of both streams at the record's end (hashes the record shows)."""
        return [
            sign_note(self.signer, text)
            for text in (_checkpoint(record.match_stream), _checkpoint(record.fairness_stream))
            if text is not None
        ]


def _checkpoint(stream: StreamRecord) -> str | None:
    if not stream.events:
        return None
    last = stream.events[-1]
    return checkpoint_text(stream.stream_id, last.version, bytes.fromhex(last.hash))
