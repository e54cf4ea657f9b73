"""Endings over HTTP: a seat resigns; an operator with ``matches:adjudicate`` forfeits, awards
or voids one of its own matches; every refusal has its status and problem type and changes
nothing; the reason is in the view, the summary, ``/result``, the events and the record."""

from __future__ import annotations

from typing import Any

import pytest

from service.tournament.operators import OperatorKeys
from tests.tournament.conftest import new_key
from tests.tournament.play import Client, bearer, create_table

Json = Any


async def version_of(client: Client, match_id: str) -> int:
    return int((await client.get(f"/matches/{match_id}")).json()["version"])


async def adjudicate(client: Client, match_id: str, key: str, **body: Any) -> Json:
    return await client.post(f"/matches/{match_id}/adjudication", json=body, headers=bearer(key))


@pytest.mark.parametrize("players", [2, 3, 4])
async def test_a_resignation_is_told_everywhere_and_cannot_be_repeated(
    client: Client, players: int
) -> None:
    """Seat 1 gives up at the start: the other seat wins at two seats, seat 0 at three (the
    others' standing is equal, so the lower seat), team 0 at four. (A view of three or four
    seats gives the whole ``match_ended`` event as its ``ending``, docs/api.md.)"""
    table = await create_table(client, players=players)
    path = f"/matches/{table.match_id}"
    response = await client.post(
        f"{path}/commands", json={"type": "resign"}, headers=table.headers(1)
    )
    assert response.status_code == 200, response.text
    ending = {"reason": "resigned", "seat": 1, "winner": 0, "note": None}
    told = [response.json()["ending"], (await client.get(path)).json()["table"]["ending"]]
    assert [{field: said[field] for field in ending} for said in told] == [ending] * 2
    result = (await client.get(f"{path}/result")).json()
    assert (result["status"], result["winner"], result["ending"]) == ("finished", 0, ending)
    events = (await client.get(f"{path}/events?after=0")).json()["events"]
    assert events[-1]["event"]["type"] == "match_ended"
    record = (await client.get(f"{path}/record")).json()
    assert record["status"] == "finished"

    before = await version_of(client, table.match_id)
    again = await client.post(f"{path}/commands", json={"type": "resign"}, headers=table.headers(0))
    assert again.status_code == 409
    assert again.json()["type"] == "/problems/match-already-ended"
    assert await version_of(client, table.match_id) == before


@pytest.mark.parametrize(
    ("verdict", "seat", "reason", "winner"),
    [("forfeit", 0, "forfeited", 1), ("award", 0, "awarded", 0), ("void", None, "voided", None)],
)
async def test_an_operator_adjudicates_its_own_match(
    client: Client,
    keys: OperatorKeys,
    verdict: str,
    seat: int | None,
    reason: str,
    winner: int | None,
) -> None:
    key = await new_key(keys, f"Judge {verdict}", "matches:create", "matches:adjudicate")
    table = await create_table(client, operator_key=key)
    response = await adjudicate(
        client, table.match_id, key, verdict=verdict, seat=seat, reason="no-show at table 4"
    )
    assert response.status_code == 200, response.text
    ending = response.json()["ending"]
    assert ending == {
        "reason": reason,
        "seat": seat,
        "winner": winner,
        "note": "no-show at table 4",
    }
    result = (await client.get(f"/matches/{table.match_id}/result")).json()
    assert result["ending"] == ending

    before = await version_of(client, table.match_id)
    again = await adjudicate(client, table.match_id, key, verdict="void", reason="twice")
    assert again.status_code == 409
    assert again.json()["type"] == "/problems/match-already-ended"
    assert await version_of(client, table.match_id) == before


async def test_adjudication_needs_the_scope_and_the_operators_own_match(
    client: Client, keys: OperatorKeys
) -> None:
    owner = await new_key(keys, "Owner", "matches:create", "matches:adjudicate")
    without_scope = await new_key(keys, "Creator only", "matches:create")
    other = await new_key(keys, "Other judge", "matches:adjudicate")
    table = await create_table(client, operator_key=owner)
    anyones = await create_table(client)
    before = await version_of(client, table.match_id)

    refused = [
        await adjudicate(client, table.match_id, without_scope, verdict="void", reason="x"),
        await adjudicate(client, table.match_id, other, verdict="void", reason="x"),
        await adjudicate(client, anyones.match_id, owner, verdict="void", reason="x"),
    ]
    assert [r.status_code for r in refused] == [403, 403, 403]
    assert [r.json()["type"] for r in refused] == [
        "/problems/missing-scope",
        "/problems/not-your-match",
        "/problems/not-your-match",
    ]
    assert await version_of(client, table.match_id) == before


async def test_clock_options_out_of_range_are_refused_naming_the_option(client: Client) -> None:
    for options, named in [
        ({"turn_seconds": 86_401}, "turn_seconds"),
        ({"turn_seconds": 10, "bank_seconds": -1}, "bank_seconds"),
        ({"turn_seconds": 10, "timeouts_to_forfeit": 0}, "timeouts_to_forfeit"),
    ]:
        response = await client.post("/matches", json={"options": options})
        assert response.status_code == 422, response.text
        assert response.json()["type"] == "/problems/invalid-options"
        assert named in response.json()["detail"]
