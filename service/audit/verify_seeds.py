"""Checking a record's fairness stream: the right records in the right order, every revealed
seed hashing to its chain's commitment, and the server secret (once the match is over) giving
every commitment. The result is the seed book the deals are recomputed from.

Which records are due is worked out from the recorded events alone, not from the service's
own rule: at three and four seats a deal's seed is due once its hand and every hand dealt
before it are over, a round's new commitments before its seeds, every seed and the server
secret once the match is over."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import msgspec

from domain import CardsCut, Dealt, Event, HandDrawn, Scored
from domain.events import MATCH_ENDINGS
from domain.match_rules import rules_for
from domain.tables import (
    FORMAT_MATCH_ENDINGS,
    FormatEvent,
    FormatMatchCreated,
    RoundStarted,
    SeatsCut,
    TableEvent,
)
from service.audit.event_diff import Discrepancy
from service.fairness.events import (
    EntropyFixed,
    FairnessEvent,
    SecretRevealed,
    SeedRevealed,
    SeedsCommitted,
    Slot,
    slot_of,
    slots_for,
    slots_revealing,
)
from service.fairness.seeds import (
    CUT_LINK,
    SCHEME,
    SECRET_BYTES,
    chain_root,
    hashes_to,
    locate,
    shuffle_seed,
    step_of_link,
)

# The service's chains have CHAIN_LINKS (1,024) links. A record claiming far longer ones would
# have the secret's check hash for as long as it claims: a verifier answers, so it refuses them.
MAX_LINKS = 2**16


class SeedBook(msgspec.Struct, frozen=True):
    """What recomputing a shuffle needs: the revealed server seeds, by link number."""

    match_id: str
    entropy: list[str]
    seeds: dict[int, bytes]
    labels: dict[int, str]  # "the cut", "game 1 hand 2": what each link seeded

    def seed_for(self, link: int) -> str:
        """The hex seed of the shuffle ``link`` was used for."""
        seed = self.seeds.get(link)
        if seed is None:
            raise Discrepancy(f"{self.labels.get(link, step_of_link(link))}: no seed was revealed")
        return shuffle_seed(seed, self.match_id, self.entropy, step_of_link(link)).hex()


def chain_length(fairness: Sequence[tuple[int, FairnessEvent]]) -> int:
    """The links per chain, from the fairness stream's first record."""
    first = fairness[0][1] if fairness else None
    if not isinstance(first, SeedsCommitted):
        raise Discrepancy("fairness stream: it must begin with the commitment of chain 1")
    if not 1 <= first.links <= MAX_LINKS:
        raise Discrepancy(
            f"fairness stream version 1: chains of {first.links} links; this verifier checks "
            f"chains of 1 to {MAX_LINKS} links"
        )
    return first.links


def check_fairness(
    match_id: str,
    fairness: Sequence[tuple[int, FairnessEvent]],
    due: Callable[[int], Sequence[Slot]],
    labels: dict[int, str],
    seats: int,
) -> SeedBook:
    """The seed book of a record of any kind: ``due`` gives the records its match events
    need (given the chains' length), ``labels`` what each link seeded, ``seats`` the seats
    whose entropy is fixed (``service.audit.record_kinds`` has each kind's rules)."""
    links = chain_length(fairness)
    _check_slots(fairness, due(links))
    commitments: dict[int, bytes] = {}
    seeds: dict[int, bytes] = {}
    entropy: list[str] = []
    for version, event in fairness:
        where = f"fairness stream version {version}"
        if isinstance(event, SeedsCommitted):
            commitments[event.chain] = _committed(event, links, where)
        elif isinstance(event, EntropyFixed):
            entropy = _entropy(event, where, seats)
        elif isinstance(event, SeedRevealed):
            seeds[event.link] = _revealed(event, commitments, seeds, links, labels)
        else:
            _check_secret(event, commitments, links, where)
    return SeedBook(match_id, entropy, seeds, labels)


def hand_slots_due(events: Sequence[tuple[int, Event]], links: int) -> list[Slot]:
    deals = sum(isinstance(e, Dealt) for _, e in events)
    last_deal = max((i for i, (_, e) in enumerate(events) if isinstance(e, Dealt)), default=-1)
    over = any(isinstance(e, Scored | HandDrawn) for _, e in events[last_deal + 1 :])
    return slots_for(
        cut=any(isinstance(e, CardsCut) for _, e in events),
        deals=deals,
        last_hand_over=last_deal >= 0 and over,
        match_over=any(isinstance(e, MATCH_ENDINGS) for _, e in events),
        links=links,
    )


def table_slots_due(events: Sequence[tuple[int, FormatEvent]], links: int) -> list[Slot]:
    deals = 0
    playing: dict[int, int] = {}  # by table: the deal its hand came from
    over: set[int] = set()  # deals whose hand has ended
    for _, event in events:
        if isinstance(event, TableEvent) and isinstance(event.event, Dealt):
            deals += 1
            playing[event.table] = deals
        elif isinstance(event, TableEvent) and isinstance(event.event, Scored | HandDrawn):
            over.add(playing.get(event.table, 0))
    match_over = any(isinstance(e, FORMAT_MATCH_ENDINGS) for _, e in events)
    created = next((e for _, e in events if isinstance(e, FormatMatchCreated)), None)
    revealed = deals if match_over else 0
    while revealed + 1 in over:
        revealed += 1
    return slots_revealing(
        cut=any(isinstance(e, SeatsCut) for _, e in events),
        deals=deals,
        revealed=revealed,
        match_over=match_over,
        links=links,
        deals_per_round=1 if created is None else rules_for(created.players).tables_per_round,
    )


def table_labels(events: Sequence[tuple[int, FormatEvent]]) -> dict[int, str]:
    labels = {CUT_LINK: "the cut"}
    round_number, deals = 0, 0
    for _, event in events:
        if isinstance(event, RoundStarted):
            round_number = event.round
        elif isinstance(event, TableEvent) and isinstance(event.event, Dealt):
            deals += 1
            labels[deals + 1] = f"round {round_number} table {event.table}"
    return labels


def _check_slots(fairness: Sequence[tuple[int, FairnessEvent]], due: Sequence[Slot]) -> None:
    for index, slot in enumerate(due):
        if index >= len(fairness):
            last = fairness[-1][0] if fairness else 0
            raise Discrepancy(
                f"fairness stream: it ends at version {last}, but the match's events need "
                f"{_describe(slot)} next"
            )
        version, event = fairness[index]
        if slot_of(event) != slot:
            raise Discrepancy(
                f"fairness stream version {version}: the record has {_describe(slot_of(event))} "
                f"where {_describe(slot)} is due"
            )
    if len(fairness) > len(due):
        version, event = fairness[len(due)]
        raise Discrepancy(
            f"fairness stream version {version}: {_describe(slot_of(event))} is not due: "
            "the match's events in the record do not reach that point"
        )


def _describe(slot: Slot) -> str:
    if slot.kind == "commit":
        return f"the commitment of chain {slot.number}"
    if slot.kind == "entropy":
        return "the seats' entropy"
    if slot.kind == "reveal":
        return f"the seed of {'the cut' if slot.number == CUT_LINK else step_of_link(slot.number)}"
    return "the server secret"


def hand_labels(events: Sequence[tuple[int, Event]]) -> dict[int, str]:
    labels = {CUT_LINK: "the cut"}
    deals = [e for _, e in events if isinstance(e, Dealt)]
    for number, dealt in enumerate(deals, 1):
        labels[number + 1] = f"game {dealt.game} hand {dealt.hand}"
    return labels


def _committed(event: SeedsCommitted, links: int, where: str) -> bytes:
    if event.scheme != SCHEME:
        raise Discrepancy(f"{where}: the scheme is {event.scheme!r}; this verifier knows {SCHEME}")
    if event.links != links:
        raise Discrepancy(f"{where}: chain {event.chain} has {event.links} links, chain 1 {links}")
    return _hex32(event.commitment, f"{where}: the commitment")


def _entropy(event: EntropyFixed, where: str, seats: int) -> list[str]:
    if len(event.entropy) != seats:
        raise Discrepancy(f"{where}: entropy is given for {len(event.entropy)} seats, not {seats}")
    return list(event.entropy)


def _revealed(
    event: SeedRevealed,
    commitments: dict[int, bytes],
    seeds: dict[int, bytes],
    links: int,
    labels: dict[int, str],
) -> bytes:
    label = labels.get(event.link, step_of_link(event.link))
    if event.step != step_of_link(event.link):
        raise Discrepancy(f"{label}: the seed of link {event.link} says it is for {event.step!r}")
    seed = _hex32(event.seed, f"{label}: the revealed seed")
    chain, index = locate(event.link, links)
    # The link before is already checked against the commitment, so one hash settles it.
    before = commitments[chain] if index == 1 else seeds[event.link - 1]
    if not hashes_to(seed, 1, before):
        raise Discrepancy(f"{label}: the revealed seed does not hash to the commitment")
    return seed


def _check_secret(
    event: SecretRevealed, commitments: dict[int, bytes], links: int, where: str
) -> None:
    secret = bytes.fromhex(event.secret) if _is_hex(event.secret) else b""
    if len(secret) < SECRET_BYTES:
        raise Discrepancy(f"{where}: the server secret is not {SECRET_BYTES} bytes of hex")
    for chain, value in commitments.items():
        if not hashes_to(chain_root(secret, chain), links, value):
            raise Discrepancy(
                f"{where}: the revealed server secret does not give chain {chain}'s commitment"
            )


def _hex32(text: str, what: str) -> bytes:
    if not _is_hex(text) or len(text) != 64:
        raise Discrepancy(f"{what} is not 32 bytes of hex")
    return bytes.fromhex(text)


def _is_hex(text: str) -> bool:
    return len(text) % 2 == 0 and all(c in "0123456789abcdefABCDEF" for c in text)
