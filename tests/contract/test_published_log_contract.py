"""The kept log checkpoint, on both adapters: a folder of files (as served) and memory. Only a
larger checkpoint replaces the one kept; an acceptance is recorded and forgets it; and in a
folder, what one process kept another reads (the workers of a server, then ``gin db``)."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

import pytest

from adapters.memory.published_log import InMemoryPublishedLog
from adapters.published_log_file import FilePublishedLog
from service.ports.published_log import Acceptance, Published, PublishedLog

AT = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)


def published(size: int) -> Published:
    return Published(note=f"gin-rummy-log\n{size}\n...\n", size=size, published_at=AT)


@pytest.fixture(params=["file", "memory"])
def make(request: pytest.FixtureRequest, tmp_path: Path) -> Callable[[], PublishedLog]:
    if request.param == "file":
        return lambda: FilePublishedLog(tmp_path / "published-log" / "1234-5")
    memory = InMemoryPublishedLog()
    return lambda: memory


async def test_only_a_larger_checkpoint_replaces_the_one_kept(
    make: Callable[[], PublishedLog],
) -> None:
    log = make()
    assert await log.last() is None
    await log.publish(published(5))
    await log.publish(published(3))  # a slower worker's, signed earlier
    assert await make().last() == published(5)
    await log.publish(published(8))
    assert await make().last() == published(8)


async def test_an_acceptance_is_recorded_and_forgets_the_checkpoint_it_overrides(
    make: Callable[[], PublishedLog],
) -> None:
    log = make()
    await log.publish(published(8))
    decision = Acceptance(accepted_at=AT, published=published(8), found=6, reason="restored")
    await log.accept(decision)
    assert await make().last() is None
    assert await make().acceptances() == [decision]
    await log.publish(published(7))  # the restored log's first checkpoint: kept, though smaller
    assert await make().last() == published(7)
