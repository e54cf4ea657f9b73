"""A view asked for with ``If-None-Match`` names the version its client has seen, whichever
seat's tag it is: the answer is at least that new, from whichever process serves it (the
view may come from that process's cache, ``MatchStreams.current``), and it is 304 only for the
tag of the asking seat's own view at the version the match is at."""

from __future__ import annotations

import random

import httpx

from tests.api.any_size import EVERY_SIZE, create_at, play_one, views
from tests.api.conftest import Asgi, served
from tests.api.players import LONG_GAME, HttpClient, Table


async def _view(client: HttpClient, table: Table, seat: int, tag: str) -> httpx.Response:
    response = await client.get(
        f"{table.path}/view", headers={**table.headers(seat), "If-None-Match": tag}
    )
    assert response.status_code in (200, 304), response.text
    return response


def _seen(response: httpx.Response) -> tuple[int, str, int]:
    version = response.json()["version"] if response.status_code == 200 else -1
    return response.status_code, response.headers["etag"], version


@EVERY_SIZE
async def test_only_the_asking_seats_own_tag_at_the_current_version_is_not_modified(
    asgi: Asgi, seats: int
) -> None:
    client = asgi.client
    table = await create_at(client, seats)
    await play_one(client, table, random.Random(seats))
    seen = await views(client, table)
    version = seen[0]["version"]
    for seat in seen:
        own = f'"v{version}-s{seat}"'
        assert _seen(await _view(client, table, seat, own)) == (304, own, -1)
        # A tag of no seat names the version alone, as it always has.
        assert _seen(await _view(client, table, seat, f'"v{version}"')) == (304, own, -1)
        for other in seen:
            if other != seat:
                tag = f'"v{version}-s{other}"'
                assert _seen(await _view(client, table, seat, tag)) == (200, own, version)


@EVERY_SIZE
async def test_a_command_answered_by_one_app_is_in_the_view_another_app_gives_for_its_tag(
    database_url: str, seats: int
) -> None:
    """Read your writes across processes: the other app has the match cached at an older
    version, and the command's wake-up may not have reached it yet; the tag it is sent is
    what tells it its cached state is not enough."""
    rng = random.Random(47 * seats)
    async with served(database_url) as first, served(database_url) as second:
        apps = (first, second)
        table = await create_at(first.client, seats, LONG_GAME)
        seen = await views(second.client, table)  # the second app caches the match
        for step in range(30):
            here, there = apps[step % 2], apps[(step + 1) % 2]
            answer = await play_one(here.client, table, rng, seen)
            answered, tag = answer.json()["version"], answer.headers["etag"]
            seen = {}
            for seat in sorted(table.tokens):
                response = await _view(there.client, table, seat, tag)
                status, etag, version = _seen(response)
                if status == 304:  # the seat that sent the command: its answer is its view
                    assert etag == tag
                    seen[seat] = answer.json()
                    continue
                assert version >= answered, (seat, version, answered)
                seen[seat] = response.json()
