"""Invites and rematches as use cases, on the in-memory adapters with a clock the test moves:
an invite refused for its expiry or its recipient changes nothing."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from adapters.memory.event_store import InMemoryEventStore
from adapters.memory.match_registry import InMemoryMatchRegistry
from adapters.memory.player_invites import InMemoryPlayerInvites
from adapters.memory.players import InMemoryPlayers
from domain import RuleOptions
from domain.commands import SeatCommand
from domain.match_rules import as_seat
from service.bots.simple import SimpleBot
from service.errors import (
    InvalidParameter,
    InviteExpired,
    InviteNotForYou,
    PlayerNotFound,
    RematchNotAvailable,
    WrongToken,
)
from service.matches.use_cases import CommandRequest, MatchService
from service.players.accounts import Accounts
from service.players.invites import DEFAULT_TIMES, Invitations
from service.players.settings import PlayerTimes
from service.ports.players import Player
from service.store.match_streams import MatchStreams


class Clock:
    def __init__(self) -> None:
        self.now = datetime(2026, 11, 30, 12, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now


class World:
    def __init__(self, times: PlayerTimes = DEFAULT_TIMES) -> None:
        registry = InMemoryMatchRegistry()
        self.players = InMemoryPlayers(registry)
        self.matches = MatchService(MatchStreams(InMemoryEventStore()), registry)
        self.accounts = Accounts(self.players, self.matches)
        self.clock = Clock()
        self.invitations = Invitations(
            InMemoryPlayerInvites(self.players), self.accounts, clock=self.clock, times=times
        )

    async def player(self, name: str) -> Player:
        return (await self.accounts.sign_up(name)).player


@pytest.fixture
def world() -> World:
    return World()


async def test_an_invite_to_a_player_reaches_only_their_inbox(world: World) -> None:
    host, guest, other = [await world.player(n) for n in ("Host", "Guest", "Other")]
    invited = await world.invitations.invite(
        host, options=RuleOptions(), to_players=[guest.player_id]
    )
    notices = await world.players.notices(guest.player_id, after=0, limit=10)
    assert [n.kind for n in notices] == ["invitation_received"]
    assert invited.match.invite_code is not None
    assert invited.match.invite_code.encode() in notices[0].payload
    assert await world.players.notices(other.player_id, after=0, limit=10) == []
    with pytest.raises(InviteNotForYou):
        await world.invitations.accept(other, invited.match.invite_code)
    with pytest.raises(InviteNotForYou):
        await world.invitations.check(None, invited.match.invite_code)
    seated = await world.invitations.accept(guest, invited.match.invite_code)  # still open
    assert (seated.match_id, seated.seat) == (invited.match.match_id, 1)


async def test_an_expired_invite_is_refused_and_the_seat_stays_open(world: World) -> None:
    host, guest = await world.player("Host"), await world.player("Guest")
    invited = await world.invitations.invite(
        host, options=RuleOptions(), expires_in=timedelta(minutes=5)
    )
    assert invited.match.invite_code is not None
    world.clock.now += timedelta(minutes=5)
    with pytest.raises(InviteExpired):
        await world.invitations.accept(guest, invited.match.invite_code)
    record = await world.matches.match(invited.match.match_id)
    assert not record.full
    assert await world.players.seat_of(guest.player_id, invited.match.match_id) is None


async def test_an_invite_to_nobody_or_oneself_is_refused(world: World) -> None:
    host = await world.player("Host")
    for to_player in ("00000000-0000-0000-0000-000000000000", host.player_id):
        with pytest.raises(PlayerNotFound):
            await world.invitations.invite(host, options=RuleOptions(), to_players=[to_player])


@pytest.mark.parametrize("seats", [2, 3, 4])
async def test_an_invite_names_a_player_for_each_open_seat_and_each_takes_only_theirs(
    world: World, seats: int
) -> None:
    host, other = await world.player("Host"), await world.player("Other")
    guests = [await world.player(f"Guest {seat}") for seat in range(1, seats)]
    invited = await world.invitations.invite(
        host, options=RuleOptions(), players=seats, to_players=[g.player_id for g in guests]
    )
    codes = invited.match.invite_codes
    assert sorted(codes) == list(range(1, seats))
    assert await world.players.notices(other.player_id, after=0, limit=10) == []
    for seat, guest in enumerate(guests, 1):
        (notice,) = await world.players.notices(guest.player_id, after=0, limit=10)
        assert notice.kind == "invitation_received"
        assert codes[seat].encode() in notice.payload
        assert all(code.encode() not in notice.payload for s, code in codes.items() if s != seat)
        with pytest.raises(InviteNotForYou):
            await world.invitations.accept(other, codes[seat])
    for seat, guest in reversed(list(enumerate(guests, 1))):
        seated = await world.invitations.accept(guest, codes[seat])
        assert (seated.match_id, seated.seat) == (invited.match.match_id, seat)
    assert (await world.matches.match(invited.match.match_id)).full


@pytest.mark.parametrize("seats", [2, 3, 4])
async def test_an_invite_for_more_seats_than_the_table_has_changes_nothing(
    world: World, seats: int
) -> None:
    host = await world.player("Host")
    guests = [(await world.player(f"G{seat}")).player_id for seat in range(seats)]
    with pytest.raises(InvalidParameter):
        await world.invitations.invite(
            host, options=RuleOptions(), players=seats, to_players=guests
        )
    with pytest.raises(InvalidParameter):
        await world.invitations.invite(
            host, options=RuleOptions(), players=seats, to_players=[guests[0]] * 2
        )


@pytest.mark.parametrize("seats", [2, 3, 4])
async def test_a_rematch_follows_a_finished_match_and_only_its_other_players_accept(
    world: World, seats: int
) -> None:
    host, other = await world.player("Host"), await world.player("Other")
    guests = [await world.player(f"Guest {seat}") for seat in range(1, seats)]
    options = RuleOptions(game_target=1, match_target=0)
    first = await world.invitations.invite(
        host, options=options, players=seats, to_players=[g.player_id for g in guests]
    )
    for seat, guest in enumerate(guests, 1):
        await world.invitations.accept(guest, first.match.invite_codes[seat])
    match_id = first.match.match_id
    with pytest.raises(RematchNotAvailable):
        await world.invitations.rematch(host, match_id)  # not finished yet
    with pytest.raises(WrongToken):
        await world.invitations.rematch(other, match_id)
    await finish(world, match_id)

    asker = guests[0]
    offer = await world.invitations.rematch(asker, match_id)

    assert offer.rematch_of == match_id
    # The asker takes seat 0; the others follow in their old order.
    assert offer.to_players == {
        seat: player.player_id for seat, player in enumerate([host, *guests[1:]], 1)
    }
    for seat, player_id in offer.to_players.items():
        assert player_id is not None
        notices = await world.players.notices(player_id, after=0, limit=10)
        assert notices[-1].kind == "rematch_offered"
        code = offer.match.invite_codes[seat]
        with pytest.raises(InviteNotForYou):
            await world.invitations.accept(other, code)
        invited = await world.players.get(player_id)
        assert invited is not None
        seated = await world.invitations.accept(invited, code)
        assert (seated.match_id, seated.seat) == (offer.match.match_id, seat)
    record = await world.matches.match(offer.match.match_id)
    assert record.full
    assert len(record.seats) == seats
    loaded = await world.matches.load(record)
    assert loaded.state.options == options
    assert loaded.state.cut is not None  # the rematch cuts for its first dealer, as any match


async def test_a_rematch_keeps_the_bots_where_they_played(world: World) -> None:
    host, guest = await world.player("Host"), await world.player("Guest")
    options = RuleOptions(game_target=1, match_target=0)
    created = await world.accounts.create_match(
        host, options=options, players=3, bots=[None, None, "random"]
    )
    await world.invitations.accept(guest, created.invite_codes[1])
    await finish(world, created.match_id)

    offer = await world.invitations.rematch(host, created.match_id)

    assert offer.to_players == {1: guest.player_id}
    record = await world.matches.match(offer.match.match_id)
    assert [seat.bot for seat in record.seats] == [None, None, "random"]


async def finish(world: World, match_id: str) -> None:
    """Play the match to its end with the simple bot in every seat (no bot runner serves
    these use cases: bots' seats are played here too)."""
    bot = SimpleBot()
    record = await world.matches.match(match_id)
    rules = world.matches.rules_for(record)
    loaded = await world.matches.load(record)
    while not rules.over(loaded.state):
        seat = next(s for s in range(len(record.seats)) if rules.awaits(loaded.state, s))
        command = bot.choose(rules.bot_view(loaded.state, seat))
        assert isinstance(command, SeatCommand)
        loaded = await world.matches.handle(record, seat, CommandRequest(as_seat(command, seat)))


async def test_an_invites_life_is_the_configured_default_and_at_most_the_maximum() -> None:
    world = World(PlayerTimes(invite_seconds=600, invite_max_seconds=3600))
    host, guest = await world.player("Host"), await world.player("Guest")
    now = world.clock.now
    unnamed = await world.invitations.invite(host, options=RuleOptions())
    assert unnamed.expires_at == now + timedelta(seconds=600)
    too_long = await world.invitations.invite(
        host, options=RuleOptions(), expires_in=timedelta(days=2)
    )
    assert too_long.expires_at == now + timedelta(seconds=3600)
    assert too_long.match.invite_code is not None
    world.clock.now += timedelta(seconds=3600)
    with pytest.raises(InviteExpired):
        await world.invitations.accept(guest, too_long.match.invite_code)
