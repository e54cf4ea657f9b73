"""Provably fair shuffles: the server's hash chains of seeds, and the seed of each shuffle.

The scheme ``gin-fair-1``, exactly (``docs/audit.md`` says the same for outside verifiers):

- Each match has a server secret ``S`` (32 random bytes), drawn before any seat gives entropy.
- Chain ``k`` (1, 2, ...) has ``L`` links (``CHAIN_LINKS``; every commitment records it). Its
  root is ``R_k = HMAC-SHA256(key=S, msg="gin-fair-1 chain <k>")``. With ``x_L = R_k`` and
  ``x_(i-1) = SHA-256(x_i)``, the chain's commitment is ``x_0``, published before it is used.
- The links are used in the order ``x_1, x_2, .., x_L``, so a revealed ``x_i`` proves itself
  (``SHA-256`` applied ``i`` times gives the commitment) and tells nothing of ``x_(i+1)``.
- The match numbers its links across chains: link ``n`` is ``x_i`` of chain ``k`` with
  ``k = (n - 1) // L + 1`` and ``i = (n - 1) % L + 1``. Link 1 seeds the cut; link ``d + 1``
  seeds the ``d``-th deal of the match.
- The seed of a shuffle is ``HMAC-SHA256(key=link, msg=lp("gin-fair-1") || lp(match id) ||
  lp(step) || lp(seat 0's entropy) || lp(seat 1's entropy))``, where ``step`` is ``"cut"`` or
  ``"deal <d>"`` and ``lp(s)`` is the UTF-8 bytes of ``s`` after their length as 4 bytes
  big-endian. Its hex is the seed of the ``Cut`` or ``Deal`` command
  (``domain.shuffle.shuffled_deck``).
- When the match is over ``S`` itself is revealed, which proves every chain's commitment.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Sequence
from functools import lru_cache

SCHEME = "gin-fair-1"
CHAIN_LINKS = 1024
SECRET_BYTES = 32
CUT_LINK = 1


def new_secret() -> bytes:
    return secrets.token_bytes(SECRET_BYTES)


def chain_root(secret: bytes, chain: int) -> bytes:
    return hmac.new(secret, f"{SCHEME} chain {chain}".encode(), hashlib.sha256).digest()


def chain_links(secret: bytes, chain: int, links: int) -> tuple[bytes, ...]:
    """``(x_0, x_1, .., x_L)`` of one chain: the commitment first, then the links in use order."""
    values = [chain_root(secret, chain)]
    for _ in range(links):
        values.append(hashlib.sha256(values[-1]).digest())
    values.reverse()
    return tuple(values)


# Every CHECKPOINT-th link of a chain is kept, so any link is at most CHECKPOINT - 1 hashes
# away: a process walks a match's chain once, and a view costs microseconds, not a walk.
CHECKPOINT = 32


@lru_cache(maxsize=1024)
def _checkpoints(secret: bytes, chain: int, links: int) -> dict[int, bytes]:
    # A round starts dozens of matches, each walking a chain: the walk is the costliest step
    # of a match's creation, so its inner loop is a bare run of hashes between checkpoints.
    sha256 = hashlib.sha256
    value = chain_root(secret, chain)
    kept = {links: value}
    index = links
    while index > 0:
        below = (index - 1) // CHECKPOINT * CHECKPOINT
        for _ in range(index - below):
            value = sha256(value).digest()
        index = below
        kept[index] = value
    return kept


def chain_link(secret: bytes, chain: int, index: int, links: int) -> bytes:
    """``x_index`` of a chain (``x_0`` is its commitment)."""
    above = min(links, -(-index // CHECKPOINT) * CHECKPOINT)
    value = _checkpoints(secret, chain, links)[above]
    for _ in range(above - index):
        value = hashlib.sha256(value).digest()
    return value


def commitment(secret: bytes, chain: int, links: int) -> bytes:
    return chain_link(secret, chain, 0, links)


def locate(link: int, links: int) -> tuple[int, int]:
    """(chain, index in the chain) of the match's link number ``link``."""
    if link < 1:
        raise ValueError(f"links are numbered from 1, not {link}")
    return (link - 1) // links + 1, (link - 1) % links + 1


# A command's receipt is blinded by the seed of the last deal: the same seed for every command
# of a hand, and up to CHECKPOINT - 1 hashes to walk each time (about 1% of a command's CPU).
@lru_cache(maxsize=4096)
def server_seed(secret: bytes, link: int, links: int) -> bytes:
    chain, index = locate(link, links)
    return chain_link(secret, chain, index, links)


def server_seeds(secret: bytes, last: int, links: int) -> list[bytes]:
    """The match's links 1 .. ``last``, each chain walked down once from its highest."""
    return list(_server_seeds(secret, last, links))


# Every view of a match shows its revealed seeds, and they change only once a hand.
@lru_cache(maxsize=4096)
def _server_seeds(secret: bytes, last: int, links: int) -> tuple[bytes, ...]:
    seeds: list[bytes] = []
    if last < 1:
        return ()
    last_chain, last_index = locate(last, links)
    for chain in range(1, last_chain + 1):
        top = last_index if chain == last_chain else links
        value = chain_link(secret, chain, top, links)
        run = [value]
        for _ in range(top - 1):
            value = hashlib.sha256(value).digest()
            run.append(value)
        seeds += reversed(run)
    return tuple(seeds)


def deal_link(deal: int) -> int:
    return deal + 1


def step_of_link(link: int) -> str:
    return "cut" if link == CUT_LINK else f"deal {link - 1}"


def shuffle_seed(link_seed: bytes, match_id: str, entropy: Sequence[str], step: str) -> bytes:
    """The seed material of one shuffle, from the server's link and both seats' entropy."""
    message = bytearray()
    for part in (SCHEME, match_id, step, *entropy):
        encoded = part.encode()
        message += len(encoded).to_bytes(4, "big") + encoded
    return hmac.new(link_seed, bytes(message), hashlib.sha256).digest()


def hashes_to(value: bytes, times: int, target: bytes) -> bool:
    """Whether SHA-256 applied ``times`` times to ``value`` gives ``target``."""
    for _ in range(times):
        value = hashlib.sha256(value).digest()
    return hmac.compare_digest(value, target)
