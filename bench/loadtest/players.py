"""Clients on both seats of a match, playing over HTTP from their own seat's view alone.

Each seat is a task of its own, as two apps would be: it reads its view when the other seat
hands it the turn, and sends one of the legal actions listed there, chosen by the shared random
player (``bench.players``) with its load-test lean towards going out (a knock when one is
listed, often the discard that keeps the least deadwood), so that a short match ends in a few
hundred commands.
"""

from __future__ import annotations

import asyncio
import random
import time
from typing import Any

import httpx

from bench.loadtest.stats import Stats
from bench.players import LOAD_TEST, choose

Json = dict[str, Any]

COMMAND, VIEW, CREATE = "command", "view", "create"
MAX_COMMANDS = 5000  # far beyond any short match; reaching it means a stuck match


class Client:
    """An HTTP client that times every request and counts every failure by its kind."""

    def __init__(self, http: httpx.AsyncClient, stats: Stats) -> None:
        self.http = http
        self.stats = stats

    async def call(
        self,
        kind: str,
        method: str,
        path: str,
        *,
        token: str | None = None,
        body: Json | None = None,
    ) -> Json | None:
        """The answer's JSON, or None when the request failed (and was counted)."""
        response = await self.request(kind, method, path, token=token, body=body)
        if response is None:
            return None
        answer: Json = response.json()
        return answer

    async def request(
        self,
        kind: str,
        method: str,
        path: str,
        *,
        token: str | None = None,
        body: Json | None = None,
    ) -> httpx.Response | None:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        started = time.perf_counter()
        try:
            response = await self.http.request(method, path, json=body, headers=headers)
        except httpx.HTTPError as error:
            self.stats.failed(f"{kind}: {type(error).__name__}")
            return None
        elapsed = time.perf_counter() - started
        if response.status_code >= 400:
            self.stats.failed(f"{kind}: {response.status_code} {_problem_type(response)}")
            return None
        self.stats.took(kind, elapsed)
        return response


class MatchPlay:
    """One match, both seats played concurrently; each seat wakes the other when it is done."""

    def __init__(self, client: Client, match_id: str, tokens: dict[int, str], seed: str) -> None:
        self.client = client
        self.match_id = match_id
        self.tokens = tokens
        self.rng = random.Random(seed)
        self.turn = (asyncio.Event(), asyncio.Event())
        self.finished = False
        self.stopped = False
        self.commands = 0

    async def play(self) -> bool:
        """Play to the end of the match; True when it finished without a failed request."""
        for seat in (0, 1):
            self.turn[seat].set()
        await asyncio.gather(self._seat(0), self._seat(1))
        return self.finished

    async def _seat(self, seat: int) -> None:
        path = f"/matches/{self.match_id}"
        while not self.stopped:
            await self.turn[seat].wait()
            self.turn[seat].clear()
            if self.stopped:
                return
            view = await self.client.call(VIEW, "GET", f"{path}/view", token=self.tokens[seat])
            played = False
            while view is not None and view["turn"] == seat and view["phase"] != "match_over":
                self.commands += 1
                if self.commands > MAX_COMMANDS:
                    self.client.stats.failed("match: did not end")
                    view = None
                    break
                action = choose(view, self.rng, LOAD_TEST)
                view = await self.client.call(
                    COMMAND, "POST", f"{path}/commands", token=self.tokens[seat], body=action
                )
                played = True
            if view is None or view["phase"] == "match_over":
                self.finished = view is not None
                self.stopped = True
            if played or self.stopped:
                self.turn[1 - seat].set()


async def play_one(client: Client, options: Json, seed: str) -> str | None:
    """Create a match and play it through; its id if it finished cleanly."""
    created = await client.call(CREATE, "POST", "/matches", body={"options": options})
    if created is None:
        return None
    tokens = {seat["seat"]: seat["token"] for seat in created["seats"]}
    play = MatchPlay(client, created["match_id"], tokens, seed)
    return created["match_id"] if await play.play() else None


def _problem_type(response: httpx.Response) -> str:
    try:
        kind = response.json().get("type", "")
    except ValueError:
        return "(no problem body)"
    return str(kind).removeprefix("/problems/")
