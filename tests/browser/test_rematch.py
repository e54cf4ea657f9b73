"""A rematch from the page: a player with an account, at the end of a match played with other
people, offers them a rematch (the service's ``POST /players/me/matches/{id}/rematch``) and
plays it on the page; without an account, or against bots only, the page offers "Play again"
(tests/browser/test_summary.py)."""

from __future__ import annotations

import json
import re
from typing import Any

import httpx
import pytest
from playwright.async_api import expect

from bench.servers import Server
from tests.browser.conftest import DESKTOP, Pages
from tests.browser.table import board


async def post(http: httpx.AsyncClient, path: str, credential: str | None, body: Any) -> Any:
    headers = {"Authorization": f"Bearer {credential}"} if credential else {}
    response = await http.post(path, json=body, headers=headers)
    assert response.status_code == 201, response.text
    return response.json()


async def a_finished_match(server: Server, players: int) -> tuple[str, list[str]]:
    """A match of ``players`` people with accounts, seat 0 resigned; its id and the credentials."""
    async with httpx.AsyncClient(base_url=server.url) as http:
        credentials = [
            (await post(http, "/players", None, {"display_name": f"Player {seat}"}))["credential"]
            for seat in range(players)
        ]
        created = await post(
            http, "/players/me/matches", credentials[0], {"players": players, "options": {}}
        )
        for invite in created["invites"]:
            joined = {"invite_code": invite["invite_code"]}
            await post(http, "/players/me/join", credentials[invite["seat"]], joined)
        match_id = created["match_id"]
        response = await http.post(
            f"/matches/{match_id}/commands",
            json={"type": "resign"},
            headers={"Authorization": f"Bearer {credentials[0]}"},
        )
        assert response.status_code in (200, 201), response.text
    return match_id, credentials


@pytest.mark.parametrize("players", [2, 3, 4])
async def test_a_player_with_an_account_offers_a_rematch(
    pages: Pages, server: Server, players: int
) -> None:
    match_id, credentials = await a_finished_match(server, players)
    key = json.dumps({"token": credentials[0], "seat": 0, "account": True})
    page = await pages.open(
        f"/#/play/{match_id}",
        viewport=DESKTOP,
        init_script=f"localStorage.setItem('gin:seat:{match_id}', {key!r})",
    )
    await expect(board(page)).to_have_attribute("data-phase", "match_over")
    rematch = page.locator("[data-action=rematch]")
    await expect(rematch).to_have_text("Rematch")
    await expect(page.locator("[data-action=play-again]")).to_have_count(0)

    await rematch.click()
    await expect(page).not_to_have_url(re.compile(match_id))
    new_id = page.url.rsplit("/", 1)[1]
    await expect(board(page)).to_have_attribute("data-players", str(players))
    await expect(board(page)).not_to_have_attribute("data-phase", "match_over")
    # The other players are invited, each to their seat, with the link shown meanwhile.
    await expect(page.locator("[data-invite]")).to_have_count(players - 1)
    # The service made it as the player's rematch: theirs, waiting for the people invited.
    async with httpx.AsyncClient(base_url=server.url) as http:
        mine = await http.get(
            "/players/me/matches", headers={"Authorization": f"Bearer {credentials[0]}"}
        )
    newest = mine.json()["matches"][0]
    assert (newest["match_id"], newest["status"]) == (new_id, "waiting"), newest
