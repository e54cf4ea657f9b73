"""An operator adjudicates its own match at every table size: a forfeit ends it as the seat's
resignation would (for its team at four players), an award gives it to the seat's side, a
void to nobody; the record keeps the verdict and ``gin verify`` decides it again. A refused
verdict changes nothing."""

from __future__ import annotations

import random
import uuid

import pytest

from service.audit.verify import verify_document
from service.tournament.operators import OperatorKeys
from tests.api.any_size import EVERY_SIZE, QUICK, SIDES, play_one
from tests.api.players import Table
from tests.tournament.conftest import new_key
from tests.tournament.play import Client, Json, bearer

VERDICTS = pytest.mark.parametrize("verdict", ["forfeit", "award", "void"])


async def operated_match(client: Client, key: str, seats: int) -> Table:
    response = await client.post(
        "/matches", json={"players": seats, "options": QUICK}, headers=bearer(key)
    )
    assert response.status_code == 201, response.text
    made = response.json()
    return Table(made["match_id"], {s["seat"]: s["token"] for s in made["seats"]})


async def version_of(client: Client, match_id: str) -> int:
    return int((await client.get(f"/matches/{match_id}")).json()["version"])


def side_conceded_to(seats: int, seat: int) -> int:
    """Whom a seat's forfeit gives the match to, the scores being level (before any hand
    ends): the other team at four; at three the lower of the other two seats."""
    if seats == 4:
        return 1 - seat % 2
    return 1 - seat if seats == 2 else min(s for s in range(3) if s != seat)


def told(ending: Json) -> Json:
    """What an ending tells of a verdict (a table of more seats shows the whole event)."""
    return {key: ending[key] for key in ("reason", "seat", "winner", "note")}


@EVERY_SIZE
@VERDICTS
async def test_an_operator_adjudicates_its_match_and_verify_agrees(
    client: Client, keys: OperatorKeys, seats: int, verdict: str
) -> None:
    key = await new_key(keys, f"Judge {uuid.uuid4()}", "matches:create", "matches:adjudicate")
    table = await operated_match(client, key, seats)
    rng = random.Random(seats)
    await play_one(client, table, rng)  # into the first hand: one move ends no hand
    seat = None if verdict == "void" else seats - 1
    path = f"/matches/{table.match_id}"

    response = await client.post(
        f"{path}/adjudication",
        json={"verdict": verdict, "seat": seat, "reason": "left the venue"},
        headers=bearer(key),
    )

    assert response.status_code == 200, response.text
    winner = {
        "forfeit": side_conceded_to(seats, seats - 1),
        "award": next(i for i, side in enumerate(SIDES[seats]) if seats - 1 in side),
        "void": None,
    }[verdict]
    reason = {"forfeit": "forfeited", "award": "awarded", "void": "voided"}[verdict]
    ending: Json = {"reason": reason, "seat": seat, "winner": winner, "note": "left the venue"}
    assert told(response.json()["ending"]) == ending
    result = (await client.get(f"{path}/result")).json()
    assert (result["status"], told(result["ending"])) == ("finished", ending)
    record = await client.get(f"{path}/record")
    verdict_of_record = verify_document(record.content)
    assert verdict_of_record.ok, verdict_of_record.problem
    before = await version_of(client, table.match_id)
    again = await client.post(
        f"{path}/adjudication", json={"verdict": "void", "reason": "twice"}, headers=bearer(key)
    )
    assert (again.status_code, again.json()["type"]) == (409, "/problems/match-already-ended")
    assert await version_of(client, table.match_id) == before


@EVERY_SIZE
@pytest.mark.parametrize(
    "body",
    [
        {"verdict": "forfeit", "reason": "no seat"},
        {"verdict": "award", "seat": 4, "reason": "past the seats"},
        {"verdict": "void", "seat": 0, "reason": "a void names nobody"},
        {"verdict": "forfeit", "seat": 0, "reason": " "},
    ],
    ids=["no seat", "seat past the table", "void with a seat", "blank reason"],
)
async def test_a_verdict_that_cannot_be_is_refused_and_changes_nothing(
    client: Client, keys: OperatorKeys, seats: int, body: Json
) -> None:
    key = await new_key(keys, f"Judge {uuid.uuid4()}", "matches:create", "matches:adjudicate")
    table = await operated_match(client, key, seats)
    before = await version_of(client, table.match_id)

    response = await client.post(
        f"/matches/{table.match_id}/adjudication", json=body, headers=bearer(key)
    )

    assert 400 <= response.status_code < 500, response.text
    assert response.headers["content-type"] == "application/problem+json"
    assert await version_of(client, table.match_id) == before
