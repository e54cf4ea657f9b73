"""Matches of two, three or four seats played in this process for the verifier's tests: the
real ``MatchService`` over the in-memory adapters, with bots choosing every seat's move from
its view (a seat at three or four, from its table's), seats picked at random among those
with a move (so the two tables at four seats finish their hands in either order). The record
is the one ``GET /matches/{id}/record`` serves, built by the same ``served_record``.

A seed fixes everything the record depends on (the match id, the server secret behind the
commitment, every bot's move, and with a turn clock the time each decision takes and which
deadlines pass), so the same seed plays the same match.
"""

from __future__ import annotations

import asyncio
import hashlib
import random
import uuid
from collections.abc import Awaitable, Callable, Sequence
from datetime import UTC, datetime, timedelta
from typing import Any

from adapters.memory.event_store import InMemoryEventStore
from adapters.memory.match_registry import InMemoryMatchRegistry
from adapters.memory.seed_commitments import InMemorySeedCommitmentStore
from domain import RuleOptions
from domain.commands import SeatCommand
from domain.match_rules import as_seat
from service.audit.game_record import GameRecord
from service.audit.served_record import served_record
from service.bots.random_bot import RandomBot
from service.bots.simple import SimpleBot
from service.fairness.commitments import SeedCommitments
from service.fairness.seeds import CHAIN_LINKS, locate
from service.matches.use_cases import CommandRequest, MatchService
from service.ports.match_registry import RegisteredMatch
from service.store.match_streams import MatchStreams

SHORT_MATCH = RuleOptions(game_target=30, match_target=500)
ONE_GAME = RuleOptions(game_target=40, match_target=0)  # a few rounds at three and four seats
# On a turn clock: decisions that take the bank's time, and seats that let a share of their
# deadlines pass and come back, over several hands.
TIMED_PLAY = RuleOptions(
    game_target=40, match_target=0, turn_seconds=5, bank_seconds=3, timeouts_to_forfeit=100
)
TIMED_OUT = 0.15
ENTROPY = ("alice", "")
START = datetime(2026, 1, 1, tzinfo=UTC)

# Called after every command with the service, the match and the state the command led to.
Watch = Callable[[MatchService, RegisteredMatch, Any], Awaitable[None]]


def played_match(
    seed: int,
    *,
    seats: int = 2,
    options: RuleOptions = SHORT_MATCH,
    moves: int = 100_000,
    links: int = CHAIN_LINKS,
    invite: bool = False,
    timeouts: float = 0.0,
    no_show: Sequence[int] = (),
) -> GameRecord:
    """The record of a match played ``moves`` moves (to its end by default), the same for the
    same seed; ``links`` is the length of its seed chains. ``invite``: seat 1 is invited, and
    joins with its invite code before play. ``no_show``: these seats are invited and none
    joins: the join deadline (``options.join_seconds``) passes, which ends the match."""
    return asyncio.run(
        play_match(
            seed,
            seats=seats,
            options=options,
            moves=moves,
            links=links,
            invite=invite,
            timeouts=timeouts,
            no_show=no_show,
        )
    )


async def play_match(
    seed: int,
    *,
    seats: int = 2,
    options: RuleOptions = SHORT_MATCH,
    moves: int = 100_000,
    links: int = CHAIN_LINKS,
    invite: bool = False,
    watch: Watch | None = None,
    timeouts: float = 0.0,
    no_show: Sequence[int] = (),
) -> GameRecord:
    """``played_match`` from a running event loop; ``watch`` sees every command's state.
    With a turn clock (``options.turn_seconds``) each decision takes up to twice the turn's
    time (the bank paying beyond it), never past its deadline, and a ``timeouts`` share of
    the seats on the clock let their deadline pass instead."""
    rng = random.Random(seed)
    now = START
    matches = MatchService(
        MatchStreams(InMemoryEventStore()),
        InMemoryMatchRegistry(),
        SeedCommitments(InMemorySeedCommitmentStore(), new_secret=lambda: rng.randbytes(32)),
        new_match_id=lambda: str(uuid.UUID(int=rng.getrandbits(128))),
        chain_links=links,
        clock=lambda: now,
    )
    assert matches.commitments is not None
    committed = await matches.commitments.create()
    created = await matches.create_match(
        options=options,
        players=seats,
        entropy=ENTROPY,
        commitment=committed.commitment,
        invite_seats=list(no_show) or ([1] if invite else []),
    )
    match_id = created.match_id
    tokens = dict(created.tokens)
    if no_show:
        now += timedelta(seconds=options.join_seconds)
        assert await matches.time_out(match_id) is not None, "the join deadline did not pass"
    elif created.invite_code is not None:
        joined = await matches.join(created.invite_code)
        tokens[joined.seat] = joined.token
    match = await matches.match(match_id)
    rules = matches.rules_for(match)
    simple, wild = SimpleBot(), RandomBot(rng)
    loaded = await matches.load(match)
    for _ in range(moves):
        movers = [seat for seat in range(seats) if rules.awaits(loaded.state, seat)]
        if not movers:
            break
        deadline = rules.deadline(loaded.state)
        if deadline is not None and deadline.due_at is not None and rng.random() < timeouts:
            now = deadline.due_at
            timed_out = await matches.time_out(match_id)
            if timed_out is not None:
                loaded = timed_out
                continue
        if options.turn_seconds:
            now += timedelta(seconds=rng.uniform(0, 2 * options.turn_seconds))
            if deadline is not None and deadline.due_at is not None:
                now = min(now, deadline.due_at - timedelta(milliseconds=1))
        seat = movers[0] if len(movers) == 1 else rng.choice(movers)
        seated = await matches.authenticate(match_id, tokens[seat])
        bot = wild if rng.random() < 0.1 else simple
        command = bot.choose(rules.bot_view(loaded.state, seated.seat))
        assert isinstance(command, SeatCommand)
        loaded = await matches.handle(
            seated.match, seated.seat, CommandRequest(command=as_seat(command, seated.seat))
        )
        if watch is not None:
            await watch(matches, seated.match, loaded.state)
    record, version = await served_record(matches, await matches.match(match_id))
    assert version == loaded.version
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
