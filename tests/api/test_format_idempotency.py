"""Idempotent commands in three- and four-player matches: a retry under the same
Idempotency-Key gets the first answer (the bots' replies in it included) and changes nothing;
the key with another command is refused; a refused command is not kept under its key."""

from __future__ import annotations

import asyncio
from typing import Any

from litestar import Litestar
from litestar.testing import AsyncTestClient

from tests.api.players import Json, bearer
from tests.api.problems import assert_problem
from tests.api.test_formats import create

Client = AsyncTestClient[Litestar]
LONG = {"game_target": 500, "match_target": 0}


async def send(client: Client, path: str, token: str, body: Json, key: str) -> Any:
    headers = {**bearer(token), "Idempotency-Key": key}
    return await client.post(f"{path}/commands", json=body, headers=headers)


async def events(client: Client, path: str) -> int:
    return len((await client.get(f"{path}/events")).json()["events"])


async def person_to_play(client: Client, created: Json) -> tuple[str, str, Json]:
    """The match's path, the person's token and its view, once the person has a move."""
    (seat,) = created["seats"]
    path, token = f"/matches/{created['match_id']}", seat["token"]
    view = (await client.get(f"{path}/view", headers=bearer(token))).json()
    assert view["legal_actions"], view
    return path, token, view


async def test_a_retry_gets_the_first_answer_with_the_bots_replies(client: Client) -> None:
    created = await create(client, players=3, bots=[None, "random", "random"], options=LONG)
    path, token, view = await person_to_play(client, created)
    action = view["legal_actions"][0]
    first = await send(client, path, token, action, "k-1")
    assert first.status_code == 200, first.text
    count = await events(client, path)
    assert count == first.json()["version"]
    again = await send(client, path, token, action, "k-1")
    assert again.status_code == 200, again.text
    assert again.content == first.content
    assert await events(client, path) == count
    # The match moves on; the retry still gets the first answer.
    after = first.json()
    if after["legal_actions"]:
        moved = await send(client, path, token, after["legal_actions"][0], "k-2")
        assert moved.status_code == 200, moved.text
    late = await send(client, path, token, action, "k-1")
    assert late.content == first.content


async def test_the_key_with_another_command_is_refused(client: Client) -> None:
    created = await create(client, players=4, bots=[None, "random", "random", "random"])
    path, token, view = await person_to_play(client, created)
    first = await send(client, path, token, view["legal_actions"][0], "k-1")
    assert first.status_code == 200, first.text
    other = {"type": "discard", "card": view["hand"][0]}
    count = await events(client, path)
    refused = await send(client, path, token, other, "k-1")
    assert_problem(refused, 422, "idempotency-key-reused")
    assert await events(client, path) == count


async def test_a_refused_command_is_not_kept_under_its_key(client: Client) -> None:
    created = await create(client, players=3, bots=[None, "random", "random"], options=LONG)
    path, token, view = await person_to_play(client, created)
    legal = view["legal_actions"][0]
    illegal = {"type": "finish_layoff"}
    assert illegal not in view["legal_actions"]
    refused = await send(client, path, token, illegal, "k-1")
    assert 400 <= refused.status_code < 500, refused.text
    applied = await send(client, path, token, legal, "k-1")
    assert applied.status_code == 200, applied.text


async def test_racing_retries_apply_once(client: Client) -> None:
    created = await create(client, players=3, bots=[None, "simple", "simple"], options=LONG)
    path, token, view = await person_to_play(client, created)
    action = view["legal_actions"][0]
    answers = await asyncio.gather(*(send(client, path, token, action, "k-r") for _ in range(4)))
    assert all(a.status_code in (200, 409) for a in answers), [a.text for a in answers]
    applied = [a for a in answers if a.status_code == 200]
    assert applied
    assert all(a.content == applied[0].content for a in applied)
    assert await events(client, path) == applied[0].json()["version"]
