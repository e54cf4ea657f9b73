"""The fairness stream of a match: its records, and which of them are due at each point.

Beside ``match-<id>`` each match has a stream ``fairness-<id>`` holding, in this order: the
commitment of chain 1 (written when the match is created, before anything else), the seats'
entropy and the cut's seed (once the cut is made), then for each deal a new chain's commitment
when the deal starts one, and the deal's seed once its hand is over; the server secret when the
match is over. ``fairness_slots`` says which records a game in a given state must have; the
service writes exactly those (``service.fairness.log``) and the verifier expects exactly those.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar, Literal, NamedTuple

import msgspec

from domain.match_rules import SeedProgress
from service.fairness.seeds import CUT_LINK, SCHEME, deal_link, locate


class _FairnessEvent(msgspec.Struct, frozen=True, tag_field="type"):
    schema_version: ClassVar[int] = 1


class SeedsCommitted(_FairnessEvent, tag="seeds_committed", frozen=True):
    """Chain ``chain`` of ``links`` links ends in ``commitment`` (hex)."""

    scheme: str
    chain: int
    links: int
    commitment: str


class EntropyFixed(_FairnessEvent, tag="entropy_fixed", frozen=True):
    """What each seat contributed (by seat; "" for none), fixed before the cut."""

    entropy: list[str]


class SeedRevealed(_FairnessEvent, tag="seed_revealed", frozen=True):
    """The server's link ``link`` (hex), used for ``step`` ("cut" or "deal <d>")."""

    link: int
    step: str
    seed: str


class SecretRevealed(_FairnessEvent, tag="secret_revealed", frozen=True):
    """The match is over: its server secret (hex), the root of every chain."""

    secret: str


FairnessEvent = SeedsCommitted | EntropyFixed | SeedRevealed | SecretRevealed


_decoder = msgspec.json.Decoder(FairnessEvent)


def fairness_type(event: FairnessEvent) -> str:
    tag = type(event).__struct_config__.tag
    assert isinstance(tag, str)
    return tag


def encode_fairness(event: FairnessEvent) -> bytes:
    return msgspec.json.encode(event)


def decode_fairness(data: bytes | str) -> FairnessEvent:
    return _decoder.decode(data)


class Slot(NamedTuple):
    """A record the fairness stream must hold: ``number`` is the chain of a commitment and
    the link of a revealed seed."""

    kind: Literal["commit", "entropy", "reveal", "secret"]
    number: int = 0


def fairness_slots(seeds: SeedProgress, links: int) -> list[Slot]:
    """The records due once a match's seeds have gone as far as ``seeds``, at any table size
    (``MatchRules.seeds``)."""
    return slots_revealing(
        cut=seeds.cut,
        deals=seeds.deals,
        revealed=seeds.revealed,
        match_over=seeds.match_over,
        links=links,
        deals_per_round=seeds.per_round,
    )


def slots_for(
    *, cut: bool, deals: int, last_hand_over: bool, match_over: bool, links: int
) -> list[Slot]:
    # A match that ended mid-hand reveals that hand's seed too: the record shows it all.
    revealed = deals if last_hand_over or match_over else deals - 1
    return slots_revealing(
        cut=cut, deals=deals, revealed=revealed, match_over=match_over, links=links
    )


def slots_revealing(
    *,
    cut: bool,
    deals: int,
    revealed: int,
    match_over: bool,
    links: int,
    deals_per_round: int = 1,
) -> list[Slot]:
    """The records due once ``deals`` deals are made and the seeds of the first ``revealed``
    of them may be shown. A revealed link gives every earlier link of its chain (each is the
    hash of the next), so seeds are revealed in deal order, never one past a deal whose hand
    is still being played. A round's deals (two at once in the four-player game) are all made
    before any of them is revealed, so each round's new commitments come before its seeds."""
    slots = [Slot("commit", 1)]
    if not cut:
        return slots
    slots += [Slot("entropy"), Slot("reveal", CUT_LINK)]
    for first in range(1, deals + 1, deals_per_round):
        round_deals = range(first, min(first + deals_per_round, deals + 1))
        for deal in round_deals:
            chain, index = locate(deal_link(deal), links)
            if index == 1 and chain > 1:
                slots.append(Slot("commit", chain))
        slots += [Slot("reveal", deal_link(deal)) for deal in round_deals if deal <= revealed]
    if match_over:
        slots.append(Slot("secret"))
    return slots


def slot_of(event: FairnessEvent) -> Slot:
    if isinstance(event, SeedsCommitted):
        return Slot("commit", event.chain)
    if isinstance(event, EntropyFixed):
        return Slot("entropy")
    if isinstance(event, SeedRevealed):
        return Slot("reveal", event.link)
    return Slot("secret")


class RevealedSeed(msgspec.Struct, frozen=True):
    link: int
    step: str
    seed: str


class FairnessView(msgspec.Struct, frozen=True, kw_only=True):
    """What anyone may know of a match's shuffles: the commitments (by chain), the seats'
    entropy once fixed, every server seed revealed so far and, after the match, the secret."""

    scheme: str
    chain_links: int
    commitments: list[str]
    entropy: list[str] | None
    revealed: list[RevealedSeed]
    secret: str | None


def summary_of(events: Sequence[FairnessEvent], links: int) -> FairnessView:
    commitments = [e.commitment for e in events if isinstance(e, SeedsCommitted)]
    entropy = next((e.entropy for e in events if isinstance(e, EntropyFixed)), None)
    secret = next((e.secret for e in events if isinstance(e, SecretRevealed)), None)
    return FairnessView(
        scheme=SCHEME,
        chain_links=links,
        commitments=commitments,
        entropy=entropy,
        revealed=[
            RevealedSeed(e.link, e.step, e.seed) for e in events if isinstance(e, SeedRevealed)
        ],
        secret=secret,
    )
