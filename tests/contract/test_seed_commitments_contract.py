"""The seed commitment store contract: every adapter passes these, unchanged."""

from __future__ import annotations

import asyncio
import hashlib
from datetime import timedelta

from tests.contract.conftest import Commitments


def value(name: str) -> bytes:
    return hashlib.sha256(name.encode()).digest()


def secret(name: str) -> bytes:
    return hashlib.sha256(b"secret " + name.encode()).digest()


async def test_a_commitment_gives_its_secret_once(commitments: Commitments) -> None:
    store = commitments.store
    await store.add(value("a"), secret("a"))
    await store.add(value("b"), secret("b"))

    assert await store.claim(value("a")) == secret("a")
    assert await store.claim(value("a")) is None
    assert await store.claim(value("b")) == secret("b")


async def test_an_unknown_commitment_gives_nothing(commitments: Commitments) -> None:
    await commitments.store.add(value("a"), secret("a"))

    assert await commitments.store.claim(value("never made")) is None


async def test_a_commitment_claimed_twice_at_once_goes_to_one_claim(
    commitments: Commitments,
) -> None:
    store = commitments.store
    await store.add(value("a"), secret("a"))

    results = await asyncio.gather(store.claim(value("a")), store.claim(value("a")))

    assert sorted(results, key=lambda result: result is None) == [secret("a"), None]


async def test_one_unused_for_a_day_is_forgotten(commitments: Commitments) -> None:
    store = commitments.store
    await store.add(value("old"), secret("old"))
    await commitments.age(timedelta(days=1, minutes=1))

    await store.add(value("new"), secret("new"))

    assert await store.claim(value("old")) is None
    assert await store.claim(value("new")) == secret("new")


async def test_one_younger_than_a_day_is_kept(commitments: Commitments) -> None:
    store = commitments.store
    await store.add(value("recent"), secret("recent"))
    await commitments.age(timedelta(hours=23))

    await store.add(value("new"), secret("new"))

    assert await store.claim(value("recent")) == secret("recent")
