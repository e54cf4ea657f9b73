"""Every stream of a match, at two, three and four seats, enters the global log's tree blinded
with the match's secret: the signed head is the one worked out with those blinds, and not the
one with the match's leaves bare (which a seat could compute from guessed cards)."""

from __future__ import annotations

from collections.abc import AsyncIterator

import msgspec
import pytest
from litestar.testing import AsyncTestClient

from adapters.postgres.event_store import PostgresEventStore
from service.audit.log_checkpoints import parse_log_checkpoint
from service.audit.notes import parse_note
from service.store.match_stream_names import match_of_stream
from tests.api.conftest import settings_for
from tests.audit.log_leaves import (
    Client,
    create_match,
    every_match,
    head,
    log_events,
    match_blinds,
    old_release,
    owner,
    play_some,
)
from web.app import create_app

# The streams a match writes, by its number of seats (its own stream, and its fairness one).
STREAMS = {2: {"match-", "fairness-"}, 3: {"format-match-", "fairness-"}}
STREAMS[4] = STREAMS[3]


@pytest.fixture(scope="module")
async def client(
    database_url: str, tmp_path_factory: pytest.TempPathFactory
) -> AsyncIterator[Client]:
    key = tmp_path_factory.mktemp("signing") / "signing-key.pem"
    settings = msgspec.structs.replace(settings_for(database_url), signing_key_file=str(key))
    async with AsyncTestClient(app=create_app(settings)) as test_client:
        yield test_client


async def test_a_database_made_by_this_release_blinds_every_match_from_the_start(
    database_url: str,
) -> None:
    async with PostgresEventStore.connect(database_url, max_size=2) as store:
        assert await store.every_match_blinded_from() == 0


@pytest.mark.parametrize("players", [2, 3, 4])
async def test_every_stream_of_a_match_enters_the_tree_blinded(
    client: Client, database_url: str, players: int
) -> None:
    match_id, tokens = await create_match(client, players)
    await play_some(client, match_id, tokens, seed=players, commands=12)
    response = await client.get("/log/checkpoint")
    assert response.status_code == 200, response.text
    size, signed = parse_log_checkpoint(parse_note(response.text).text)

    events, blinds = (await log_events(database_url))[:size], await match_blinds(database_url)
    mine = [event for event in events if owner(event, blinds) == match_id]
    assert {e.stream_id.removesuffix(match_id) for e in mine} == STREAMS[players]
    assert all(match_of_stream(event.stream_id) == match_id for event in mine)
    assert head(events, blinds, every_match) == signed
    bare = head(events, blinds, lambda _, event: owner(event, blinds) != match_id)
    assert bare != signed
    # Nor the head of the rule before this release, once any stream of three or four seats
    # is in the log (it left those bare).
    formats = any(event.stream_id.startswith("format-match-") for event in events)
    assert (head(events, blinds, old_release) == signed) is not formats
