"""The match creation contract, for every adapter: one claim per key, a finished creation's
sealed answer kept for its window only, a failed one forgotten."""

from __future__ import annotations

import asyncio
import hashlib
import os
from collections.abc import AsyncIterator
from datetime import timedelta

import pytest

from adapters.memory.match_creations import InMemoryMatchCreations
from adapters.postgres.event_store import open_pool
from adapters.postgres.match_creations import PostgresMatchCreations
from service.ports.match_creations import MatchCreations
from tests.app_login import as_app
from tests.contract.conftest import ADAPTERS

HOLD = timedelta(seconds=60)
PRINT = hashlib.sha256(b"request").digest()


def key(name: str) -> bytes:
    return hashlib.sha256(name.encode()).digest()


@pytest.fixture(params=ADAPTERS)
async def creations(request: pytest.FixtureRequest) -> AsyncIterator[MatchCreations]:
    if request.param == "memory":
        yield InMemoryMatchCreations()
    else:
        url: str = request.getfixturevalue("fresh_database_url")
        async with open_pool(as_app(url), max_size=5) as pool:
            yield PostgresMatchCreations(pool)


async def test_a_key_is_claimed_once_even_at_the_same_time(creations: MatchCreations) -> None:
    salt = os.urandom(16)

    claims = await asyncio.gather(*(creations.claim(key("k"), PRINT, salt, HOLD) for _ in range(5)))

    assert claims.count(None) == 1
    for past in claims:
        if past is not None:
            assert (past.state, past.fingerprint, past.salt) == ("running", PRINT, salt)


async def test_a_finished_creation_is_answered_with_its_sealed_answer(
    creations: MatchCreations,
) -> None:
    salt = os.urandom(16)
    await creations.claim(key("k"), PRINT, salt, HOLD)
    await creations.finish(key("k"), b"sealed answer", timedelta(hours=24))

    past = await creations.claim(key("k"), b"x" * 32, os.urandom(16), HOLD)

    assert past is not None
    assert (past.state, past.sealed, past.fingerprint, past.salt) == (
        "done",
        b"sealed answer",
        PRINT,
        salt,
    )


async def test_once_its_window_is_over_the_answer_is_gone_but_the_key_stays_used(
    creations: MatchCreations,
) -> None:
    await creations.claim(key("old"), PRINT, os.urandom(16), HOLD)
    await creations.finish(key("old"), b"old answer", timedelta(0))
    await creations.claim(key("new"), PRINT, os.urandom(16), HOLD)
    await creations.finish(key("new"), b"new answer", timedelta(hours=24))  # wipes "old"

    past = await creations.claim(key("old"), PRINT, os.urandom(16), HOLD)

    assert past is not None
    assert (past.state, past.sealed) == ("expired", None)


async def test_a_released_claim_may_be_claimed_again(creations: MatchCreations) -> None:
    await creations.claim(key("k"), PRINT, os.urandom(16), HOLD)
    await creations.release(key("k"))

    assert await creations.claim(key("k"), PRINT, os.urandom(16), HOLD) is None


async def test_a_lapsed_claim_of_an_unfinished_creation_is_taken_over(
    creations: MatchCreations,
) -> None:
    await creations.claim(key("k"), PRINT, os.urandom(16), timedelta(0))

    assert await creations.claim(key("k"), PRINT, os.urandom(16), HOLD) is None


async def test_a_lapsed_claim_is_not_taken_over_by_another_request(
    creations: MatchCreations,
) -> None:
    await creations.claim(key("k"), PRINT, os.urandom(16), timedelta(0))
    other = hashlib.sha256(b"another request").digest()

    past = await creations.claim(key("k"), other, os.urandom(16), HOLD)

    assert past is not None
    assert (past.fingerprint, past.state) == (PRINT, "running")
