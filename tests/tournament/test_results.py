"""The result resource: winner (seat and external player id), each game's score, hands won and
a link to the record, for a match played through the API."""

from __future__ import annotations

import random
import uuid

from service.tournament.operators import OperatorKeys
from tests.api.any_size import EVERY_SIZE, SIDES, create_at, play_one, play_out
from tests.api.players import LONG_GAME
from tests.tournament.conftest import new_key
from tests.tournament.play import Client, Json, create_table, play_commands

# Two or more games, each of a few hands: enough to see scores per game.
TWO_GAMES = {"game_target": 30, "match_target": 150}
IDS: Json = {"external_ref": "league-week-3", "external_player_ids": ["ext-ann", "ext-bob"]}


async def spectator_events(client: Client, match_id: str) -> list[Json]:
    response = await client.get(f"/matches/{match_id}/events")
    return [entry["event"] for entry in response.json()["events"]]


async def test_the_result_of_a_finished_match_names_the_winner_and_scores_every_game(
    client: Client, keys: OperatorKeys
) -> None:
    key = await new_key(keys, "League", "matches:create")
    table = await create_table(client, operator_key=key, options=TWO_GAMES, **IDS)
    final = await play_commands(client, table)

    result = (await client.get(f"/matches/{table.match_id}/result")).json()

    events = await spectator_events(client, table.match_id)
    games = [e for e in events if e["type"] == "game_won"]
    hands = [e for e in events if e["type"] in ("scored", "hand_drawn")]
    [match_won] = [e for e in events if e["type"] == "match_won"]
    winner = final["winner"]
    assert result["status"] == "finished"
    assert result["winner"] == winner == match_won["winner"]
    assert result["winner_external_player_id"] == IDS["external_player_ids"][winner]
    assert result["external_ref"] == "league-week-3"
    assert result["record"] == f"/matches/{table.match_id}/record"
    assert result["hands_played"] == len(hands)
    assert [
        (g["game"], g["winner"], g["points"], g["totals"], g["hand_points"], g["hands_won"])
        for g in result["games"]
    ] == [
        (g["game"], g["winner"], g["points"], g["totals"], g["hand_points"], g["hands_won"])
        for g in games
    ]
    assert [g["winner_external_player_id"] for g in result["games"]] == [
        IDS["external_player_ids"][g["winner"]] for g in games
    ]
    for seat, player in enumerate(result["players"]):
        assert player["seat"] == seat
        assert player["external_player_id"] == IDS["external_player_ids"][seat]
        assert player["match_score"] == match_won["match_scores"][seat]
        assert player["games_won"] == match_won["games_won"][seat]
        assert player["hands_won"] == sum(
            1 for h in hands if h["type"] == "scored" and h["winner"] == seat
        )
        assert player["hands_won"] == sum(g["hands_won"][seat] for g in games)


async def test_a_match_in_progress_has_no_winner_yet(client: Client, keys: OperatorKeys) -> None:
    key = await new_key(keys, "League", "matches:create")
    # The League's external refs are unique: this is another match of the week. A game no
    # hand can win: with the short match's 40, a knock on the first turn could end it.
    ids = {**IDS, "external_ref": "league-w3-2"}
    table = await create_table(client, operator_key=key, options=LONG_GAME, **ids)
    await play_commands(client, table, 5)

    result = (await client.get(f"/matches/{table.match_id}/result")).json()

    assert result["status"] == "in_progress"
    assert result["winner"] is None
    assert result["winner_external_player_id"] is None
    assert result["games"] == []


async def test_a_match_waiting_for_its_invited_player_says_so(client: Client) -> None:
    response = await client.post("/matches", json={"invite": True})
    match_id = response.json()["match_id"]

    result = (await client.get(f"/matches/{match_id}/result")).json()

    assert result["status"] == "waiting_for_opponent"
    assert [p["external_player_id"] for p in result["players"]] == [None, None]


async def test_there_is_no_result_of_an_unknown_match(client: Client) -> None:
    response = await client.get(f"/matches/{uuid.uuid4()}/result")

    assert response.status_code == 404
    assert response.json()["type"] == "/problems/match-not-found"


def hand_winners(events: list[Json]) -> list[int | None]:
    """The match seat that won each hand, in the order they ended, at any table size."""
    winners: list[int | None] = []
    for event in events:
        table = event if event["type"] != "table_event" else event["event"]
        seats = event.get("seats", [0, 1]) if event["type"] == "table_event" else [0, 1]
        if table["type"] == "scored":
            winners.append(None if table["winner"] is None else seats[table["winner"]])
        elif table["type"] == "hand_drawn":
            winners.append(None)
    return winners


def check_seats_and_sides(result: Json, seats: int) -> None:
    sides = SIDES[seats]
    assert [p["seat"] for p in result["players"]] == list(range(seats))
    assert [s["seats"] for s in result["sides"]] == sides
    for side, members in enumerate(sides):
        for seat in members:
            player = result["players"][seat]
            assert player["side"] == side
            assert player["match_score"] == result["sides"][side]["match_score"]
            assert player["games_won"] == result["sides"][side]["games_won"]
        assert result["sides"][side]["hands_won"] == sum(
            result["players"][seat]["hands_won"] for seat in members
        )


@EVERY_SIZE
async def test_a_new_match_has_a_result_at_every_table_size(client: Client, seats: int) -> None:
    table = await create_at(client, seats)

    response = await client.get(f"/matches/{table.match_id}/result")

    assert response.status_code == 200, response.text
    result = response.json()
    assert result["status"] == "in_progress"
    assert (result["winner"], result["winner_seats"], result["ending"]) == (None, [], None)
    assert result["games"] == []
    assert result["hands_played"] == 0
    assert [p["hands_won"] for p in result["players"]] == [0] * seats
    assert [s["match_score"] for s in result["sides"]] == [0] * len(SIDES[seats])
    check_seats_and_sides(result, seats)


@EVERY_SIZE
async def test_a_match_in_progress_counts_the_hands_played_so_far(
    client: Client, seats: int
) -> None:
    table = await create_at(client, seats, options={"game_target": 10_000, "match_target": 0})
    rng = random.Random(seats)
    for _ in range(40):
        await play_one(client, table, rng)

    result = (await client.get(f"/matches/{table.match_id}/result")).json()

    winners = hand_winners(await spectator_events(client, table.match_id))
    assert result["status"] == "in_progress"
    assert result["winner"] is None
    assert result["games"] == []
    assert result["hands_played"] == len(winners)
    assert [p["hands_won"] for p in result["players"]] == [
        winners.count(seat) for seat in range(seats)
    ]
    check_seats_and_sides(result, seats)


@EVERY_SIZE
async def test_a_finished_match_names_its_winning_side_and_settles_every_game(
    client: Client, seats: int
) -> None:
    table = await create_at(client, seats)
    await play_out(client, table, random.Random(10 + seats))

    result = (await client.get(f"/matches/{table.match_id}/result")).json()

    events = await spectator_events(client, table.match_id)
    [won] = [e for e in events if e["type"] in ("match_won", "format_match_won")]
    games = [e for e in events if e["type"] in ("game_won", "format_game_won")]
    winners = hand_winners(events)
    view = (await client.get(f"/matches/{table.match_id}/view", headers=table.headers(0))).json()
    assert result["status"] == "finished"
    assert result["winner"] == won["winner"] == view["winner"]
    assert result["winner_seats"] == SIDES[seats][won["winner"]]
    assert result["ending"]["reason"] == "played_out"
    assert result["hands_played"] == len(winners)
    assert [s["match_score"] for s in result["sides"]] == won["match_scores"]
    assert [s["games_won"] for s in result["sides"]] == won["games_won"]
    assert [p["hands_won"] for p in result["players"]] == [
        winners.count(seat) for seat in range(seats)
    ]
    assert len(result["games"]) == len(games) >= 1
    for game, event in zip(result["games"], games, strict=True):
        assert (game["game"], game["winner"]) == (event["game"], event["winner"])
        assert game["winner_seats"] == SIDES[seats][event["winner"]]
        assert (game["hand_points"], game["hands_won"]) == (
            event["hand_points"],
            event["hands_won"],
        )
        settled = event.get("settlements") or [
            {
                "sides": [0, 1],
                "totals": event["totals"],
                "shutout_bonus": event["shutout_bonus"],
                "scored_by": event["scored_by"],
                "points": event["points"],
            }
        ]
        assert game["settlements"] == settled
        assert len(settled) == {2: 1, 3: 3, 4: 1}[seats]
        if len(settled) == 1:
            assert (game["totals"], game["scored_by"], game["points"]) == (
                settled[0]["totals"],
                settled[0]["scored_by"],
                settled[0]["points"],
            )
        else:
            assert (game["totals"], game["scored_by"]) == ([], None)
            assert game["points"] == sum(s["points"] for s in settled)
    check_seats_and_sides(result, seats)


@EVERY_SIZE
async def test_a_resigned_match_is_finished_and_won_by_another_side(
    client: Client, seats: int
) -> None:
    table = await create_at(client, seats, options={"game_target": 10_000, "match_target": 0})
    await play_one(client, table, random.Random(seats))
    resigned = await client.post(
        f"/matches/{table.match_id}/commands", json={"type": "resign"}, headers=table.headers(1)
    )
    assert resigned.status_code == 200, resigned.text

    result = (await client.get(f"/matches/{table.match_id}/result")).json()

    assert result["status"] == "finished"
    assert result["ending"]["reason"] == "resigned"
    assert result["ending"]["seat"] == 1
    assert result["winner"] is not None
    assert 1 not in result["winner_seats"]
    assert result["winner_seats"] == SIDES[seats][result["winner"]]
    check_seats_and_sides(result, seats)
