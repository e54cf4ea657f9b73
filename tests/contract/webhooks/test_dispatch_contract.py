"""The webhook dispatch contract: every adapter passes these, unchanged. The last tests run the
dispatcher itself over each adapter and its event store."""

from __future__ import annotations

import asyncio
import uuid

import msgspec
import pytest

from domain import HandDrawn, MatchWon
from service.ports.webhook_dispatch import LiveSubscription, NewDelivery, OperatorMatch
from service.store.codec import to_record
from service.store.match_streams import stream_id
from service.tournament.webhooks.dispatcher import Dispatcher
from service.tournament.webhooks.payloads import KINDS
from tests.contract.webhooks.world import World


def delivery(webhook_id: str, match_id: str, position: int, payload: bytes = b"{}") -> NewDelivery:
    return NewDelivery(
        webhook_id=webhook_id,
        match_id=match_id,
        event_position=position,
        event_version=position,
        kind="game_end",
        payload=payload,
    )


async def cursor_of(world: World) -> int:
    async with world.dispatch.turn() as turn:
        assert turn is not None
        return turn.cursor


async def count(world: World, operator: str, webhook_id: str) -> int:
    return len(await world.subscriptions.deliveries(operator, webhook_id, after=0, limit=500))


async def test_the_cursor_starts_at_zero_and_keeps_where_a_turn_moved_it(world: World) -> None:
    assert await cursor_of(world) == 0

    async with world.dispatch.turn() as turn:
        assert turn is not None
        await turn.move_cursor(42)

    assert await cursor_of(world) == 42


async def test_a_turn_that_fails_leaves_the_cursor_and_adds_nothing(world: World) -> None:
    operator = await world.new_operator()
    webhook_id = await world.subscribe(operator)

    match_id = await world.add_match(None, None, [])

    async def crash_in_a_turn() -> None:
        async with world.dispatch.turn() as turn:
            assert turn is not None
            await turn.add_deliveries([delivery(webhook_id, match_id, 7)])
            await turn.move_cursor(7)
            raise RuntimeError("the process died here")

    with pytest.raises(RuntimeError):
        await crash_in_a_turn()

    assert await cursor_of(world) == 0
    assert await count(world, operator, webhook_id) == 0


async def test_a_second_turn_while_one_is_open_is_skipped_not_waited_for(world: World) -> None:
    async with world.dispatch.turn() as turn:
        assert turn is not None

        async def second() -> bool:
            async with world.dispatch.turn() as other:
                return other is None

        assert await asyncio.wait_for(second(), timeout=5) is True

    assert await cursor_of(world) == 0


async def test_a_delivery_is_kept_once_per_subscription_and_event_position(world: World) -> None:
    operator = await world.new_operator()
    first, second = await world.subscribe(operator), await world.subscribe(operator)
    match_id = await world.add_match(operator, None, [None, None])

    for payload in (b'{"try":1}', b'{"try":2}'):
        async with world.dispatch.turn() as turn:
            assert turn is not None
            await turn.add_deliveries(
                [
                    delivery(first, match_id, 5, payload),
                    delivery(second, match_id, 5, payload),
                    delivery(first, match_id, 5, payload),
                ]
            )

    for webhook_id in (first, second):
        (kept,) = await world.subscriptions.deliveries(operator, webhook_id, after=0, limit=10)
        assert (kept.match_id, kept.event_position, kept.kind) == (match_id, 5, "game_end")
        assert msgspec.json.decode(kept.payload) == {"try": 1}


async def test_operator_matches_are_those_with_an_operator_with_their_external_ids(
    world: World,
) -> None:
    operator = await world.new_operator()
    tournament = await world.add_match(operator, "table-7", ["alice", None])
    friendly = await world.add_match(None, None, [None, None])

    async with world.dispatch.turn() as turn:
        assert turn is not None
        found = await turn.operator_matches({tournament, friendly, str(uuid.uuid4())})

    assert found == {tournament: OperatorMatch(operator, "table-7", ["alice", None])}


async def test_live_subscriptions_are_the_undeleted_ones_of_the_operators_asked(
    world: World,
) -> None:
    operator, other, unasked = [await world.new_operator() for _ in range(3)]
    kept = await world.subscribe(operator, events=["match_end"])
    deleted = await world.subscribe(operator)
    others = await world.subscribe(other)
    await world.subscribe(unasked)
    await world.subscriptions.delete(operator, deleted)

    async with world.dispatch.turn() as turn:
        assert turn is not None
        live = await turn.live_subscriptions({operator, other})

    assert sorted(live, key=lambda s: s.webhook_id) == sorted(
        [
            LiveSubscription(kept, operator, ["match_end"]),
            LiveSubscription(others, other, list(KINDS)),
        ],
        key=lambda s: s.webhook_id,
    )


# The dispatcher over each adapter


async def finished_operator_match(world: World, operator: str) -> str:
    """A match of ``operator`` whose stream holds a hand end and the match's end (a real
    match has more before them; the dispatcher looks at ends only)."""
    match_id = await world.add_match(operator, "final", ["p1", "p2"])
    hand_end, match_end = HandDrawn(dealer=0, hands=[[], []]), MatchWon(0, [100, 40], [1, 0])
    await world.store.append(stream_id(match_id), [to_record(hand_end)], expected_version=0)
    await world.store.append(stream_id(match_id), [to_record(match_end)], expected_version=1)
    return match_id


async def test_a_page_dispatched_twice_adds_each_delivery_once(world: World) -> None:
    operator = await world.new_operator()
    everything = await world.subscribe(operator)
    match_ends = await world.subscribe(operator, events=["match_end"])
    match_id = await finished_operator_match(world, operator)
    not_a_match = [to_record(MatchWon(1, [0, 100], [0, 1]))]
    await world.store.append("not-a-match", not_a_match, expected_version=0)
    dispatcher = Dispatcher(world.store, world.dispatch)

    assert await dispatcher.dispatch_once() == 3
    assert await dispatcher.dispatch_once() == 0
    async with world.dispatch.turn() as turn:
        assert turn is not None
        await turn.move_cursor(0)  # as if the first pass had crashed before committing
    assert await dispatcher.dispatch_once() == 3

    kinds = [
        d.kind for d in await world.subscriptions.deliveries(operator, everything, after=0, limit=9)
    ]
    assert kinds == ["hand_end", "match_end"]
    (end,) = await world.subscriptions.deliveries(operator, match_ends, after=0, limit=9)
    body = msgspec.json.decode(end.payload)
    assert (body["match_id"], body["external_ref"], body["kind"]) == (
        match_id,
        "final",
        "match_end",
    )
    assert [p["external_player_id"] for p in body["players"]] == ["p1", "p2"]
