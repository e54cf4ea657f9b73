"""Every turn change the rules make reaches the player's inbox, in order, however seldom the
projector passes: a turn that went to a player and back between two passes is still told."""

from __future__ import annotations

import json
import random

import pytest

from adapters.memory.event_store import InMemoryEventStore
from adapters.memory.match_registry import InMemoryMatchRegistry
from adapters.memory.players import InMemoryPlayers
from domain import MatchState, Phase, RuleOptions, fold, new_match, view
from domain.commands import SeatCommand
from service.bots import bot_for
from service.matches.use_cases import CommandRequest, MatchService
from service.players.accounts import Accounts
from service.players.projector import Projector
from service.ports.players import Player
from service.store.match_streams import MatchStreams

PERSON = bot_for("simple")
OPTIONS = RuleOptions(game_target=30, match_target=0)


class World:
    def __init__(self) -> None:
        registry = InMemoryMatchRegistry()
        store = InMemoryEventStore()
        self.players = InMemoryPlayers(registry)
        self.matches = MatchService(MatchStreams(store), registry)
        self.accounts = Accounts(self.players, self.matches)
        self.projector = Projector(store, self.players, self.matches)

    async def project(self) -> None:
        while await self.projector.project_once():
            pass

    async def inbox(self, player: Player) -> list[tuple[str, str | None]]:
        """Each notice's kind and, for a turn, whose seat it was."""
        notices = await self.players.notices(player.player_id, after=0, limit=1000)
        return [(n.kind, json.loads(n.payload).get("match_id")) for n in notices]

    async def move(self, match_id: str) -> MatchState:
        """The seat whose turn it is plays one command."""
        match = await self.matches.match(match_id)
        state = (await self.matches.load(match)).state
        assert state.turn is not None
        command = PERSON.choose(view(state, state.turn))
        assert isinstance(command, SeatCommand)
        loaded = await self.matches.handle(match, state.turn, CommandRequest(command=command))
        after: MatchState = loaded.state
        return after


async def a_match(world: World) -> tuple[str, list[Player]]:
    ada = (await world.accounts.sign_up("Ada")).player
    bo = (await world.accounts.sign_up("Bo")).player
    created = await world.accounts.create_match(ada, options=OPTIONS)
    assert created.invite_code is not None
    await world.accounts.join(bo, created.invite_code)
    return created.match_id, [ada, bo]


async def turns_told(world: World, player: Player) -> int:
    return sum(kind == "your_turn" for kind, _ in await world.inbox(player))


async def expected_turns(world: World, match_id: str) -> list[int]:
    """How often the turn came to each seat, event by event, from the match's own log."""
    comes = [0, 0]
    state, whose = new_match(), None
    for _, event in await world.matches.streams.read_events(match_id, after_version=0):
        state = fold([event], state)
        now = state.turn if state.phase is not Phase.MATCH_OVER else None
        if now is not None and now != whose:
            comes[now] += 1
        whose = now
    return comes


async def test_a_turn_that_came_and_went_between_passes_is_told_in_order() -> None:
    world = World()
    match_id, players = await a_match(world)
    await world.project()
    first = (await world.matches.load(match_id)).state.turn
    assert first is not None
    other = 1 - first
    told = [await turns_told(world, p) for p in players]
    assert told[first] == 1
    assert told[other] == 0
    # The turn goes to the other seat and comes back before the projector passes again.
    state = await world.move(match_id)
    while state.turn == first:
        state = await world.move(match_id)
    while state.turn == other:
        state = await world.move(match_id)
    assert state.turn == first
    await world.project()
    now = [await turns_told(world, p) for p in players]
    assert now[other] >= 1  # told, though the turn had left them again by the pass
    assert now[first] >= 2  # and told again when it came back
    assert now == await expected_turns(world, match_id)


@pytest.mark.parametrize("seed", range(4))
async def test_the_inbox_tells_every_turn_whenever_the_projector_passes(seed: int) -> None:
    rng = random.Random(seed)
    world = World()
    match_id, players = await a_match(world)
    state = (await world.matches.load(match_id)).state
    while state.phase is not Phase.MATCH_OVER:
        if rng.random() < 0.2:
            await world.project()
        state = await world.move(match_id)
    await world.project()
    assert [await turns_told(world, p) for p in players] == await expected_turns(world, match_id)
    for player in players:
        kinds = [kind for kind, _ in await world.inbox(player)]
        assert kinds[0] == "match_started"
        assert kinds[-1] == "match_ended"
        assert kinds.count("match_started") == kinds.count("match_ended") == 1
