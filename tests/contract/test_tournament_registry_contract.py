"""The match registry's tournament side, for every adapter: rounds all or nothing, external
refs unique per operator, look-ups by ref, an operator's matches paged, owners."""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from datetime import UTC, datetime

import msgspec
import pytest

from adapters.memory.match_registry import InMemoryMatchRegistry
from adapters.postgres.event_store import open_pool
from adapters.postgres.match_registry import PostgresMatchRegistry
from service.errors import ExternalRefTaken
from service.ports.match_registry import (
    MatchQuery,
    MatchRegistry,
    NewRound,
    Owner,
    RegisteredSeat,
    Registration,
)
from tests.app_login import as_app
from tests.contract.conftest import ADAPTERS


@dataclass(frozen=True)
class World:
    registry: MatchRegistry
    new_operator: Callable[[], Awaitable[str]]


@pytest.fixture(params=ADAPTERS)
async def world(request: pytest.FixtureRequest) -> AsyncIterator[World]:
    if request.param == "memory":

        async def made_up() -> str:
            return str(uuid.uuid4())

        yield World(InMemoryMatchRegistry(), made_up)
        return
    url: str = request.getfixturevalue("fresh_database_url")
    async with open_pool(as_app(url), max_size=5) as pool, open_pool(url, max_size=1) as owner:

        async def inserted() -> str:
            # Operators are made by `gin operator`, as the owner; the service only reads them.
            operator_id = str(uuid.uuid4())
            async with owner.connection() as conn:
                await conn.execute(
                    "INSERT INTO operators (operator_id, name) VALUES (%s, %s)",
                    (operator_id, operator_id),
                )
            return operator_id

        yield World(PostgresMatchRegistry(pool), inserted)


def registration(ref: str | None) -> Registration:
    return Registration(
        match_id=str(uuid.uuid4()),
        external_ref=ref,
        server_secret=b"s" * 32,
        seats=(
            RegisteredSeat(0, uuid.uuid4().bytes * 2, ""),
            RegisteredSeat(1, None, "", bot="random"),
        ),
    )


def new_round(operator_id: str, *refs: str | None) -> NewRound:
    return NewRound(
        round_id=str(uuid.uuid4()),
        operator_id=operator_id,
        start_at=None,
        matches=tuple(registration(ref) for ref in refs),
    )


async def test_a_round_is_registered_whole_in_the_order_given(world: World) -> None:
    operator = await world.new_operator()
    made = new_round(operator, "r-2", "r-1", None)

    await world.registry.create_round(made)
    found = await world.registry.round(made.round_id)

    assert found is not None
    assert found.match_ids == tuple(m.match_id for m in made.matches)
    assert found.operator_id == operator
    match = await world.registry.get(made.matches[0].match_id)
    assert match is not None
    assert (match.round_id, match.operator_id, match.external_ref) == (
        made.round_id,
        operator,
        "r-2",
    )
    assert await world.registry.round(str(uuid.uuid4())) is None


async def test_a_round_reusing_an_external_ref_registers_nothing(world: World) -> None:
    operator, other = await world.new_operator(), await world.new_operator()
    await world.registry.create_round(new_round(operator, "taken"))
    await world.registry.create_round(new_round(other, "taken"))  # another operator's: fine

    refused = new_round(operator, "fresh", "taken")
    with pytest.raises(ExternalRefTaken):
        await world.registry.create_round(refused)
    twice = new_round(operator, "again", "again")
    with pytest.raises(ExternalRefTaken):
        await world.registry.create_round(twice)

    for match in (*refused.matches, *twice.matches):
        assert await world.registry.get(match.match_id) is None
    assert await world.registry.round(refused.round_id) is None


async def test_a_single_match_reusing_an_external_ref_is_refused(world: World) -> None:
    operator = await world.new_operator()
    first = registration("cup-1")
    await world.registry.create(
        first.match_id,
        external_ref="cup-1",
        server_secret=b"s" * 32,
        seats=first.seats,
        operator_id=operator,
    )

    with pytest.raises(ExternalRefTaken):
        await world.registry.create(
            str(uuid.uuid4()),
            external_ref="cup-1",
            server_secret=b"s" * 32,
            seats=registration(None).seats,
            operator_id=operator,
        )


async def test_a_match_is_found_by_its_operator_and_external_ref(world: World) -> None:
    operator, other = await world.new_operator(), await world.new_operator()
    made = new_round(operator, "final")
    await world.registry.create_round(made)

    found = await world.registry.by_external_ref(operator, "final")

    assert found is not None
    assert found.match_id == made.matches[0].match_id
    assert await world.registry.by_external_ref(other, "final") is None
    assert await world.registry.by_external_ref(operator, "fina") is None


async def test_an_operators_matches_page_by_cursor_and_prefix(world: World) -> None:
    operator, other = await world.new_operator(), await world.new_operator()
    for week in ("w1", "w2"):
        await world.registry.create_round(new_round(operator, *(f"{week}-{n}" for n in range(3))))
    await world.registry.create_round(new_round(other, "w1-9"))

    seen: list[str | None] = []
    after = None
    while True:
        page = await world.registry.operator_matches(
            operator, MatchQuery(external_ref_prefix="w1-", after=after, limit=2)
        )
        seen += [m.external_ref for m in page]
        if len(page) < 2:
            break
        after = (page[-1].created_at, page[-1].match_id)
    everything = await world.registry.operator_matches(operator, MatchQuery())

    assert sorted(r for r in seen if r) == ["w1-0", "w1-1", "w1-2"]
    assert len(seen) == 3
    assert len(everything) == 6
    keys = [(m.created_at, m.match_id) for m in everything]
    assert keys == sorted(keys)


async def test_an_operators_matches_filter_by_round_and_by_player(world: World) -> None:
    operator, other = await world.new_operator(), await world.new_operator()
    first, second = new_round(operator, "a-1", "a-2"), new_round(operator, "b-1")
    seated = registration("b-2")
    seated = msgspec.structs.replace(
        seated,
        seats=(RegisteredSeat(0, uuid.uuid4().bytes * 2, "", "ann"), *seated.seats[1:]),
    )
    second = msgspec.structs.replace(second, matches=(*second.matches, seated))
    theirs = msgspec.structs.replace(new_round(other, "c-1"), matches=(registration("c-1"),))
    for made in (first, second, theirs):
        await world.registry.create_round(made)

    of_round = await world.registry.operator_matches(operator, MatchQuery(round_id=first.round_id))
    of_ann = await world.registry.operator_matches(operator, MatchQuery(external_player_id="ann"))
    both = MatchQuery(round_id=first.round_id, external_player_id="ann")

    assert sorted(m.external_ref or "" for m in of_round) == ["a-1", "a-2"]
    assert [m.external_ref for m in of_ann] == ["b-2"]
    assert await world.registry.operator_matches(operator, both) == []
    assert await world.registry.operator_matches(other, MatchQuery(round_id=first.round_id)) == []


async def test_a_rounds_match_carries_the_rounds_start(world: World) -> None:
    operator = await world.new_operator()
    start = datetime(2031, 5, 1, 18, tzinfo=UTC)
    made = msgspec.structs.replace(new_round(operator, "s-1"), start_at=start)
    await world.registry.create_round(made)

    found = await world.registry.get(made.matches[0].match_id)

    assert found is not None
    assert found.clocks_start_at == start
    alone = await world.registry.get(await registered_alone(world, operator))
    assert alone is not None
    assert alone.clocks_start_at is None


async def registered_alone(world: World, operator: str) -> str:
    single = registration(None)
    await world.registry.create(
        single.match_id,
        external_ref=None,
        server_secret=b"s" * 32,
        seats=single.seats,
        operator_id=operator,
    )
    return single.match_id


async def test_owners_name_each_known_matchs_operator_ref_and_round(world: World) -> None:
    operator = await world.new_operator()
    made = new_round(operator, "o-1")
    await world.registry.create_round(made)
    match_id = made.matches[0].match_id

    owners = await world.registry.owners([match_id, str(uuid.uuid4())])

    assert owners == {match_id: Owner(operator, "o-1", made.round_id)}
