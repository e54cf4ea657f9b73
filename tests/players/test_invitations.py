"""Invites and rematches as use cases, on the in-memory adapters with a clock the test moves:
an invite refused for its expiry or its recipient changes nothing."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from adapters.memory.event_store import InMemoryEventStore
from adapters.memory.match_registry import InMemoryMatchRegistry
from adapters.memory.player_invites import InMemoryPlayerInvites
from adapters.memory.players import InMemoryPlayers
from domain import Phase, RuleOptions, view
from domain.commands import SeatCommand
from service.bots.simple import SimpleBot
from service.errors import (
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
    invited = await world.invitations.invite(host, options=RuleOptions(), to_player=guest.player_id)
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
            await world.invitations.invite(host, options=RuleOptions(), to_player=to_player)


async def test_a_rematch_follows_a_finished_match_and_only_its_opponent_accepts(
    world: World,
) -> None:
    host, guest, other = [await world.player(n) for n in ("Host", "Guest", "Other")]
    options = RuleOptions(game_target=1, match_target=0)
    first = await world.invitations.invite(host, options=options, to_player=guest.player_id)
    assert first.match.invite_code is not None
    await world.invitations.accept(guest, first.match.invite_code)
    match_id = first.match.match_id
    with pytest.raises(RematchNotAvailable):
        await world.invitations.rematch(host, match_id)  # not finished yet
    with pytest.raises(WrongToken):
        await world.invitations.rematch(other, match_id)
    await finish(world, match_id)
    offer = await world.invitations.rematch(guest, match_id)
    assert offer.rematch_of == match_id
    assert offer.to_player == host.player_id
    assert offer.match.invite_code is not None
    notices = await world.players.notices(host.player_id, after=0, limit=10)
    assert notices[-1].kind == "rematch_offered"
    with pytest.raises(InviteNotForYou):
        await world.invitations.accept(other, offer.match.invite_code)
    seated = await world.invitations.accept(host, offer.match.invite_code)
    assert seated.match_id != match_id
    loaded = await world.matches.load(seated.match_id)
    assert loaded.state.options == options
    assert loaded.state.dealer is None  # the rematch cuts for its first dealer, as any match


async def finish(world: World, match_id: str) -> None:
    """Play the match to its end with the simple bot in both seats."""
    bot = SimpleBot()
    record = await world.matches.match(match_id)
    loaded = await world.matches.load(record)
    while loaded.state.turn is not None:
        command = bot.choose(view(loaded.state, loaded.state.turn))
        assert isinstance(command, SeatCommand)
        loaded = await world.matches.handle(record, loaded.state.turn, CommandRequest(command))
    assert loaded.state.phase is Phase.MATCH_OVER


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
