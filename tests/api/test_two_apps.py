"""Two instances of the app on one database (as two server processes would be) serve one match
interchangeably: commands may go to either, and a live stream on one sees every command the
other handled. Nothing is shared between them but PostgreSQL."""

from __future__ import annotations

import asyncio
import random
from typing import Any

import httpx

from tests.api.any_size import EVERY_SIZE, create_at, seat_phase
from tests.api.conftest import Asgi, served
from tests.api.live import read_stream, sse_messages
from tests.api.players import LONG_GAME, Table, choose, create_table

PROMPTLY = 10.0  # seconds; a stream that only polled would wait out its 15 s keep-alive


async def test_two_apps_serve_one_match_and_streams_see_each_others_commands(
    database_url: str,
) -> None:
    rng = random.Random(31)
    async with served(database_url) as first, served(database_url) as second:
        apps = (first, second)
        table: Table = await create_table(first.client, game_target=1, match_target=0)
        chunks: list[bytes] = []
        stream = asyncio.create_task(
            read_stream(first.app, f"{table.path}/stream", table.headers(0), chunks.append)
        )
        version = 0
        for step in range(10_000):
            # Every other command goes to the other app, which also renders the view.
            app = apps[step % 2]
            views = [
                (await app.client.get(f"{table.path}/view", headers=table.headers(seat))).json()
                for seat in (0, 1)
            ]
            assert views[0]["version"] == views[1]["version"] >= version
            if views[0]["phase"] == "match_over":
                break
            view = views[views[0]["turn"]]
            response = await app.client.post(
                f"{table.path}/commands",
                json=choose(view, rng),
                headers=table.headers(view["seat"]),
            )
            assert response.status_code == 200, response.text
            version = response.json()["version"]
            # The stream on the first app hears of it, wherever it was handled.
            await asyncio.wait_for(_stream_reaches(chunks, version), PROMPTLY)
        assert await asyncio.wait_for(stream, PROMPTLY) == 200


async def _stream_reaches(chunks: list[bytes], version: int) -> None:
    while True:
        messages = sse_messages(b"".join(chunks).decode())
        if messages and messages[-1]["id"] >= version:
            return
        await asyncio.sleep(0.01)


# Each app decides a command on the state it has cached, without reading first: the append's
# version check is what proves that state current. Racing across processes and deciding on a
# state another process has moved past must still apply exactly one command, on the match as it
# is, and tell a seat nothing the match as it is would not.


async def _seat_to_act(app: Asgi, table: Table) -> dict[str, Any]:
    for seat in sorted(table.tokens):
        view = await _view(app, table, seat)
        if view["legal_actions"]:
            return view
    raise AssertionError("nobody may act")


async def _view(app: Asgi, table: Table, seat: int) -> dict[str, Any]:
    response = await app.client.get(f"{table.path}/view", headers=table.headers(seat))
    assert response.status_code == 200, response.text
    view: dict[str, Any] = response.json()
    return view


async def _versions(app: Asgi, table: Table) -> list[int]:
    feed = (await app.client.get(f"{table.path}/events")).json()
    return [envelope["version"] for envelope in feed["events"]]


def _problem(response: httpx.Response) -> tuple[int, str, str]:
    assert response.headers["content-type"] == "application/problem+json", response.text
    body = response.json()
    return response.status_code, body["title"], body["detail"]


@EVERY_SIZE
async def test_two_commands_for_one_seat_at_once_on_two_apps_apply_exactly_one(
    database_url: str, seats: int
) -> None:
    rng, raced = random.Random(41 * seats), 0
    async with served(database_url) as first, served(database_url) as second:
        table = await create_at(first.client, seats, LONG_GAME)
        for step in range(40):
            # Every other round each app has seen the match last, so one of the two decides
            # on a state it cached before the other app's latest command.
            view = await _seat_to_act((first, second)[step % 2], table)
            if len(view["legal_actions"]) < 2 or seat_phase(view) == "layoff":
                played = await (first, second)[step % 2].client.post(
                    f"{table.path}/commands",
                    json=choose(view, rng),
                    headers=table.headers(view["seat"]),
                )
                assert played.status_code == 200, played.text
                continue
            bodies = rng.sample(view["legal_actions"], 2)
            before = await _versions(first, table)
            responses = await asyncio.gather(
                *(
                    app.client.post(
                        f"{table.path}/commands", json=body, headers=table.headers(view["seat"])
                    )
                    for app, body in zip((first, second), bodies, strict=True)
                )
            )
            statuses = sorted(response.status_code for response in responses)
            assert statuses[0] == 200, [r.text for r in responses]
            assert statuses[1] in (409, 422), [r.text for r in responses]
            loser = next(r for r in responses if r.status_code != 200)
            _problem(loser)
            winner = next(r for r in responses if r.status_code == 200).json()
            after = await _versions(second, table)
            # Only the winner's events were added: the loser was not applied after them.
            assert after[: len(before)] == before
            assert after[-1] == winner["version"]
            raced += 1
        assert raced >= 10, "too few rounds had two legal commands to race"


@EVERY_SIZE
async def test_an_app_whose_cached_state_is_stale_decides_on_the_match_as_it_is(
    database_url: str, seats: int
) -> None:
    rng, refused = random.Random(43 * seats), 0
    async with served(database_url) as stale, served(database_url) as fresh:
        table = await create_at(stale.client, seats, LONG_GAME)

        async def refuse_stale_move(seat: int, old: dict[str, Any]) -> int:
            """``old``, legal only on the stale state, is refused exactly as the fresh app
            refuses it, and nothing is applied (0: ``old`` is legal again, nothing to test)."""
            if old in (await _view(fresh, table, seat))["legal_actions"]:
                return 0
            before = await _versions(fresh, table)
            answers = [
                await app.client.post(
                    f"{table.path}/commands", json=old, headers=table.headers(seat)
                )
                for app in (stale, fresh)
            ]
            assert _problem(answers[0]) == _problem(answers[1])
            assert await _versions(fresh, table) == before
            return 1

        async def play_current_move() -> None:
            """A move legal now, sent to the stale app, lands on the match as it is; its
            answer is the view the fresh app gives at that version."""
            mover = await _seat_to_act(fresh, table)
            played = await stale.client.post(
                f"{table.path}/commands",
                json=choose(mover, rng),
                headers=table.headers(mover["seat"]),
            )
            assert played.status_code == 200, played.text
            answered = played.json()
            assert answered["version"] > mover["version"]
            assert answered == await _view(fresh, table, mover["seat"])

        for step in range(16):
            # The stale app caches the match here (its views load it) ...
            seen = await _seat_to_act(stale, table)
            old = choose(seen, rng)
            # ... and the fresh app moves it on behind its back.
            for _ in range(rng.randint(1, 3)):
                mover = await _seat_to_act(fresh, table)
                moved = await fresh.client.post(
                    f"{table.path}/commands",
                    json=choose(mover, rng),
                    headers=table.headers(mover["seat"]),
                )
                assert moved.status_code == 200, moved.text
            # The first command the stale app gets is the stale move (its append's conflict
            # brings the tail) or a current one (which its stale state may refuse: only a
            # state read from the store may).
            if step % 2:
                refused += await refuse_stale_move(seen["seat"], old)
                await play_current_move()
            else:
                await play_current_move()
                refused += await refuse_stale_move(seen["seat"], old)
        assert refused, "the stale app was never sent a command the match had moved past"
