"""Bad input changes nothing and says why: each refusal is a 4xx problem+json with a stable
``type`` per error kind and a human-readable ``detail``, and the match stays as it was."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from litestar import Litestar
from litestar.testing import AsyncTestClient

from tests.api.players import Table, create_table, play_match
from tests.api.problems import assert_problem

Client = AsyncTestClient[Litestar]


async def state_of(client: Client, table: Table, seat: int) -> tuple[int, Any, Any]:
    view = (await client.get(f"{table.path}/view", headers=table.headers(seat))).json()
    events = (await client.get(f"{table.path}/events", headers=table.headers(seat))).json()
    return view["version"], view, events


async def table_in_play(client: Client) -> tuple[Table, int, dict[str, Any]]:
    """A match where a seat is to draw or discard; that seat and its view."""
    table = await create_table(client)
    rng = random.Random(7)
    while True:
        for seat in (0, 1):
            view = (await client.get(f"{table.path}/view", headers=table.headers(seat))).json()
            if view["phase"] in ("draw", "discard") and view["turn"] == seat:
                return table, seat, view
            if view["legal_actions"]:
                action = rng.choice(view["legal_actions"])
                await client.post(
                    f"{table.path}/commands", json=action, headers=table.headers(seat)
                )


async def refused(
    client: Client, table: Table, seat: int, content: bytes, status: int, kind: str, **kw: Any
) -> dict[str, Any]:
    before = await state_of(client, table, seat)
    response = await client.post(
        f"{table.path}/commands",
        content=content,
        headers={**table.headers(seat), "Content-Type": "application/json", **kw},
    )
    problem = assert_problem(response, status, kind)
    assert problem["instance"] == f"{table.path}/commands"
    assert await state_of(client, table, seat) == before, "a refused command changed the match"
    return problem


async def test_malformed_json_is_refused_with_malformed_json(client: Client) -> None:
    table, seat, _ = await table_in_play(client)
    await refused(client, table, seat, b'{"type": "discard", "card": ', 400, "malformed-json")


async def test_a_body_that_is_not_an_object_is_an_invalid_request(client: Client) -> None:
    table, seat, _ = await table_in_play(client)
    await refused(client, table, seat, b'["discard"]', 422, "invalid-request")


async def test_unknown_command_type_is_refused_with_unknown_command(client: Client) -> None:
    table, seat, _ = await table_in_play(client)
    problem = await refused(client, table, seat, b'{"type": "shuffle"}', 422, "unknown-command")
    assert "discard" in problem["detail"]  # it lists the commands that exist


async def test_server_only_commands_are_refused_to_seats(client: Client) -> None:
    table, seat, _ = await table_in_play(client)
    problem = await refused(
        client, table, seat, b'{"type": "deal", "seed": "00"}', 422, "unknown-command"
    )
    assert "server" in problem["detail"]


async def test_a_field_of_the_wrong_type_is_an_invalid_request(client: Client) -> None:
    table, seat, _ = await table_in_play(client)
    await refused(client, table, seat, b'{"type": "discard", "card": 7}', 422, "invalid-request")


async def test_bad_card_notation_is_refused_with_invalid_notation(client: Client) -> None:
    table, seat, view = await table_in_play(client)
    if view["phase"] == "draw":
        await client.post(
            f"{table.path}/commands", json={"type": "draw_from_stock"}, headers=table.headers(seat)
        )
    problem = await refused(
        client, table, seat, b'{"type": "discard", "card": "1x"}', 422, "invalid-notation"
    )
    assert "1x" in problem["detail"]


async def test_an_illegal_move_is_refused_with_illegal_move(client: Client) -> None:
    table, seat, view = await table_in_play(client)
    # Discarding before drawing breaks the rules however the cards lie.
    if view["phase"] == "discard":
        body = b'{"type": "draw_from_stock"}'
    else:
        body = f'{{"type": "discard", "card": "{view["hand"][0]}"}}'.encode()
    await refused(client, table, seat, body, 422, "illegal-move")


async def test_a_command_out_of_turn_is_refused_with_not_your_turn(client: Client) -> None:
    table, seat, _ = await table_in_play(client)
    await refused(client, table, 1 - seat, b'{"type": "draw_from_stock"}', 422, "not-your-turn")


async def test_a_stale_if_match_is_refused_and_nothing_is_applied(client: Client) -> None:
    table, seat, view = await table_in_play(client)
    action = view["legal_actions"][0]
    stale = f'"v{view["version"] - 1}-s{seat}"'
    body = json.dumps(action).encode()
    await refused(client, table, seat, body, 412, "stale-version", **{"If-Match": stale})


async def test_a_current_if_match_is_accepted(client: Client) -> None:
    table, seat, view = await table_in_play(client)
    response = await client.post(
        f"{table.path}/commands",
        json=view["legal_actions"][0],
        headers={**table.headers(seat), "If-Match": f'"v{view["version"]}-s{seat}"'},
    )
    assert response.status_code == 200, response.text
    assert response.json()["version"] > view["version"]


async def test_an_if_match_that_is_no_etag_is_an_invalid_request(client: Client) -> None:
    table, seat, view = await table_in_play(client)
    body = json.dumps(view["legal_actions"][0]).encode()
    await refused(client, table, seat, body, 400, "invalid-parameter", **{"If-Match": "yesterday"})


async def test_a_command_after_the_match_is_over_is_refused_with_match_over(
    client: Client,
) -> None:
    table = await create_table(client, game_target=1, match_target=0)
    final = await play_match(client, table, random.Random(3))
    assert final["phase"] == "match_over"
    await refused(client, table, 0, b'{"type": "draw_from_stock"}', 409, "match-over")


async def test_invalid_rule_options_are_refused_with_invalid_options(client: Client) -> None:
    response = await client.post("/matches", json={"options": {"knock_limit": 11}})
    problem = assert_problem(response, 422, "invalid-options")
    assert "knock_limit" in problem["detail"]


@pytest.mark.parametrize(
    ("body", "kind"),
    [
        (b"{", "malformed-json"),
        (b'{"options": {"no_such_rule": 1}}', "invalid-request"),
        (b'{"entropy": ["a", "b", "c", "d", "e"]}', "invalid-request"),
        (b'{"seat": 4, "invite": true}', "invalid-request"),
        # Within the schema, but not for a match of two seats.
        (b'{"entropy": ["a", "b", "c"]}', "invalid-parameter"),
        (b'{"seat": 2, "invite": true}', "invalid-parameter"),
    ],
)
async def test_a_bad_new_match_body_is_refused(client: Client, body: bytes, kind: str) -> None:
    response = await client.post(
        "/matches", content=body, headers={"Content-Type": "application/json"}
    )
    assert_problem(response, 422 if kind == "invalid-request" else 400, kind)


async def test_an_unknown_match_is_not_found(client: Client) -> None:
    table = await create_table(client)
    missing = "/matches/00000000-0000-4000-8000-000000000000"
    assert_problem(await client.get(missing), 404, "match-not-found")
    response = await client.get(f"{missing}/view", headers=table.headers(0))
    assert_problem(response, 404, "match-not-found")


async def test_an_unknown_path_and_a_wrong_method_are_problems_too(client: Client) -> None:
    assert_problem(await client.get("/nowhere"), 404, "not-found")
    response = await client.delete("/matches")
    assert_problem(response, 405, "method-not-allowed")
    assert "POST" in response.headers["allow"]


async def test_a_bad_query_parameter_is_refused(client: Client) -> None:
    table = await create_table(client)
    assert_problem(await client.get(f"{table.path}/events?after=-1"), 400, "invalid-parameter")
    assert_problem(await client.get(f"{table.path}/events?after=x"), 400, "invalid-parameter")
