"""Matches played in this process, for the verifier's tests: the service's own system steps and
fairness log over the in-memory event store, and bots choosing every seat's move from its view.
The record they give is built by the same ``build_record`` the API serves."""

from __future__ import annotations

import asyncio
import random
import uuid
from datetime import UTC, datetime

from adapters.memory.event_store import InMemoryEventStore
from domain import Event, MatchState, RuleOptions, StartMatch, decide, evolve, new_match, view
from service.audit.game_record import GameRecord, build_record
from service.bots.random_bot import RandomBot
from service.bots.simple import SimpleBot
from service.fairness.log import FairnessLog, fairness_stream, touches_fairness
from service.fairness.seeds import CHAIN_LINKS
from service.matches.system_steps import system_steps
from service.ports.match_registry import RegisteredMatch, RegisteredSeat
from service.store.match_streams import Loaded, MatchStreams, stream_id

SHORT_MATCH = RuleOptions(game_target=30, match_target=500)


class LocalMatch:
    def __init__(self, match: RegisteredMatch, links: int) -> None:
        self.match = match
        self.store = InMemoryEventStore()
        self.streams = MatchStreams(self.store)
        self.fairness = FairnessLog(self.store, links=links)
        self.loaded = Loaded(new_match(), 0)

    @property
    def state(self) -> MatchState:
        return self.loaded.state

    async def start(self, options: RuleOptions) -> None:
        events = decide(new_match(), StartMatch(options=options))
        state = evolve(new_match(), events[0])
        steps, _ = system_steps(state, self.match, links=self.fairness.links)
        await self.fairness.open(self.match)
        await self._append([*events, *steps])

    async def play(self, moves: int, rng: random.Random) -> None:
        """Up to ``moves`` moves, each chosen by a bot for the seat whose turn it is."""
        simple, wild = SimpleBot(), RandomBot(rng)
        for _ in range(moves):
            seat = self.state.turn
            if seat is None:
                return
            bot = wild if rng.random() < 0.1 else simple
            events = decide(self.state, bot.choose(view(self.state, seat)))
            state = self.state
            for event in events:
                state = evolve(state, event)
            steps, _ = system_steps(state, self.match, links=self.fairness.links)
            await self._append([*events, *steps])

    async def _append(self, events: list[Event]) -> None:
        self.loaded, _ = await self.streams.append(self.match.match_id, self.loaded, events)
        if touches_fairness(events):
            await self.fairness.sync(self.match, self.state)

    async def record(self) -> GameRecord:
        match_id = self.match.match_id
        return build_record(
            self.match,
            await self.store.read_stream(stream_id(match_id)),
            await self.store.read_stream(fairness_stream(match_id)),
        )


def new_record(match_id: str, entropy: tuple[str, str], secret: bytes) -> RegisteredMatch:
    seats = tuple(RegisteredSeat(seat, bytes([seat]) * 32, entropy[seat]) for seat in (0, 1))
    return RegisteredMatch(match_id, None, secret, datetime(2025, 11, 30, tzinfo=UTC), seats)


def played_match(
    seed: int,
    *,
    options: RuleOptions = SHORT_MATCH,
    moves: int = 100_000,
    links: int = CHAIN_LINKS,
) -> tuple[LocalMatch, GameRecord]:
    """A match played ``moves`` moves (to its end by default), the same for the same seed, and
    its record."""
    rng = random.Random(seed)
    match = new_record(str(uuid.UUID(int=rng.getrandbits(128))), ("alice", ""), rng.randbytes(32))
    local = LocalMatch(match, links)

    async def run() -> GameRecord:
        await local.start(options)
        await local.play(moves, rng)
        return await local.record()

    return local, asyncio.run(run())
