"""The contract of the players port, for the PostgreSQL and the in-memory adapters alike."""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

import msgspec
import pytest

from adapters.memory.match_registry import InMemoryMatchRegistry
from adapters.memory.players import InMemoryPlayers
from adapters.memory.webhook_subscriptions import InMemoryWebhookSubscriptions
from adapters.memory.webhook_tables import WebhookTables
from adapters.postgres.event_store import open_pool
from adapters.postgres.match_registry import PostgresMatchRegistry
from adapters.postgres.players import PostgresPlayers
from adapters.postgres.webhook_subscriptions import PostgresWebhookSubscriptions
from service.matches.tokens import secret_hash
from service.ports.match_registry import MatchRegistry, RegisteredSeat
from service.ports.players import DuplicatePlayer, NewNotice, PlayerMatch
from service.ports.webhook_dispatch import NewDelivery
from service.ports.webhook_subscriptions import WebhookSubscriptions
from service.tournament.webhooks.payloads import Kind
from tests.app_login import as_app
from tests.contract.conftest import ADAPTERS
from tests.contract.webhooks.world import SECRET, UNUSED_URL, memory_world, postgres_world


@dataclass
class Ports:
    players: Any  # both PlayerStore and PlayerProjection
    registry: MatchRegistry
    subscriptions: WebhookSubscriptions  # over the same tables, for the relays' webhooks
    new_operator: Callable[[], Awaitable[str]]


@pytest.fixture(params=ADAPTERS)
async def ports(request: pytest.FixtureRequest) -> AsyncIterator[Ports]:
    if request.param == "memory":
        registry, tables = InMemoryMatchRegistry(), WebhookTables()
        yield Ports(
            InMemoryPlayers(registry, webhooks=tables),
            registry,
            InMemoryWebhookSubscriptions(tables),
            memory_world().new_operator,
        )
    else:
        url: str = request.getfixturevalue("fresh_database_url")
        # Operators are made by their owner's tools, not the application role.
        async with (
            open_pool(as_app(url), max_size=5) as pool,
            open_pool(url, max_size=1) as owner,
        ):
            players = PostgresPlayers(pool)
            yield Ports(
                players,
                PostgresMatchRegistry(pool),
                PostgresWebhookSubscriptions(pool),
                postgres_world(owner).new_operator,
            )
            await players.close()


def new_id() -> str:
    return str(uuid.uuid4())


async def new_player(ports: Ports, name: str = "Ada") -> str:
    player_id = new_id()
    await ports.players.create(player_id, name, credential_hash(player_id))
    return player_id


def credential_hash(player_id: str) -> bytes:
    """The hash ``new_player`` gave the player's credential."""
    return secret_hash(f"gpc_{player_id}")


async def seat_match(ports: Ports, *token_hashes: bytes | None) -> str:
    match_id = new_id()
    await ports.registry.create(
        match_id,
        external_ref=None,
        server_secret=b"s" * 32,
        seats=[RegisteredSeat(seat, h, "") for seat, h in enumerate(token_hashes)],
    )
    return match_id


def notice(player_id: str, kind: Any = "your_turn") -> NewNotice:
    return NewNotice(player_id=player_id, kind=kind, match_id=None, payload=b"{}")


async def test_a_player_is_found_by_credential_hash_and_id(ports: Ports) -> None:
    player_id = await new_player(ports, "Ada")
    found = await ports.players.by_credential(secret_hash(f"gpc_{player_id}"))
    assert found is not None
    assert (found.player_id, found.display_name) == (player_id, "Ada")
    assert await ports.players.get(player_id) == found
    assert await ports.players.by_credential(secret_hash("gpc_other")) is None
    assert await ports.players.get(new_id()) is None


async def test_a_taken_credential_hash_or_id_makes_no_second_player(ports: Ports) -> None:
    player_id = await new_player(ports)
    with pytest.raises(DuplicatePlayer):
        await ports.players.create(new_id(), "Bo", secret_hash(f"gpc_{player_id}"))
    with pytest.raises(DuplicatePlayer):
        await ports.players.create(player_id, "Bo", secret_hash("gpc_fresh"))
    assert await ports.players.by_credential(secret_hash("gpc_fresh")) is None


async def test_rotating_needs_the_current_hash_and_retires_it(ports: Ports) -> None:
    player_id = await new_player(ports)
    old, new = secret_hash(f"gpc_{player_id}"), secret_hash("gpc_new")
    assert not await ports.players.rotate(player_id, secret_hash("gpc_wrong"), new)
    assert await ports.players.rotate(player_id, old, new)
    assert await ports.players.by_credential(old) is None
    found = await ports.players.by_credential(new)
    assert found is not None
    assert found.player_id == player_id
    assert not await ports.players.rotate(player_id, old, secret_hash("gpc_again"))


async def test_a_seat_is_a_players_when_its_token_hash_is_linked(ports: Ports) -> None:
    ada, bo = await new_player(ports, "Ada"), await new_player(ports, "Bo")
    await ports.players.link_token(ada, secret_hash("gin_a"))
    await ports.players.link_token(bo, secret_hash("gin_b"))
    match_id = await seat_match(ports, secret_hash("gin_a"), secret_hash("gin_c"))
    assert await ports.players.seat_of(ada, match_id) == 0
    assert await ports.players.seat_of(bo, match_id) is None
    assert await ports.players.names(match_id) == {0: "Ada"}
    other = await seat_match(ports, secret_hash("gin_x"), secret_hash("gin_b"))
    assert await ports.players.seat_of(bo, other) == 1


async def test_notices_are_numbered_per_player_without_gaps(ports: Ports) -> None:
    ada, bo = await new_player(ports, "Ada"), await new_player(ports, "Bo")
    await ports.players.add_notices([notice(ada), notice(bo, "match_ended"), notice(ada)])
    await ports.players.add_notices([notice(ada, "match_started")])
    adas = await ports.players.notices(ada, after=0, limit=10)
    assert [(n.seq, n.kind) for n in adas] == [
        (1, "your_turn"),
        (2, "your_turn"),
        (3, "match_started"),
    ]
    assert [n.seq for n in await ports.players.notices(ada, after=1, limit=1)] == [2]
    assert [n.seq for n in await ports.players.notices(bo, after=0, limit=10)] == [1]


def row(player_id: str, match_id: str, position: int, status: Any = "in_progress") -> PlayerMatch:
    return PlayerMatch(
        player_id=player_id,
        match_id=match_id,
        seat=0,
        status=status,
        turn=0,
        version=position,
        position=position,
    )


async def test_a_turn_saves_rows_notices_and_cursor_together(ports: Ports) -> None:
    ada = await new_player(ports)
    await ports.players.link_token(ada, secret_hash("gin_a"))
    match_id = await seat_match(ports, secret_hash("gin_a"), None)
    async with ports.players.turn() as turn:
        assert turn.cursor == 0
        assert [s.player_id for s in await turn.seats([match_id])] == [ada]
        assert await turn.known([match_id]) == []
        await turn.save([row(ada, match_id, 3)], [notice(ada)])
        await turn.move_cursor(3)
    async with ports.players.turn() as turn:
        assert turn.cursor == 3
        assert await turn.known([match_id]) == [row(ada, match_id, 3)]
        await turn.save([row(ada, match_id, 5, "finished")], [])
        await turn.move_cursor(5)
    listed = await ports.players.matches(credential_hash(ada), before=None, limit=10)
    assert listed == [row(ada, match_id, 5, "finished")]
    assert len(await ports.players.notices(ada, after=0, limit=10)) == 1


async def test_a_row_keeps_its_deadline(ports: Ports) -> None:
    ada = await new_player(ports)
    await ports.players.link_token(ada, secret_hash("gin_d"))
    match_id = await seat_match(ports, secret_hash("gin_d"), None)
    due = datetime(2026, 12, 1, 12, 30, 15, 250000, tzinfo=UTC)
    clocked = PlayerMatch(**{**msgspec.structs.asdict(row(ada, match_id, 4)), "deadline": due})
    async with ports.players.turn() as turn:
        await turn.save([clocked], [])
    [listed] = await ports.players.matches(credential_hash(ada), before=None, limit=10)
    assert listed.deadline == due
    async with ports.players.turn() as turn:
        await turn.save([row(ada, match_id, 6, "finished")], [])
    [listed] = await ports.players.matches(credential_hash(ada), before=None, limit=10)
    assert listed.deadline is None


async def subscribe(ports: Ports, operator_id: str, events: list[Kind]) -> str:
    webhook_id = new_id()
    await ports.subscriptions.create(operator_id, webhook_id, UNUSED_URL, SECRET, events)
    return webhook_id


def relayed(webhook_id: str, player_id: str, match_id: str, position: int) -> NewDelivery:
    return NewDelivery(
        webhook_id=webhook_id,
        match_id=match_id,
        event_position=position,
        event_version=position,
        kind="player_your_turn",
        payload=b'{"player_id":"%s"}' % player_id.encode(),
        player_id=player_id,
    )


async def test_a_turn_adds_a_relays_deliveries_once_per_position_and_player(
    ports: Ports,
) -> None:
    ada, bob = await new_player(ports, "Ada"), await new_player(ports, "Bob")
    match_id = await seat_match(ports, None, None)
    operator, other = await ports.new_operator(), await ports.new_operator()
    relay = await subscribe(ports, operator, ["player_your_turn", "hand_end"])
    await subscribe(ports, other, ["hand_end"])  # hears of no player
    gone = await subscribe(ports, other, ["player_match_ended"])
    await ports.subscriptions.delete(other, gone)

    async with ports.players.turn() as turn:
        hooks = await turn.relay_hooks()
        assert [(h.webhook_id, h.events) for h in hooks] == [
            (relay, ["player_your_turn", "hand_end"])
        ]
        await turn.add_deliveries(
            [relayed(relay, ada, match_id, 7), relayed(relay, bob, match_id, 7)]
        )
    async with ports.players.turn() as turn:
        # The same news again (a page projected twice) adds nothing.
        await turn.add_deliveries([relayed(relay, ada, match_id, 7)])
    found = await ports.subscriptions.deliveries(operator, relay, after=0, limit=10)
    assert sorted(bytes(d.payload) for d in found) == sorted(
        [b'{"player_id":"%s"}' % p.encode() for p in (ada, bob)]
    )
    assert {(d.kind, d.event_position, d.status) for d in found} == {
        ("player_your_turn", 7, "pending")
    }


async def test_a_turn_that_fails_changes_nothing(ports: Ports) -> None:
    ada = await new_player(ports)
    await ports.players.link_token(ada, secret_hash("gin_a"))
    match_id = await seat_match(ports, secret_hash("gin_a"), None)

    async def crash_in_a_turn() -> None:
        async with ports.players.turn() as turn:
            await turn.save([row(ada, match_id, 3)], [notice(ada)])
            await turn.move_cursor(3)
            raise RuntimeError("crash")

    with pytest.raises(RuntimeError):
        await crash_in_a_turn()
    async with ports.players.turn() as turn:
        assert turn.cursor == 0
    assert await ports.players.matches(credential_hash(ada), before=None, limit=10) == []
    assert await ports.players.notices(ada, after=0, limit=10) == []


async def test_while_one_turn_is_open_another_is_skipped(ports: Ports) -> None:
    async with ports.players.turn() as first:
        assert first is not None
        async with ports.players.turn() as second:
            assert second is None


async def test_the_list_is_newest_first_in_pages(ports: Ports) -> None:
    ada = await new_player(ports)
    matches = []
    for position in (4, 9, 7):
        token = f"gin_{position}"
        await ports.players.link_token(ada, secret_hash(token))
        matches.append(await seat_match(ports, secret_hash(token), None))
    async with ports.players.turn() as turn:
        rows = [row(ada, m, p) for m, p in zip(matches, (4, 9, 7), strict=True)]
        await turn.save(rows, [])
    first = await ports.players.matches(credential_hash(ada), before=None, limit=2)
    assert [r.position for r in first] == [9, 7]
    rest = await ports.players.matches(credential_hash(ada), before=7, limit=2)
    assert [r.position for r in rest] == [4]
    # The same list by the player's id, for a player signed in by a session.
    assert await ports.players.matches_of(ada, before=None, limit=2) == first
    assert await ports.players.matches_of(ada, before=7, limit=2) == rest
    assert await ports.players.matches_of(await new_player(ports), before=None, limit=9) == []


async def test_the_list_is_found_by_the_credential_only(ports: Ports) -> None:
    ada = await new_player(ports)
    assert await ports.players.matches(credential_hash(ada), before=None, limit=10) == []
    assert await ports.players.matches(credential_hash("nobody"), before=None, limit=10) is None
    await ports.players.rotate(ada, credential_hash(ada), secret_hash("gpc_new"))
    assert await ports.players.matches(credential_hash(ada), before=None, limit=10) is None
    assert await ports.players.matches(secret_hash("gpc_new"), before=None, limit=10) == []
