"""The seed scheme gin-fair-1: reimplemented here from its description in docs/audit.md with
nothing but hashlib and hmac, and compared with the service's implementation."""

from __future__ import annotations

import hashlib
import hmac
import secrets
from pathlib import Path

from domain import shuffled_deck
from domain.cards import names
from domain.shuffle import cut_pairs
from service.fairness.events import Slot, slots_for
from service.fairness.seeds import (
    chain_link,
    chain_links,
    commitment,
    locate,
    server_seed,
    server_seeds,
    shuffle_seed,
    step_of_link,
)

LINKS = 16
DOCS = Path(__file__).resolve().parents[2] / "docs" / "audit.md"


def documented_chain(secret: bytes, chain: int, links: int) -> list[bytes]:
    """x_0 .. x_L as docs/audit.md defines them."""
    root = hmac.new(secret, b"gin-fair-1 chain " + str(chain).encode(), hashlib.sha256).digest()
    values = [root]
    for _ in range(links):
        values.insert(0, hashlib.sha256(values[0]).digest())
    return values


def documented_shuffle_seed(link: bytes, match_id: str, step: str, entropy: list[str]) -> bytes:
    message = b""
    for part in ("gin-fair-1", match_id, step, *entropy):
        data = part.encode("utf-8")
        message += len(data).to_bytes(4, "big") + data
    return hmac.new(link, message, hashlib.sha256).digest()


def test_the_chains_are_as_documented() -> None:
    secret = secrets.token_bytes(32)
    for chain in (1, 2, 5):
        assert list(chain_links(secret, chain, LINKS)) == documented_chain(secret, chain, LINKS)


def test_each_link_hashes_to_the_one_before_and_the_first_to_the_commitment() -> None:
    secret = secrets.token_bytes(32)
    values = chain_links(secret, 1, LINKS)
    assert values[0] == commitment(secret, 1, LINKS)
    for index in range(1, LINKS + 1):
        assert hashlib.sha256(values[index]).digest() == values[index - 1]


def test_links_kept_at_checkpoints_are_the_links_of_the_whole_chain() -> None:
    secret = secrets.token_bytes(32)
    for links in (1, 2, 31, 32, 33, 70):
        whole = documented_chain(secret, 3, links)
        assert [chain_link(secret, 3, i, links) for i in range(links + 1)] == whole
    assert server_seeds(secret, 150, 70) == [server_seed(secret, n, 70) for n in range(1, 151)]


def test_links_are_numbered_through_the_chains_the_cut_first_then_each_deal() -> None:
    secret = secrets.token_bytes(32)
    assert locate(1, LINKS) == (1, 1)
    assert locate(LINKS, LINKS) == (1, LINKS)
    assert locate(LINKS + 1, LINKS) == (2, 1)
    assert server_seed(secret, LINKS + 1, LINKS) == documented_chain(secret, 2, LINKS)[1]
    assert [step_of_link(n) for n in (1, 2, 3)] == ["cut", "deal 1", "deal 2"]


def test_a_deal_is_the_documented_function_of_the_link_the_match_and_the_entropy() -> None:
    secret = secrets.token_bytes(32)
    link = server_seed(secret, 4, LINKS)
    entropy = ["alice's dice", ""]
    seed = shuffle_seed(link, "m-1", entropy, "deal 3")
    assert seed == documented_shuffle_seed(link, "m-1", "deal 3", entropy)
    assert shuffled_deck(seed) == shuffled_deck(
        documented_shuffle_seed(link, "m-1", "deal 3", entropy)
    )


def test_every_input_of_a_shuffle_seed_changes_it() -> None:
    link = secrets.token_bytes(32)
    base = shuffle_seed(link, "m", ["a", "b"], "deal 1")
    assert shuffle_seed(secrets.token_bytes(32), "m", ["a", "b"], "deal 1") != base
    assert shuffle_seed(link, "n", ["a", "b"], "deal 1") != base
    assert shuffle_seed(link, "m", ["a", "c"], "deal 1") != base
    assert shuffle_seed(link, "m", ["a", "b"], "deal 2") != base


def test_entropy_is_length_prefixed_so_moving_a_boundary_changes_the_seed() -> None:
    link = secrets.token_bytes(32)
    assert shuffle_seed(link, "m", ["ab", "c"], "cut") != shuffle_seed(
        link, "m", ["a", "bc"], "cut"
    )


def test_the_fairness_stream_commits_first_and_reveals_a_seed_only_after_its_hand() -> None:
    def kinds(**game: object) -> list[Slot]:
        return slots_for(links=2, **game)  # type: ignore[arg-type]

    before_cut = kinds(cut=False, deals=0, last_hand_over=False, match_over=False)
    assert before_cut == [Slot("commit", 1)]
    in_hand_one = kinds(cut=True, deals=1, last_hand_over=False, match_over=False)
    assert in_hand_one == [Slot("commit", 1), Slot("entropy"), Slot("reveal", 1)]
    # Two links a chain: deal 2 takes link 3, the first of chain 2, committed before it is used.
    over = kinds(cut=True, deals=3, last_hand_over=True, match_over=True)
    assert over == [
        Slot("commit", 1),
        Slot("entropy"),
        Slot("reveal", 1),
        Slot("reveal", 2),
        Slot("commit", 2),
        Slot("reveal", 3),
        Slot("reveal", 4),
        Slot("secret"),
    ]


def worked_example() -> dict[str, str]:
    """The ``key: value`` lines of the worked example in docs/audit.md."""
    text = DOCS.read_text().split("### Worked example", 1)[1].split("```text", 1)[1]
    lines = text.split("```", 1)[0].strip().splitlines()
    return dict(line.split(": ", 1) for line in lines)


def test_the_worked_example_of_the_documentation_holds() -> None:
    example = worked_example()
    secret = bytes(range(32))
    match_id = "00000000-0000-0000-0000-000000000000"
    entropy = ["alice", ""]
    chain = documented_chain(secret, 1, 1024)
    cut_seed = documented_shuffle_seed(chain[1], match_id, "cut", entropy)
    deal_seed = documented_shuffle_seed(chain[2], match_id, "deal 1", entropy)

    assert example["commitment"] == chain[0].hex() == commitment(secret, 1, 1024).hex()
    assert example["link 1"] == chain[1].hex() == server_seed(secret, 1, 1024).hex()
    assert example["link 2"] == chain[2].hex()
    assert example["cut seed"] == cut_seed.hex()
    assert example["cut"] == " ".join(names(cut_pairs(cut_seed)[-1]))
    assert example["deal 1 seed"] == deal_seed.hex()
    assert example["deal 1 deck, top 12"] == " ".join(names(shuffled_deck(deal_seed)[:12]))
