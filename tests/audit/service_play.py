"""Matches played in this process for the verifier's tests: the real ``MatchService`` over the
in-memory adapters, with bots choosing every seat's move from its view. The record is the one
``GET /matches/{id}/record`` serves, built by the same ``served_record``.

A seed fixes everything the record depends on (the match id, the server secret behind the
commitment, every bot's move), so the same seed plays the same match.
"""

from __future__ import annotations

import asyncio
import random
import uuid

from adapters.memory.event_store import InMemoryEventStore
from adapters.memory.match_registry import InMemoryMatchRegistry
from adapters.memory.seed_commitments import InMemorySeedCommitmentStore
from domain import RuleOptions, view
from domain.commands import SeatCommand
from service.audit.game_record import GameRecord
from service.audit.served_record import served_record
from service.bots.random_bot import RandomBot
from service.bots.simple import SimpleBot
from service.fairness.commitments import SeedCommitments
from service.fairness.seeds import CHAIN_LINKS
from service.matches.use_cases import CommandRequest, MatchService
from service.store.match_streams import MatchStreams

SHORT_MATCH = RuleOptions(game_target=30, match_target=500)
ENTROPY = ("alice", "")


def played_match(
    seed: int,
    *,
    options: RuleOptions = SHORT_MATCH,
    moves: int = 100_000,
    links: int = CHAIN_LINKS,
    invite: bool = False,
) -> GameRecord:
    """The record of a match played ``moves`` moves (to its end by default), the same for the
    same seed; ``links`` is the length of its seed chains. ``invite``: seat 1 is invited, and
    joins with its invite code before play."""
    return asyncio.run(_play(random.Random(seed), options, moves, links, invite))


async def _play(
    rng: random.Random, options: RuleOptions, moves: int, links: int, invite: bool
) -> GameRecord:
    matches = MatchService(
        MatchStreams(InMemoryEventStore()),
        InMemoryMatchRegistry(),
        SeedCommitments(InMemorySeedCommitmentStore(), new_secret=lambda: rng.randbytes(32)),
        new_match_id=lambda: str(uuid.UUID(int=rng.getrandbits(128))),
        chain_links=links,
    )
    assert matches.commitments is not None
    committed = await matches.commitments.create()
    created = await matches.create_match(
        options=options,
        entropy=ENTROPY,
        commitment=committed.commitment,
        invite_seats=[1] if invite else [],
    )
    match_id = created.match_id
    tokens = dict(created.tokens)
    if created.invite_code is not None:
        joined = await matches.join(created.invite_code)
        tokens[joined.seat] = joined.token
    simple, wild = SimpleBot(), RandomBot(rng)
    loaded = await matches.load(match_id)
    for _ in range(moves):
        turn = loaded.state.turn
        if turn is None:
            break
        seated = await matches.authenticate(match_id, tokens[turn])
        bot = wild if rng.random() < 0.1 else simple
        command = bot.choose(view(loaded.state, seated.seat))
        assert isinstance(command, SeatCommand)
        loaded = await matches.handle(seated.match, seated.seat, CommandRequest(command=command))
    record, version = await served_record(matches, await matches.match(match_id))
    assert version == loaded.version
    return record
