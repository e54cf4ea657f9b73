"""A player's list of matches and inbox follow a match at every table size: seated by an invite,
each player hears the match start, every turn that comes to their seat, and its end, and finds
it in "my matches" as it stands."""

from __future__ import annotations

import json
import random

import pytest

from adapters.memory.event_store import InMemoryEventStore
from adapters.memory.match_registry import InMemoryMatchRegistry
from adapters.memory.players import InMemoryPlayers
from domain import MatchState, Phase, RuleOptions, fold
from domain.commands import SeatCommand
from domain.match_rules import as_seat
from domain.tables import FormatPhase, TablesState, fold_tables
from service.bots import bot_for
from service.matches.use_cases import CommandRequest, MatchService
from service.players.accounts import Accounts
from service.players.projector import Projector
from service.ports.players import Player, PlayerMatch
from service.store.match_streams import MatchStreams

OPTIONS = RuleOptions(game_target=60, match_target=0)
PERSON = bot_for("simple")


class World:
    """Players, and matches of every size on one store (snapshots every ``snapshot_every``)."""

    def __init__(self, snapshot_every: int = 50) -> None:
        registry = InMemoryMatchRegistry()
        self.store = InMemoryEventStore()
        self.players = InMemoryPlayers(registry)
        every = snapshot_every
        self.matches = MatchService(MatchStreams(self.store, snapshot_every=every), registry)
        self.accounts = Accounts(self.players, self.matches)
        self.projector = Projector(self.store, self.players, self.matches)
        self.credentials: dict[str, str] = {}

    async def project(self) -> None:
        while await self.projector.project_once():
            pass

    async def kinds(self, player: Player) -> list[str]:
        notices = await self.players.notices(player.player_id, after=0, limit=100_000)
        return [n.kind for n in notices]

    async def my_matches(self, player: Player) -> list[PlayerMatch]:
        return await self.accounts.my_matches(
            self.credentials[player.player_id], before=None, limit=50
        )

    async def seated(self, seats: int) -> tuple[str, list[Player]]:
        """A match of ``seats`` seats, every seat a player's."""
        signed = [await self.accounts.sign_up(f"P{seat}") for seat in range(seats)]
        players = [s.player for s in signed]
        self.credentials = {s.player.player_id: s.credential for s in signed}
        if seats == 2:
            created = await self.accounts.create_match(players[0], options=OPTIONS)
            assert created.invite_code is not None
            await self.accounts.join(players[1], created.invite_code)
            return created.match_id, players
        made = await self.matches.create_match(
            players=seats, options=OPTIONS, invite_seats=range(seats)
        )
        for seat, code in sorted(made.invite_codes.items()):
            joined = await self.accounts.join(players[seat], code)
            assert joined.seat == seat
        return made.match_id, players

    async def move(self, match_id: str, rng: random.Random) -> bool:
        """A seat on turn plays; whether the match goes on."""
        match = await self.matches.match(match_id)
        rules = self.matches.rules_for(match)
        state = (await self.matches.load(match)).state
        if rules.over(state):
            return False
        seat = rng.choice([s for s in range(len(match.seats)) if rules.awaits(state, s)])
        chosen = PERSON.choose(rules.bot_view(state, seat))
        assert isinstance(chosen, SeatCommand)
        await self.matches.handle(match, seat, CommandRequest(as_seat(chosen, seat)))
        return True

    async def turns_expected(self, match_id: str, seats: int) -> list[int]:
        """How often each seat came on turn, event by event, from the match's own log."""
        comes = [0] * seats
        on: set[int] = set()
        state: MatchState | TablesState
        if seats == 2:
            state = MatchState()
            for _, event in await self.matches.streams.read_events(match_id, after_version=0):
                state = fold([event], state)
                now = (
                    set() if state.turn is None or state.phase is Phase.MATCH_OVER else {state.turn}
                )
                comes = [c + (s in now - on) for s, c in enumerate(comes)]
                on = now
            return comes
        state = TablesState()
        streams = self.matches.streams_for(await self.matches.match(match_id))
        for _, format_event in await streams.read_events(match_id, after_version=0):
            state = fold_tables([format_event], state)
            now = set() if state.phase is FormatPhase.MATCH_OVER else set(state.turns)
            comes = [c + (s in now - on) for s, c in enumerate(comes)]
            on = now
        return comes


@pytest.mark.parametrize("seats", [2, 3, 4])
async def test_my_matches_and_the_inbox_follow_a_match_of_every_size(seats: int) -> None:
    rng = random.Random(seats)
    world = World()
    match_id, players = await world.seated(seats)
    await world.project()
    for seat, player in enumerate(players):
        rows = await world.my_matches(player)
        assert [(r.match_id, r.seat, r.status) for r in rows] == [(match_id, seat, "in_progress")]
        assert (await world.kinds(player))[0] == "match_started"
    while await world.move(match_id, rng):
        if rng.random() < 0.1:
            await world.project()
    await world.project()

    told = [sum(k == "your_turn" for k in await world.kinds(p)) for p in players]
    assert told == await world.turns_expected(match_id, seats)
    assert all(told), "every seat was told its turn"
    for player in players:
        assert (await world.kinds(player)).count("match_ended") == 1
        (row,) = await world.my_matches(player)
        assert (row.status, row.turn, row.deadline) == ("finished", None, None)
    ended = [
        json.loads(n.payload)
        for n in await world.players.notices(players[0].player_id, after=0, limit=100_000)
        if n.kind == "match_ended"
    ]
    assert ended[0]["winner"] is not None
