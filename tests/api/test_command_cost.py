"""What one command costs: each event it adds (its own and the system steps') is folded exactly
once, and its match's registry row is looked up once, through ``MatchService`` and through
``POST /matches/{id}/commands`` alike."""

from __future__ import annotations

import contextvars
import importlib
import random
from collections.abc import Iterator
from contextlib import contextmanager

import pytest

from adapters.memory.event_store import InMemoryEventStore
from adapters.memory.match_registry import InMemoryMatchRegistry
from domain import Dealt, Event, MatchState, RuleOptions, evolve, view
from domain.commands import SeatCommand
from service.bots.policy import bot_for
from service.matches.use_cases import CommandRequest, MatchService
from service.ports.match_registry import RegisteredMatch
from service.store.match_streams import MatchStreams
from tests.api.conftest import Asgi
from tests.api.players import LONG_GAME, create_table, without_going_out

# The module, not the function of the same name that the ``domain`` package exports.
EVOLVE_MODULE = importlib.import_module("domain.evolve")
# Only what runs in this test's context is counted, not a server's background tasks.
_counting: contextvars.ContextVar[bool] = contextvars.ContextVar("counting", default=False)


class Costs:
    def __init__(self) -> None:
        self.folded: list[Event] = []
        self.match_lookups = 0
        self.registry_reads = 0


@contextmanager
def counted(monkeypatch: pytest.MonkeyPatch, matches: MatchService) -> Iterator[Costs]:
    """Counts, while open: every event ``domain.fold`` folds (the service's only fold; the
    rules' own look-ahead inside ``decide`` is not a fold of the match), every lookup of a
    registry row through the service, and every read that reaches the registry."""
    costs = Costs()
    match, get = matches.match, matches.registry.get

    def counting_evolve(state: MatchState, event: Event) -> MatchState:
        if _counting.get():
            costs.folded.append(event)
        return evolve(state, event)

    async def counting_match(match_id: str) -> RegisteredMatch:
        costs.match_lookups += _counting.get()
        return await match(match_id)

    async def counting_get(match_id: str) -> RegisteredMatch | None:
        costs.registry_reads += _counting.get()
        return await get(match_id)

    monkeypatch.setattr(EVOLVE_MODULE, "evolve", counting_evolve)
    monkeypatch.setattr(matches, "match", counting_match)
    monkeypatch.setattr(matches.registry, "get", counting_get)
    token = _counting.set(True)
    try:
        yield costs
    finally:
        _counting.reset(token)


async def test_a_command_through_the_service_folds_its_events_once_and_reads_its_row_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    streams, registry = MatchStreams(InMemoryEventStore()), InMemoryMatchRegistry()
    created = await MatchService(streams, registry).create_match(
        options=RuleOptions(game_target=10_000, match_target=0)
    )
    match_id, bot, deals = created.match_id, bot_for("simple"), 0
    for _ in range(80):
        # A new service for each command, as a process that has not seen this match yet; the
        # streams (and their cached state) are shared, so loading folds nothing.
        matches = MatchService(streams, registry)
        before = await streams.load(match_id)
        seat = before.state.turn
        assert seat is not None
        command = bot.choose(view(before.state, seat))
        assert isinstance(command, SeatCommand)
        with counted(monkeypatch, matches) as costs:
            by = await matches.authenticate(match_id, created.tokens[seat])
            after = await matches.handle(by.match, by.seat, CommandRequest(command=command))
        monkeypatch.undo()

        added = [event for _, event in await streams.read_events(match_id, after_version=0)]
        assert costs.folded == added[before.version :]
        assert after.version == len(added)
        assert (costs.match_lookups, costs.registry_reads) == (1, 1)
        deals += any(isinstance(event, Dealt) for event in costs.folded)
    assert deals >= 1, "no command made a system step due, so none was counted"


async def test_a_command_over_http_folds_its_events_once_and_looks_its_row_up_once(
    asgi: Asgi, monkeypatch: pytest.MonkeyPatch
) -> None:
    http, rng = asgi.client, random.Random(3)
    matches: MatchService = asgi.app.state.matches
    table = await create_table(http, **LONG_GAME)
    for _ in range(30):
        for seat in (0, 1):
            seen = (await http.get(f"{table.path}/view", headers=table.headers(seat))).json()
            if seen["legal_actions"]:
                break
        body = without_going_out(seen) if rng.random() < 0.5 else seen["legal_actions"][0]
        with counted(monkeypatch, matches) as costs:
            response = await http.post(
                f"{table.path}/commands", json=body, headers=table.headers(seat)
            )
        monkeypatch.undo()

        assert response.status_code == 200, response.text
        added = await matches.streams.read_events(table.match_id, after_version=seen["version"])
        assert costs.folded == [event for _, event in added]
        assert response.json()["version"] == added[-1][0]
        assert costs.match_lookups == 1
        assert costs.registry_reads <= 1
