"""A round whose request died after registering its matches, before all of them started: the
retry with the same Idempotency-Key and body finishes it and answers as the first would have,
with tokens that work. The crash is a hook failing the third match's start, over the in-memory
adapters."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from adapters.memory.event_store import InMemoryEventStore
from adapters.memory.match_creations import InMemoryMatchCreations
from adapters.memory.match_registry import InMemoryMatchRegistry
from domain import RuleOptions
from domain.state import Phase
from service.errors import IdempotencyKeyReused, WrongToken
from service.matches.idempotent import HOLD, IdempotentCreations
from service.matches.use_cases import CreatedMatch, MatchService, RoundMatch, _NewMatch
from service.store.match_streams import MatchStreams
from service.tournament.rounds import CreatedRound, Rounds

OPTIONS = RuleOptions(game_target=30, match_target=60)
OPERATOR = "operator-1"
KEY = "round-1-key"


class CrashError(Exception):
    pass


class CrashingService(MatchService):
    """Starts ``survivors`` matches, then fails as a process would that died there."""

    def __init__(self, *args: object, survivors: int, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self.survivors = survivors
        self.started: list[CreatedMatch] = []  # with the tokens the first answer would hold

    async def _start(self, new: _NewMatch, *, opened: int | None = None) -> CreatedMatch:
        if self.survivors == 0:
            raise CrashError("the process died here")
        self.survivors -= 1
        made = await super()._start(new, opened=opened)
        self.started.append(made)
        return made


class DeadProcessCreations(InMemoryMatchCreations):
    """A process that dies never releases its claim: it lapses after ``HOLD``."""

    async def release(self, key_hash: bytes) -> None:
        return None


class Now:
    def __init__(self) -> None:
        self.at = datetime(2030, 1, 1, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.at


def matches(count: int, prefix: str = "r1") -> list[RoundMatch]:
    return [
        RoundMatch(external_ref=f"{prefix}-{n}", external_player_ids=[f"p{2 * n}", f"p{2 * n + 1}"])
        for n in range(count)
    ]


async def create(rounds: Rounds, asked: list[RoundMatch]) -> CreatedRound:
    return await rounds.create(
        OPERATOR,
        options=OPTIONS,
        start_at=None,
        matches=asked,
        idempotency_key=KEY,
        request=[m.external_ref for m in asked],
    )


async def crashed_round(creations: InMemoryMatchCreations) -> tuple[MatchService, Rounds]:
    """A round of six whose first request died after starting two matches; a service (as a
    new process would have) over the same stores."""
    streams, registry = MatchStreams(InMemoryEventStore()), InMemoryMatchRegistry()
    idempotent = IdempotentCreations(creations)
    crashing = CrashingService(streams, registry, survivors=2)
    with pytest.raises(CrashError):
        await create(Rounds(crashing, idempotent), matches(6))
    again = MatchService(MatchStreams(streams.store), registry)
    return again, Rounds(again, idempotent)


async def check_finished(service: MatchService, answer: CreatedRound) -> None:
    info = await service.registry.round(answer.round_id)
    assert info is not None
    assert [m.match_id for m in answer.matches] == list(info.match_ids)
    for made in answer.matches:
        loaded = await service.load(made.match_id)
        assert loaded.state.phase not in (Phase.CUT, Phase.MATCH_OVER)
        for seat, token in made.tokens.items():
            assert (await service.authenticate(made.match_id, token)).seat == seat


async def test_a_retry_after_a_failure_mid_round_starts_the_rest_with_working_tokens() -> None:
    service, rounds = await crashed_round(InMemoryMatchCreations())

    answer = await create(rounds, matches(6))

    assert len(answer.matches) == 6
    await check_finished(service, answer)
    assert await create(rounds, matches(6)) == answer  # and the answer is kept from now on


async def test_a_retry_after_the_process_died_mid_round_finishes_it_once_the_claim_lapses() -> None:
    now = Now()
    service, rounds = await crashed_round(DeadProcessCreations(clock=now))
    now.at += HOLD + timedelta(seconds=1)

    answer = await create(rounds, matches(6))

    await check_finished(service, answer)
    started = [await service.load(m.match_id) for m in answer.matches]
    assert all(loaded.version > 0 for loaded in started)


async def test_the_new_tokens_work_even_where_a_process_cached_the_first_ones() -> None:
    """The first tokens were never sent (the request died before answering): they open
    nothing once read afresh; a process that cached them still lets the new ones in."""
    streams, registry = MatchStreams(InMemoryEventStore()), InMemoryMatchRegistry()
    idempotent = IdempotentCreations(InMemoryMatchCreations())
    crashing = CrashingService(streams, registry, survivors=2)
    with pytest.raises(CrashError):
        await create(Rounds(crashing, idempotent), matches(6))
    # Another process read the started matches with the first tokens (it cached them).
    observer = MatchService(MatchStreams(streams.store), registry)
    for first in crashing.started:
        for seat, token in first.tokens.items():
            assert (await observer.authenticate(first.match_id, token)).seat == seat

    answer = await create(Rounds(MatchService(streams, registry), idempotent), matches(6))

    fresh = {made.match_id: made.tokens for made in answer.matches}
    later = MatchService(MatchStreams(streams.store), registry)
    for first in crashing.started:
        for seat, token in first.tokens.items():
            new_token = fresh[first.match_id][seat]
            assert (await observer.authenticate(first.match_id, new_token)).seat == seat
            with pytest.raises(WrongToken):
                await later.authenticate(first.match_id, token)


async def test_a_different_round_under_the_key_after_a_failure_is_refused() -> None:
    service, rounds = await crashed_round(InMemoryMatchCreations())
    last_differs = [*matches(5), RoundMatch(external_ref="r1-5", external_player_ids=["x", "y"])]
    before = await service.registry.by_external_ref(OPERATOR, "r1-0")
    assert before is not None

    for other in (matches(6, prefix="other"), matches(5), last_differs):
        with pytest.raises(IdempotencyKeyReused):
            await create(rounds, other)
    # Nothing changed: the started match's tokens are the first ones.
    assert await service.registry.get(before.match_id) == before


@pytest.mark.parametrize("seats", [2, 3, 4])
async def test_a_round_of_any_table_size_is_finished_by_its_retry(seats: int) -> None:
    store, registry = InMemoryEventStore(), InMemoryMatchRegistry()
    idempotent = IdempotentCreations(InMemoryMatchCreations())
    asked = [
        RoundMatch(
            external_ref=f"t-{n}",
            players=seats,
            external_player_ids=[f"p{n}-{s}" for s in range(seats)],
        )
        for n in range(6)
    ]
    crashing = CrashingService(MatchStreams(store), registry, survivors=2)
    with pytest.raises(CrashError):
        await create(Rounds(crashing, idempotent), asked)
    service = MatchService(MatchStreams(store), registry)
    rounds = Rounds(service, idempotent)
    # The same refs (the request these tests send) with other players: another round.
    for size in {2, 3, 4} - {seats}:
        other = [*asked[:5], RoundMatch(external_ref="t-5", players=size)]
        with pytest.raises(IdempotencyKeyReused):
            await create(rounds, other)

    answer = await create(rounds, asked)

    info = await registry.round(answer.round_id)
    assert info is not None
    assert [m.match_id for m in answer.matches] == list(info.match_ids)
    for made, match in zip(answer.matches, asked, strict=True):
        registered = await registry.get(made.match_id)
        assert registered is not None
        assert [s.external_player_id for s in registered.seats] == match.external_player_ids
        assert sorted(made.tokens) == list(range(seats))
        for seat, token in made.tokens.items():
            assert (await service.authenticate(made.match_id, token)).seat == seat
        assert (await service.load(made.match_id)).version > 0
    assert await create(rounds, asked) == answer
