"""What auditing costs: verifying a game record against simply replaying it, and the seed of a
deal from the committed chains against the single HMAC a secret-keyed scheme would need.

    .venv/bin/python -m bench.audit [--matches N] [--seed S]

A record: N default matches (to 500 points) played in this process at random (a knock when
one is listed), through the service's own system steps and fairness log on the in-memory
store, built by ``build_record``. Rows, best of three rounds each:

- ``fold`` (the reference): decode the record's match events and fold them with ``evolve``.
- ``verify``: ``verify_record``: both hash chains, the fairness stream, every deal recomputed
  and every move decided again.
- ``hmac`` (the reference): one HMAC-SHA256 over a deal's inputs.
- ``deal seed, warm`` / ``cold``: ``deal_seed`` with the match's chain checkpoints cached /
  not (a process that has not dealt in this match yet walks the 1024-link chain once).
"""

from __future__ import annotations

import argparse
import asyncio
import hashlib
import hmac
import random
import time
import uuid
from collections.abc import Callable
from datetime import UTC, datetime

from adapters.memory.event_store import InMemoryEventStore
from domain import Event, Knock, StartMatch, decide, evolve, fold, legal_actions, new_match
from service.audit.game_record import GameRecord, build_record
from service.audit.record_kinds import ONE_HAND
from service.audit.verify import verify_record
from service.fairness import seeds as fairness
from service.fairness.log import FairnessLog, deal_seed, fairness_stream, touches_fairness
from service.matches.system_steps import system_steps
from service.ports.match_registry import RegisteredMatch, RegisteredSeat
from service.store.match_streams import Loaded, MatchStreams, stream_id

ROUNDS = 3


async def _played(rng: random.Random) -> GameRecord:
    seats = tuple(RegisteredSeat(seat, bytes([seat]) * 32, f"seat {seat}") for seat in (0, 1))
    match = RegisteredMatch(str(uuid.uuid4()), None, rng.randbytes(32), datetime.now(UTC), seats)
    store = InMemoryEventStore()
    streams, fairness = MatchStreams(store), FairnessLog(store)
    state = new_match()
    events: list[Event] = decide(state, StartMatch())
    await fairness.open(match)
    loaded = Loaded(new_match(), 0)
    while True:
        state = loaded.state
        for event in events:
            state = evolve(state, event)
        steps, _ = system_steps(state, match)
        loaded, _ = await streams.append(match.match_id, loaded, [*events, *steps])
        if touches_fairness([*events, *steps]):
            await fairness.sync(match, loaded.state)
        seat = loaded.state.turn
        if seat is None:
            break
        actions = legal_actions(loaded.state, seat)
        knocks = [a for a in actions if isinstance(a, Knock)]
        events = decide(loaded.state, rng.choice(knocks or actions))
    return build_record(
        ONE_HAND,
        match,
        await store.read_stream(stream_id(match.match_id)),
        await store.read_stream(fairness_stream(match.match_id)),
    )


def _best(work: Callable[[], object]) -> float:
    times = []
    for _ in range(ROUNDS):
        start = time.perf_counter()
        work()
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    records = [asyncio.run(_played(rng)) for _ in range(args.matches)]
    events = sum(len(r.match_stream.events) + len(r.fairness_stream.events) for r in records)
    hands = sum(r.hands_finished for r in records)

    def replay_all() -> None:
        for record in records:
            fold(event for _, event in ONE_HAND.events(record))

    def verify_all() -> None:
        for record in records:
            assert verify_record(record).ok

    base = _best(replay_all)
    checked = _best(verify_all)
    print(f"{args.matches} records: {hands} hands, {events} events")
    print(f"{'':24}{'seconds':>10}{'per hand (ms)':>16}{'ratio':>8}")
    print(f"{'fold (reference)':24}{base:10.4f}{base / hands * 1e3:16.3f}{1:8.2f}")
    print(f"{'verify':24}{checked:10.4f}{checked / hands * 1e3:16.3f}{checked / base:8.2f}")
    _seed_rows(records[0])


def _seed_rows(record: GameRecord) -> None:
    seats = (RegisteredSeat(0, None, "a"), RegisteredSeat(1, None, "b"))
    match = RegisteredMatch(record.match_id, None, bytes(32), datetime.now(UTC), seats)
    calls = 2000

    def one_hmac() -> None:
        for deal in range(calls):
            hmac.new(match.server_secret, f"deal {deal}".encode(), hashlib.sha256).digest()

    def warm() -> None:
        for deal in range(calls):
            deal_seed(match, deal % 900 + 1)

    def cold() -> None:
        for deal in range(calls // 20):
            fairness._checkpoints.cache_clear()
            deal_seed(match, deal + 1)

    reference = _best(one_hmac) / calls
    print(f"{'':24}{'us per seed':>10}{'':16}{'ratio':>8}")
    print(f"{'hmac (reference)':24}{reference * 1e6:10.2f}{'':16}{1:8.2f}")
    for name, work, count in (("deal seed, warm", warm, calls), ("cold", cold, calls // 20)):
        each = _best(work) / count
        print(f"{name:24}{each * 1e6:10.2f}{'':16}{each / reference:8.2f}")


if __name__ == "__main__":
    main()
