"""The match registry contract: every adapter passes these, unchanged."""

from __future__ import annotations

import asyncio
import hashlib
import uuid

from service.ports.match_registry import (
    AcceptedInvite,
    MatchRegistry,
    RegisteredSeat,
)


def digest(text: str) -> bytes:
    return hashlib.sha256(text.encode()).digest()


def new_id() -> str:
    return str(uuid.uuid4())


async def invited_match(registry: MatchRegistry, code: str = "invite") -> str:
    """A match with seat 0 taken and seat 1 waiting for the holder of ``code``."""
    match_id = new_id()
    await registry.create(
        match_id,
        external_ref=None,
        server_secret=b"s" * 32,
        seats=[
            RegisteredSeat(0, digest(f"{match_id} seat 0"), "mine"),
            RegisteredSeat(1, None, ""),
        ],
        invite_code_hash=digest(code),
        invite_seat=1,
    )
    return match_id


async def test_a_match_is_read_back_as_it_was_registered(registry: MatchRegistry) -> None:
    match_id = new_id()
    seats = [
        RegisteredSeat(1, None, "", external_player_id="p-2", bot="simple"),
        RegisteredSeat(0, digest("token 0"), "alice", external_player_id="p-1"),
    ]

    await registry.create(
        match_id, external_ref="cup-r1", server_secret=bytes(range(32)), seats=seats
    )
    match = await registry.get(match_id)

    assert match is not None
    assert (match.match_id, match.external_ref, match.server_secret, match.operator_id) == (
        match_id,
        "cup-r1",
        bytes(range(32)),
        None,
    )
    assert match.seats == (seats[1], seats[0])  # in seat order
    assert match.full
    assert match.entropy == ["alice", ""]
    assert match.created_at.tzinfo is not None


async def test_an_unknown_match_is_none(registry: MatchRegistry) -> None:
    await invited_match(registry)

    assert await registry.get(new_id()) is None


async def test_matches_are_independent(registry: MatchRegistry) -> None:
    first, second = await invited_match(registry, "one"), await invited_match(registry, "two")

    one, two = await registry.get(first), await registry.get(second)

    assert one is not None
    assert two is not None
    assert (one.match_id, two.match_id) == (first, second)
    assert one.seats[0].token_hash != two.seats[0].token_hash


async def test_an_accepted_invite_seats_its_player(registry: MatchRegistry) -> None:
    match_id = await invited_match(registry)
    before = await registry.get(match_id)
    assert before is not None
    assert not before.full

    accepted = await registry.accept_invite(digest("invite"), digest("joiner"), "bob")

    assert accepted == AcceptedInvite(match_id, 1)
    after = await registry.get(match_id)
    assert after is not None
    assert after.full
    assert after.seats[1] == RegisteredSeat(1, digest("joiner"), "bob")
    assert after.seats[0] == before.seats[0]


async def test_an_open_invite_names_its_match_until_it_is_accepted(
    registry: MatchRegistry,
) -> None:
    match_id = await invited_match(registry)
    assert await registry.invited_match(digest("invite")) == match_id
    assert await registry.invited_match(digest("guess")) is None
    assert await registry.invited_match(digest("invite")) == match_id  # looking changes nothing

    await registry.accept_invite(digest("invite"), digest("joiner"), "")

    assert await registry.invited_match(digest("invite")) is None


async def test_an_unknown_invite_seats_nobody(registry: MatchRegistry) -> None:
    match_id = await invited_match(registry)

    assert await registry.accept_invite(digest("guess"), digest("joiner"), "") is None
    match = await registry.get(match_id)
    assert match is not None
    assert not match.full


async def test_an_invite_is_accepted_once(registry: MatchRegistry) -> None:
    await invited_match(registry)
    assert await registry.accept_invite(digest("invite"), digest("first"), "") is not None

    assert await registry.accept_invite(digest("invite"), digest("second"), "") is None


async def test_an_invite_accepted_twice_at_once_seats_one_player(registry: MatchRegistry) -> None:
    match_id = await invited_match(registry)

    results = await asyncio.gather(
        registry.accept_invite(digest("invite"), digest("first"), "one"),
        registry.accept_invite(digest("invite"), digest("second"), "two"),
    )

    winners = [i for i, result in enumerate(results) if result is not None]
    assert len(winners) == 1
    assert results[winners[0]] == AcceptedInvite(match_id, 1)
    match = await registry.get(match_id)
    assert match is not None
    seated = (digest("first"), "one") if winners == [0] else (digest("second"), "two")
    assert (match.seats[1].token_hash, match.seats[1].entropy) == seated


async def test_a_seat_token_is_known_by_its_hash(registry: MatchRegistry) -> None:
    match_id = await invited_match(registry)

    assert await registry.is_seat_token(digest(f"{match_id} seat 0"))
    assert not await registry.is_seat_token(digest("joiner"))
    await registry.accept_invite(digest("invite"), digest("joiner"), "")
    assert await registry.is_seat_token(digest("joiner"))
    assert not await registry.is_seat_token(digest("invite"))


async def test_every_match_with_a_bot_seat_is_listed_once_and_no_other(
    registry: MatchRegistry,
) -> None:
    async def seated(levels: list[str | None]) -> str:
        match_id = new_id()
        seats = [
            RegisteredSeat(seat, None if level else digest(f"{match_id} {seat}"), "", bot=level)
            for seat, level in enumerate(levels)
        ]
        await registry.create(match_id, external_ref=None, server_secret=b"s" * 32, seats=seats)
        return match_id

    assert await registry.matches_with_bots() == set()
    one_bot = await seated([None, "simple"])
    two_bots = await seated(["random", "strong"])
    await seated([None, None])

    assert await registry.matches_with_bots() == {one_bot, two_bots}


async def test_four_seats_with_an_invite_each_for_two_of_them(registry: MatchRegistry) -> None:
    match_id = new_id()
    await registry.create(
        match_id,
        external_ref=None,
        server_secret=b"s" * 32,
        seats=[
            RegisteredSeat(0, digest(f"{match_id} seat 0"), ""),
            RegisteredSeat(1, None, "", bot="simple"),
            RegisteredSeat(2, None, ""),
            RegisteredSeat(3, None, ""),
        ],
        invite_code_hash=digest(f"{match_id} invite 2"),
        invite_seat=2,
    )
    await registry.add_invite(match_id, digest(f"{match_id} invite 3"), 3)

    third = await registry.accept_invite(digest(f"{match_id} invite 3"), digest("third"), "c")
    second = await registry.accept_invite(digest(f"{match_id} invite 2"), digest("second"), "")

    assert (third, second) == (AcceptedInvite(match_id, 3), AcceptedInvite(match_id, 2))
    after = await registry.get(match_id)
    assert after is not None
    assert after.full
    assert [seat.seat for seat in after.seats] == [0, 1, 2, 3]
    assert after.seats[3] == RegisteredSeat(3, digest("third"), "c")


async def test_new_seat_tokens_replace_the_old_ones_and_nothing_else(
    registry: MatchRegistry,
) -> None:
    match_id = await invited_match(registry)
    before = await registry.get(match_id)
    assert before is not None

    await registry.replace_seat_tokens(match_id, {0: digest("new")})

    after = await registry.get(match_id)
    assert after is not None
    assert after.seats[0] == RegisteredSeat(0, digest("new"), before.seats[0].entropy)
    assert after.seats[1:] == before.seats[1:]
    assert await registry.is_seat_token(digest("new"))
