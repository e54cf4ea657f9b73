"""The result resource: winner (seat and external player id), each game's score, hands won and
a link to the record, for a match played through the API."""

from __future__ import annotations

import uuid

from service.tournament.operators import OperatorKeys
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
    # The League's external refs are unique: this is another match of the week.
    table = await create_table(client, operator_key=key, **{**IDS, "external_ref": "league-w3-2"})
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
