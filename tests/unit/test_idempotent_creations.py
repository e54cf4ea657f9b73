"""Idempotent creations on the in-memory adapter: the answer comes back to whoever brings the
key, is kept sealed, and only for its window; another request under the key is refused."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import msgspec
import pytest

from adapters.memory.match_creations import InMemoryMatchCreations
from service.errors import IdempotencyKeyReused, IdempotencyWindowOver
from service.matches.idempotent import WINDOW, IdempotentCreations
from service.matches.use_case_types import CreatedMatch
from web.matches import unwrapped_creation


class Answer(msgspec.Struct, frozen=True):
    token: str


class Clock:
    def __init__(self) -> None:
        self.now = datetime(2026, 11, 30, 12, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now


async def test_a_retry_gets_the_first_answer_which_is_kept_only_sealed() -> None:
    store = InMemoryMatchCreations()
    creations = IdempotentCreations(store)
    made: list[Answer] = []

    async def create() -> Answer:
        made.append(Answer(f"gst_secret_token_{len(made)}"))
        return made[-1]

    first = await creations.once(scope="op", key="k", request=[1], create=create, answer=Answer)
    again = await creations.once(scope="op", key="k", request=[1], create=create, answer=Answer)

    assert first == again == made[0]
    assert len(made) == 1
    (sealed,) = store.sealed_answers()
    assert b"gst_secret_token" not in sealed
    with pytest.raises(IdempotencyKeyReused):
        await creations.once(scope="op", key="k", request=[2], create=create, answer=Answer)


async def test_after_the_window_the_answer_is_gone_and_nothing_is_created_again() -> None:
    clock = Clock()
    store = InMemoryMatchCreations(clock)
    creations = IdempotentCreations(store)

    async def create() -> Answer:
        return Answer("t")

    await creations.once(scope="op", key="k", request=[1], create=create, answer=Answer)
    clock.now += WINDOW
    await creations.once(scope="op", key="other", request=[1], create=create, answer=Answer)

    with pytest.raises(IdempotencyWindowOver):
        await creations.once(scope="op", key="k", request=[1], create=create, answer=Answer)
    assert len(store.sealed_answers()) == 1  # the expired one was wiped by the later creation


async def test_a_failed_creation_leaves_the_key_free() -> None:
    creations = IdempotentCreations(InMemoryMatchCreations())

    async def fail() -> Answer:
        raise RuntimeError("refused")

    async def create() -> Answer:
        return Answer("t")

    with pytest.raises(RuntimeError):
        await creations.once(scope="op", key="k", request=[1], create=fail, answer=Answer)
    answer = await creations.once(scope="op", key="k", request=[1], create=create, answer=Answer)

    assert answer == Answer("t")
    assert timedelta(hours=24) == WINDOW


async def test_an_answer_kept_in_an_older_shape_comes_back_in_todays() -> None:
    """A three- or four-seat match's answer was kept wrapped in ``created`` until one create
    path served every table size: a retry within its window still gets its match."""
    creations = IdempotentCreations(InMemoryMatchCreations())
    created = CreatedMatch("m-1", {0: "gst_t"}, "inv-1", "ab" * 32, {1: "inv-1", 2: "inv-2"})

    async def create_wrapped() -> Wrapped:
        return Wrapped(created, created.invite_codes)

    async def create_again() -> CreatedMatch:
        raise AssertionError("a retry creates nothing")

    await creations.once(scope="op", key="k", request=[1], create=create_wrapped, answer=Wrapped)
    again = await creations.once(
        scope="op",
        key="k",
        request=[1],
        create=create_again,
        answer=CreatedMatch,
        upcast=unwrapped_creation,
    )

    assert again == created


class Wrapped(msgspec.Struct, frozen=True):
    created: CreatedMatch
    invite_codes: dict[int, str]
