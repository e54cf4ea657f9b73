"""Bot seats over the API: chosen with a level when the match is created, played by the server
through the same commands and rules as a person, and answered before the person hears back."""

from __future__ import annotations

import random

import msgspec
import pytest
from litestar import Litestar
from litestar.testing import AsyncTestClient

from bench.loadtest.records import record_problem
from service.bots import DISTINCT_LEVELS
from tests.bots.table import LONG_MATCH, SHORT_MATCH, create_bot_match

Client = AsyncTestClient[Litestar]


async def test_a_bot_seat_gets_no_token_and_the_summary_names_its_level(client: Client) -> None:
    table = await create_bot_match(client, "simple", bot_seat=0, options=LONG_MATCH)

    summary = (await client.get(table.path)).json()

    assert table.person == 1
    assert summary["status"] == "in_progress"
    assert [(p["seat"], p["joined"], p["bot"]) for p in summary["players"]] == [
        (0, True, "simple"),
        (1, True, None),
    ]


@pytest.mark.parametrize(
    ("body", "status"),
    [
        ({"bots": ["strong", "random"]}, 422),  # a match needs a person on one seat
        ({"bots": [None, "grandmaster"]}, 422),  # no such level
        ({"bots": [None, "strong"], "invite": True, "seat": 0}, 422),  # the invited seat
    ],
)
async def test_bot_seats_that_cannot_be_are_refused(
    client: Client, body: dict[str, object], status: int
) -> None:
    response = await client.post("/matches", json={"options": SHORT_MATCH, **body})

    assert response.status_code == status, response.text
    assert response.headers["content-type"].startswith("application/problem+json")


async def test_a_bot_may_sit_opposite_an_invited_person(client: Client) -> None:
    body = {"options": LONG_MATCH, "bots": ["random", None], "invite": True, "seat": 0}
    created = (await client.post("/matches", json=body)).json()
    assert created["seats"] == []
    joined = await client.post("/matches/join", json={"invite_code": created["invite_code"]})
    assert joined.status_code == 201, joined.text

    summary = (await client.get(f"/matches/{created['match_id']}")).json()

    assert summary["status"] == "in_progress"


@pytest.mark.parametrize("level", DISTINCT_LEVELS)
async def test_the_persons_answer_already_holds_the_bots_reply(client: Client, level: str) -> None:
    table = await create_bot_match(client, level)

    answers = await table.play_to_the_end(random.Random(level))

    # Whenever the person's command handed the turn to the bot, the bot had played it (and
    # every turn after it that was the bot's) before the person got the answer.
    assert all(a["turn"] == table.person or a["phase"] == "match_over" for a in answers)
    final = answers[-1]
    assert final["winner"] in (0, 1)
    assert max(final["scores"]["match_scores"]) > 0


async def test_a_bot_that_wins_the_cut_names_the_dealer_before_creation_is_answered(
    client: Client,
) -> None:
    for _ in range(30):
        table = await create_bot_match(client, "strong", bot_seat=1)
        view = await table.view()
        events = (await client.get(f"{table.path}/events")).json()["events"]
        chosen = [e["event"] for e in events if e["event"]["type"] == "dealer_chosen"]
        if chosen and chosen[0]["seat"] == 1:
            assert view["turn"] == table.person
            return
        assert view["phase"] == "choose_dealer"
        assert view["turn"] == table.person
    pytest.fail("in 30 cuts the bot never won one")


async def test_a_bot_match_records_and_verifies_like_any_other(client: Client) -> None:
    table = await create_bot_match(client, "strong", bot_seat=0)
    await table.play_to_the_end(random.Random(5))

    document = (await client.get(f"{table.path}/record")).content

    assert record_problem(document) is None
    seats = msgspec.json.decode(document)["seats"]
    assert [(s["seat"], s["joined"], s["bot"]) for s in seats] == [
        (0, True, "strong"),
        (1, True, None),
    ]
