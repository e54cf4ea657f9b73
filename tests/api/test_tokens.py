"""Seat tokens: random, stored only as hashes, compared in constant time, and good only for
their own seat in their own match; a missing or wrong token is a 401/403 problem."""

from __future__ import annotations

import hashlib
import hmac

import psycopg
import pytest
from litestar import Litestar
from litestar.testing import AsyncTestClient

from service.matches import tokens
from tests.api.players import bearer, create_table
from tests.api.problems import assert_problem

Client = AsyncTestClient[Litestar]


async def test_every_seat_gets_its_own_long_random_token(client: Client) -> None:
    tables = [await create_table(client) for _ in range(3)]
    issued = [token for table in tables for token in table.tokens.values()]
    assert len(set(issued)) == len(issued) == 6
    for token in issued:
        assert token.startswith("gin_")
        assert len(token) >= 4 + 43  # 32 random bytes, base64url


async def test_tokens_are_stored_only_as_sha256_hashes(client: Client, database_url: str) -> None:
    table = await create_table(client)
    with psycopg.connect(database_url) as conn:
        rows = conn.execute(
            "SELECT seat, token_hash FROM match_seats WHERE match_id = %s ORDER BY seat",
            (table.match_id,),
        ).fetchall()
        assert [(seat, bytes(h)) for seat, h in rows] == [
            (seat, hashlib.sha256(table.tokens[seat].encode()).digest()) for seat in (0, 1)
        ]
        for token in table.tokens.values():
            assert not _stored_anywhere(conn, token), "a token is stored in plain text"
        # The search itself finds what is stored: the match's events name its options.
        assert _stored_anywhere(conn, '"knock_limit":10')


def _stored_anywhere(conn: psycopg.Connection[tuple[object, ...]], text: str) -> bool:
    columns = conn.execute(
        "SELECT table_name, column_name, data_type FROM information_schema.columns "
        "WHERE table_schema = 'public' AND data_type IN ('text', 'bytea', 'jsonb')"
    ).fetchall()
    for table, column, data_type in columns:
        haystack = (
            f'"{column}"' if data_type == "bytea" else f"convert_to(\"{column}\"::text, 'UTF8')"
        )
        query = f'SELECT 1 FROM "{table}" WHERE position(%s IN {haystack}) > 0 LIMIT 1'
        if conn.execute(query, (text.encode(),)).fetchone() is not None:
            return True
    return False


async def test_tokens_are_compared_in_constant_time(
    client: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    table = await create_table(client)
    compared: list[tuple[bytes, bytes]] = []
    real = hmac.compare_digest

    def spy(a: bytes, b: bytes) -> bool:
        compared.append((a, b))
        return bool(real(a, b))

    monkeypatch.setattr(hmac, "compare_digest", spy)
    response = await client.get(f"{table.path}/view", headers=table.headers(1))
    assert response.status_code == 200
    expected = hashlib.sha256(table.tokens[1].encode()).digest()
    assert (expected, expected) in compared


async def test_a_seat_token_shows_its_own_seat(client: Client) -> None:
    table = await create_table(client)
    for seat in (0, 1):
        view = (await client.get(f"{table.path}/view", headers=table.headers(seat))).json()
        assert view["seat"] == seat


async def test_a_seat_token_cannot_act_for_the_other_seat(client: Client) -> None:
    table = await create_table(client)
    view = (await client.get(f"{table.path}/view", headers=table.headers(0))).json()
    chooser = view["turn"]
    action = next(
        a
        for a in (await client.get(f"{table.path}/view", headers=table.headers(chooser))).json()[
            "legal_actions"
        ]
    )
    response = await client.post(
        f"{table.path}/commands", json=action, headers=table.headers(1 - chooser)
    )
    assert_problem(response, 403, "not-your-seat")


async def test_a_token_of_another_match_is_forbidden(client: Client) -> None:
    first, second = await create_table(client), await create_table(client)
    response = await client.get(f"{second.path}/view", headers=first.headers(0))
    assert_problem(response, 403, "wrong-token")
    response = await client.get(f"{second.path}/events", headers=first.headers(0))
    assert_problem(response, 403, "wrong-token")


async def test_a_made_up_token_is_forbidden(client: Client) -> None:
    table = await create_table(client)
    response = await client.get(f"{table.path}/view", headers=bearer(tokens.new_token()))
    assert_problem(response, 403, "wrong-token")


@pytest.mark.parametrize("header", [None, "", "Bearer", "Basic dXNlcjpwYXNz", "Token abc"])
async def test_a_missing_token_is_unauthorized_with_a_bearer_challenge(
    client: Client, header: str | None
) -> None:
    table = await create_table(client)
    headers = {} if header is None else {"Authorization": header}
    for response in (
        await client.get(f"{table.path}/view", headers=headers),
        await client.post(f"{table.path}/commands", json={"type": "pass_upcard"}, headers=headers),
    ):
        assert_problem(response, 401, "missing-token")
        assert response.headers["www-authenticate"].startswith("Bearer")


async def test_events_without_a_token_are_public_but_a_bad_token_is_refused(
    client: Client,
) -> None:
    table = await create_table(client)
    assert (await client.get(f"{table.path}/events")).status_code == 200
    response = await client.get(f"{table.path}/events", headers=bearer("gin_nothing"))
    assert_problem(response, 403, "wrong-token")
