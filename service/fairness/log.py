"""The service's side of provably fair shuffles: the seed of each shuffle, and writing the
fairness stream (see ``service.fairness.events``) as the match goes on.

The fairness stream is a function of the match stream and the server secret, so writing it
is idempotent: ``sync`` appends whatever of it is due and not yet written. The service calls it
after every append that cuts, deals or ends a hand; ``GET /matches/{id}/record`` calls it
again before reading, so a process that stopped between the two appends leaves no gap.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Any

from domain import CardsCut, Dealt, Event, HandDrawn, MatchWon, Scored
from domain.events import MatchEnded
from domain.match_rules import SeedProgress, rules_for
from domain.tables import FormatEvent, FormatMatchWon, SeatsCut, TableEvent
from service.fairness.events import (
    EntropyFixed,
    FairnessEvent,
    FairnessView,
    RevealedSeed,
    SecretRevealed,
    SeedRevealed,
    SeedsCommitted,
    Slot,
    encode_fairness,
    fairness_slots,
    fairness_type,
)
from service.fairness.seeds import (
    CHAIN_LINKS,
    CUT_LINK,
    SCHEME,
    commitment,
    deal_link,
    server_seed,
    server_seeds,
    shuffle_seed,
    step_of_link,
)
from service.ports.event_store import ConcurrencyConflict, EventStore, NewEvent
from service.ports.match_registry import RegisteredMatch
from service.store.match_stream_names import MatchStream

_SYNC_ATTEMPTS = 3
# Fairness summaries kept for answering views: one per match and step of the game, of a few
# hundred bytes each.
VIEWS_KEPT = 4096


def fairness_stream(match_id: str) -> str:
    return MatchStream.FAIRNESS.of(match_id)


def cut_seed(match: RegisteredMatch, links: int = CHAIN_LINKS) -> str:
    return _seed(match, CUT_LINK, links)


def deal_seed(match: RegisteredMatch, deal: int, links: int = CHAIN_LINKS) -> str:
    """The seed of the match's ``deal``-th deal (1-based)."""
    return _seed(match, deal_link(deal), links)


def _seed(match: RegisteredMatch, link: int, links: int) -> str:
    value = server_seed(match.server_secret, link, links)
    return shuffle_seed(value, match.match_id, match.entropy, step_of_link(link)).hex()


def fill(slot: Slot, match: RegisteredMatch, links: int = CHAIN_LINKS) -> FairnessEvent:
    secret = match.server_secret
    if slot.kind == "commit":
        value = commitment(secret, slot.number, links).hex()
        return SeedsCommitted(SCHEME, slot.number, links, value)
    if slot.kind == "entropy":
        return EntropyFixed(match.entropy)
    if slot.kind == "reveal":
        seed = server_seed(secret, slot.number, links).hex()
        return SeedRevealed(slot.number, step_of_link(slot.number), seed)
    return SecretRevealed(secret.hex())


def fairness_view(match: RegisteredMatch, state: Any, links: int = CHAIN_LINKS) -> FairnessView:
    """The same summary a record of the match holds, made from the state alone.

    Every answer to a seat carries one, and it changes only with a cut, a deal, a hand's end
    or the match's: so it is made once per step from what it depends on, and kept.
    """
    seeds = rules_for(len(match.seats)).seeds(state)
    return _fairness_view(match.server_secret, tuple(match.entropy), seeds, links)


@functools.lru_cache(maxsize=VIEWS_KEPT)
def _fairness_view(
    secret: bytes, entropy: tuple[str, ...], seeds: SeedProgress, links: int
) -> FairnessView:
    return view_of_slots(secret, entropy, tuple(fairness_slots(seeds, links)), links)


@functools.lru_cache(maxsize=VIEWS_KEPT)
def view_of_slots(
    secret: bytes, entropy: tuple[str, ...], slots: tuple[Slot, ...], links: int
) -> FairnessView:
    """The summary of the fairness records ``slots`` (kept: it changes once a step)."""
    revealed = [slot.number for slot in slots if slot.kind == "reveal"]
    seeds = server_seeds(secret, max(revealed, default=0), links)
    return FairnessView(
        scheme=SCHEME,
        chain_links=links,
        commitments=[
            commitment(secret, slot.number, links).hex() for slot in slots if slot.kind == "commit"
        ],
        entropy=list(entropy) if Slot("entropy") in slots else None,
        revealed=[
            RevealedSeed(link, step_of_link(link), seeds[link - 1].hex()) for link in revealed
        ],
        secret=secret.hex() if Slot("secret") in slots else None,
    )


_TOUCHING = (CardsCut, Dealt, Scored, HandDrawn, MatchWon, MatchEnded, SeatsCut, FormatMatchWon)


def touches_fairness(events: Sequence[Event | FormatEvent]) -> bool:
    """Whether appending ``events`` (of a match of any size) may make fairness records due."""
    return any(
        isinstance(e, _TOUCHING)
        or (isinstance(e, TableEvent) and isinstance(e.event, Dealt | Scored | HandDrawn))
        for e in events
    )


def to_record(event: FairnessEvent) -> NewEvent:
    return NewEvent(fairness_type(event), event.schema_version, encode_fairness(event))


class FairnessLog:
    def __init__(self, store: EventStore, *, links: int = CHAIN_LINKS) -> None:
        self.store = store
        self.links = links

    def walk_chains(self, matches: Sequence[RegisteredMatch]) -> None:
        """Walk each match's first seed chain once, so that its seeds and commitment are
        at hand (``service.fairness.seeds`` keeps the walk)."""
        for match in matches:
            commitment(match.server_secret, 1, self.links)

    def commitment(self, match: RegisteredMatch) -> str:
        return commitment(match.server_secret, 1, self.links).hex()

    async def open(self, match: RegisteredMatch) -> int:
        """Publish chain 1's commitment: the first thing written about a match. Returns the
        fairness stream's version after it."""
        first = fill(Slot("commit", 1), match, self.links)
        result = await self.store.append(
            fairness_stream(match.match_id), [to_record(first)], expected_version=0
        )
        return result.last_version

    async def sync(self, match: RegisteredMatch, state: Any, *, written: int | None = None) -> None:
        """Write every record due at ``state`` that is not written yet. ``written``: the
        stream's version if the caller knows it (it saves a read; a wrong one only conflicts,
        and the next attempt reads it)."""
        slots = fairness_slots(rules_for(len(match.seats)).seeds(state), self.links)
        stream = fairness_stream(match.match_id)
        for _ in range(_SYNC_ATTEMPTS):
            if written is None:
                written = await self.store.stream_version(stream)
            if written >= len(slots):
                return
            events = [to_record(fill(slot, match, self.links)) for slot in slots[written:]]
            try:
                await self.store.append(stream, events, expected_version=written)
                return
            except ConcurrencyConflict:
                written = None  # another process wrote the same records; look again
