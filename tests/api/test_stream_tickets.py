"""Stream tickets: a seat's token traded for a single-use pass to its own live stream, for
browsers (whose ``EventSource`` sends no headers). A used, expired or foreign ticket is a 401
problem, never a spectator's stream; a ticket opens only the seat it was issued for."""

from __future__ import annotations

import random
from datetime import timedelta

import psycopg
from litestar import Litestar
from litestar.testing import AsyncTestClient

from tests.api.any_size import EVERY_SIZE, create_at, play_out
from tests.api.live import sse_messages
from tests.api.players import Table
from tests.api.problems import assert_problem

Client = AsyncTestClient[Litestar]


async def ticket_for(client: Client, table: Table, seat: int) -> str:
    response = await client.post(f"{table.path}/stream-tickets", headers=table.headers(seat))
    assert response.status_code == 201, response.text
    body = response.json()
    assert body["expires_in"] > 0
    ticket: str = body["ticket"]
    return ticket


async def finished_table(client: Client, seats: int = 2) -> Table:
    """A match played to its end: its streams end once they have sent every event."""
    table = await create_at(client, seats, {"game_target": 1, "match_target": 0})
    await play_out(client, table, random.Random(11))
    return table


async def resigned_table(client: Client, seats: int = 2) -> Table:
    """A match over at once (a seat resigned): for the tests that are about the ticket, not
    what a stream says. A stream opened by mistake still ends, rather than holding the test."""
    table = await create_at(client, seats, {"game_target": 1, "match_target": 0})
    resigned = await client.post(
        f"{table.path}/commands", json={"type": "resign"}, headers=table.headers(0)
    )
    assert resigned.status_code == 200, resigned.text
    return table


@EVERY_SIZE
async def test_a_ticket_opens_its_seats_stream_with_what_that_seat_may_see(
    client: Client, seats: int
) -> None:
    table = await finished_table(client, seats)
    for seat in table.tokens:
        ticket = await ticket_for(client, table, seat)
        streamed = await client.get(f"{table.path}/stream", params={"ticket": ticket})
        assert streamed.status_code == 200, streamed.text
        feed = await client.get(f"{table.path}/events", headers=table.headers(seat))
        assert [m["data"] for m in sse_messages(streamed.text)] == feed.json()["events"]


@EVERY_SIZE
async def test_a_ticket_opens_one_stream_once(client: Client, seats: int) -> None:
    table = await resigned_table(client, seats)
    ticket = await ticket_for(client, table, seats - 1)
    assert (await client.get(f"{table.path}/stream", params={"ticket": ticket})).status_code == 200

    again = await client.get(f"{table.path}/stream", params={"ticket": ticket})

    assert_problem(again, 401, "invalid-stream-ticket")


async def test_an_unknown_ticket_is_refused_not_a_spectator_stream(client: Client) -> None:
    table = await resigned_table(client)

    response = await client.get(f"{table.path}/stream", params={"ticket": "gst_made_up"})

    assert_problem(response, 401, "invalid-stream-ticket")


async def test_a_ticket_opens_no_other_match(client: Client) -> None:
    table, other = await resigned_table(client), await resigned_table(client)
    ticket = await ticket_for(client, table, 0)

    response = await client.get(f"{other.path}/stream", params={"ticket": ticket})

    assert_problem(response, 401, "invalid-stream-ticket")
    # Used up by the attempt: a ticket shown to the wrong match is not kept for the right one.
    retry = await client.get(f"{table.path}/stream", params={"ticket": ticket})
    assert_problem(retry, 401, "invalid-stream-ticket")


async def test_an_expired_ticket_is_refused(client: Client, database_url: str) -> None:
    table = await resigned_table(client)
    ticket = await ticket_for(client, table, 0)
    async with await psycopg.AsyncConnection.connect(database_url, autocommit=True) as owner:
        await owner.execute(
            "UPDATE stream_tickets SET expires_at = expires_at - %s", (timedelta(minutes=5),)
        )

    response = await client.get(f"{table.path}/stream", params={"ticket": ticket})

    assert_problem(response, 401, "invalid-stream-ticket")


async def test_a_ticket_needs_the_seats_token(client: Client) -> None:
    table = await resigned_table(client)
    path = f"{table.path}/stream-tickets"

    assert_problem(await client.post(path), 401, "missing-token")
    wrong = await client.post(path, headers={"Authorization": "Bearer gin_not_a_seat"})
    assert_problem(wrong, 403, "wrong-token")


async def test_a_token_and_a_ticket_together_are_refused(client: Client) -> None:
    table = await resigned_table(client)
    ticket = await ticket_for(client, table, 1)

    response = await client.get(
        f"{table.path}/stream", params={"ticket": ticket}, headers=table.headers(0)
    )

    assert_problem(response, 400, "invalid-parameter")


async def test_a_token_in_the_url_is_refused_not_a_spectator_stream(client: Client) -> None:
    table = await resigned_table(client)

    response = await client.get(f"{table.path}/stream", params={"token": table.tokens[0]})

    problem = assert_problem(response, 400, "invalid-parameter")
    assert table.tokens[0] not in problem["detail"]
