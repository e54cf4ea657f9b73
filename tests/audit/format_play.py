"""Three- and four-player matches played in this process for the verifier's tests: the real
``MatchService`` over the in-memory adapters, every seat a person whose moves a bot
chooses from that seat's table view, seats picked at random among those with a move (so the
two tables of the four-player game finish their hands in either order). The record is the one
``GET /matches/{id}/record`` serves, built by the same ``served_record``.
"""

from __future__ import annotations

import hashlib
import random
import uuid
from collections.abc import Awaitable, Callable, Sequence
from unittest import mock

import msgspec

from adapters.memory.event_store import InMemoryEventStore
from adapters.memory.match_registry import InMemoryMatchRegistry
from domain import RuleOptions, view
from domain.commands import SeatCommand
from domain.formats import FormatPhase, FormatState, Players, format_legal_actions
from service.audit.game_record import GameRecord
from service.audit.served_record import served_record
from service.bots.random_bot import RandomBot
from service.bots.simple import SimpleBot
from service.fairness.seeds import CHAIN_LINKS, locate
from service.matches import creating
from service.matches.use_cases import CommandRequest, MatchService
from service.ports.match_registry import RegisteredMatch
from service.store.match_streams import MatchStreams

SHORT = RuleOptions(game_target=40, match_target=0)

# Called after every command with the service, the match and the state the command led to.
Watch = Callable[[MatchService, RegisteredMatch, FormatState], Awaitable[None]]


async def played_format_match(
    seed: int,
    players: Players,
    *,
    options: RuleOptions = SHORT,
    links: int = CHAIN_LINKS,
    watch: Watch | None = None,
) -> GameRecord:
    """The record of a complete match, the same for the same seed (the server secret too:
    the service draws it at random, so here it is drawn from the seed)."""
    rng = random.Random(seed)
    with mock.patch.object(creating, "new_secret", side_effect=lambda: rng.randbytes(32)):
        return await _play(rng, players, options, links, watch)


async def _play(
    rng: random.Random, players: Players, options: RuleOptions, links: int, watch: Watch | None
) -> GameRecord:
    store = InMemoryEventStore()
    formats = MatchService(
        MatchStreams(store),
        InMemoryMatchRegistry(),
        chain_links=links,
        new_match_id=lambda: str(uuid.UUID(int=rng.getrandbits(128))),
    )
    created = await formats.create_match(players=players, options=options)
    match = await formats.registry.get(created.match_id)
    assert match is not None
    simple, wild = SimpleBot(), RandomBot(rng)
    state = (await formats.load(match)).state
    for _ in range(100_000):
        if state.phase is FormatPhase.MATCH_OVER:
            break
        movers = [seat for seat in state.seats if format_legal_actions(state, seat)]
        seat = rng.choice(movers)
        index = state.table_of(seat)
        assert index is not None
        table = state.tables[index]
        table_seat = table.table_seat(seat)
        assert table_seat is not None
        bot = wild if rng.random() < 0.1 else simple
        chosen = bot.choose(view(table.state, table_seat))
        assert isinstance(chosen, SeatCommand)
        state = (
            await formats.handle(
                match, seat, CommandRequest(msgspec.structs.replace(chosen, seat=seat))
            )
        ).state
        if watch is not None:
            await watch(formats, match, state)
    else:
        raise AssertionError("the match did not end")
    record, _ = await served_record(formats, match)
    return record


def derivable_links(revealed: Sequence[tuple[int, str]], links: int) -> set[int]:
    """Every link of the match anyone can compute from the revealed (link, seed) pairs: each
    link is the hash of the next one in its chain."""
    known: set[int] = set()
    for link, seed in revealed:
        chain, index = locate(link, links)
        value = bytes.fromhex(seed)
        for below in range(index, 0, -1):
            known.add((chain - 1) * links + below)
            value = hashlib.sha256(value).digest()
    return known
