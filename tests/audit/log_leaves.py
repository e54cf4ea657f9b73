"""The global log's tree heads worked out by the tests themselves, from the database as it is:
the events in log order and each match's secret read in SQL, and which leaves are blinded
decided here (by which match's id ends the stream id, or by the old release's two prefixes),
not by the service's own rule. Only the tree's hashing (``service.audit.log_tree``, checked on
its own against RFC 9162's shape) is shared.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

import psycopg
from litestar import Litestar
from litestar.testing import AsyncTestClient

from adapters.postgres.event_store import PostgresEventStore
from service.audit.log_tree import NO_BLIND, Frontier, event_leaf, log_blind
from service.ports.event_store import StoredEvent
from tests.api.players import Json, bearer, choose

Client = AsyncTestClient[Litestar]
Blinds = dict[str, bytes]  # the blind of each match, by match id
# Whether an event's leaf is blinded, by its index in the log and the event.
Rule = Callable[[int, StoredEvent], bool]


async def log_events(url: str) -> list[StoredEvent]:
    """The whole global log in its order, as the owner reads it."""
    async with PostgresEventStore.connect(url, max_size=2) as store:
        events: list[StoredEvent] = []
        while page := await store.read_all(
            after_position=events[-1].position if events else 0, limit=1000
        ):
            events += page
        return events


async def match_blinds(url: str) -> Blinds:
    async with await psycopg.AsyncConnection.connect(url) as connection:
        cursor = await connection.execute("SELECT match_id::text, server_secret FROM matches")
        return {match_id: log_blind(bytes(secret)) for match_id, secret in await cursor.fetchall()}


def owner(event: StoredEvent, blinds: Blinds) -> str | None:
    """The match whose id ends ``event``'s stream id, if any."""
    return next((m for m in blinds if event.stream_id.endswith(m)), None)


def head(events: Sequence[StoredEvent], blinds: Blinds, blinded: Rule) -> bytes:
    frontier = Frontier()
    for index, event in enumerate(events):
        match = owner(event, blinds)
        use = blinds[match] if match is not None and blinded(index, event) else NO_BLIND
        frontier.append(event_leaf(event, use))
    return frontier.root()


def every_match(index: int, event: StoredEvent) -> bool:
    return True


def old_release(index: int, event: StoredEvent) -> bool:
    """What releases before the second leaf rule blinded: two prefixes, whatever the match."""
    return event.stream_id.startswith(("match-", "fairness-"))


def old_release_before(cut: int) -> Rule:
    return lambda index, event: index >= cut or old_release(index, event)


async def create_match(client: Client, players: int) -> tuple[str, dict[int, str]]:
    body = {"players": players, "options": {"game_target": 10, "match_target": 0}}
    response = await client.post("/matches", json=body)
    assert response.status_code == 201, response.text
    created: Json = response.json()
    assert len(created["seats"]) == players
    return created["match_id"], {seat["seat"]: seat["token"] for seat in created["seats"]}


async def play_some(
    client: Client, match_id: str, tokens: dict[int, str], seed: int, commands: int
) -> None:
    """``commands`` random legal moves (fewer if the match ends first), by whichever seats
    have any: at two, three or four seats alike."""
    rng = random.Random(seed)
    path = f"/matches/{match_id}"
    for _ in range(commands):
        views = {
            seat: (await client.get(f"{path}/view", headers=bearer(token))).json()
            for seat, token in tokens.items()
        }
        movers = [seat for seat, view in views.items() if view["legal_actions"]]
        if not movers:
            return
        seat = rng.choice(movers)
        command = choose(views[seat], rng)
        response = await client.post(f"{path}/commands", json=command, headers=bearer(tokens[seat]))
        assert response.status_code == 200, response.text
