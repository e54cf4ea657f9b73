"""The contract of the sessions and identities ports, for the PostgreSQL and the in-memory
adapters alike."""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from datetime import timedelta

import pytest

from adapters.memory.identities import InMemoryIdentities
from adapters.memory.match_registry import InMemoryMatchRegistry
from adapters.memory.players import InMemoryPlayers
from adapters.memory.sessions import InMemorySessions
from adapters.postgres.event_store import open_pool
from adapters.postgres.identities import PostgresIdentities
from adapters.postgres.players import PostgresPlayers
from adapters.postgres.sessions import PostgresSessions
from service.matches.tokens import secret_hash
from service.ports.identities import DuplicateIdentity, Identity, IdentityStore
from service.ports.players import PlayerStore
from service.ports.sessions import NewSession, Refreshed, Rotation, SessionStore
from tests.app_login import as_app
from tests.contract.conftest import ADAPTERS, MovableClock

ACCESS = timedelta(minutes=15)
REFRESH = timedelta(days=30)


@dataclass(frozen=True)
class Accounts:
    players: PlayerStore
    sessions: SessionStore
    identities: IdentityStore
    age: Callable[[timedelta], Awaitable[None]]  # make every session older


@pytest.fixture(params=ADAPTERS)
async def accounts(request: pytest.FixtureRequest) -> AsyncIterator[Accounts]:
    if request.param == "memory":
        clock = MovableClock()
        players = InMemoryPlayers(InMemoryMatchRegistry(), clock=clock)

        async def later(by: timedelta) -> None:
            clock.now += by

        yield Accounts(players, InMemorySessions(players, clock), InMemoryIdentities(clock), later)
    else:
        url: str = request.getfixturevalue("fresh_database_url")
        async with open_pool(as_app(url), max_size=5) as pool, open_pool(url, max_size=1) as owner:
            pg_players = PostgresPlayers(pool)

            async def backdate(by: timedelta) -> None:
                # The database's clock cannot be moved on; its sessions can be made older.
                async with owner.connection() as conn:
                    await conn.execute(
                        "UPDATE account_sessions SET access_expires_at = access_expires_at - %s,"
                        " refresh_expires_at = refresh_expires_at - %s",
                        (by, by),
                    )

            yield Accounts(pg_players, PostgresSessions(pool), PostgresIdentities(pool), backdate)
            await pg_players.close()


def new_id() -> str:
    return str(uuid.uuid4())


def h(name: str) -> bytes:
    return secret_hash(name)


async def new_player(accounts: Accounts, name: str = "Ada") -> str:
    player_id = new_id()
    await accounts.players.create(player_id, name, h(f"credential {player_id}"))
    return player_id


async def start(accounts: Accounts, player_id: str, name: str) -> str:
    session_id = new_id()
    await accounts.sessions.start(
        NewSession(
            session_id=session_id,
            player_id=player_id,
            access_hash=h(f"access {name}"),
            access_lifetime=ACCESS,
            refresh_hash=h(f"refresh {name}"),
            refresh_lifetime=REFRESH,
            signed_in_with="device",
        )
    )
    return session_id


def rotation(name: str) -> Rotation:
    return Rotation(
        access_hash=h(f"access {name}"),
        access_lifetime=ACCESS,
        refresh_hash=h(f"refresh {name}"),
        refresh_lifetime=REFRESH,
    )


async def test_an_access_token_names_its_player_and_session(accounts: Accounts) -> None:
    ada = await new_player(accounts, "Ada")
    session = await start(accounts, ada, "phone")

    holder = await accounts.sessions.holder(h("access phone"))

    assert holder is not None
    assert (holder.player.player_id, holder.player.display_name) == (ada, "Ada")
    assert (holder.session_id, holder.expired) == (session, False)
    assert await accounts.sessions.holder(h("access never issued")) is None


async def test_an_outlived_access_token_is_expired(accounts: Accounts) -> None:
    ada = await new_player(accounts)
    await start(accounts, ada, "phone")
    await accounts.age(ACCESS + timedelta(seconds=1))

    holder = await accounts.sessions.holder(h("access phone"))

    assert holder is not None
    assert holder.expired


async def test_a_refresh_replaces_both_tokens(accounts: Accounts) -> None:
    ada = await new_player(accounts)
    session = await start(accounts, ada, "phone")

    assert await accounts.sessions.refresh(h("refresh phone"), rotation("phone 2")) == Refreshed(
        session, ada
    )

    assert await accounts.sessions.holder(h("access phone")) is None
    fresh = await accounts.sessions.holder(h("access phone 2"))
    assert fresh is not None
    assert fresh.session_id == session
    again = await accounts.sessions.refresh(h("refresh phone 2"), rotation("phone 3"))
    assert again == Refreshed(session, ada)


async def test_a_refresh_token_used_twice_revokes_its_family(accounts: Accounts) -> None:
    ada = await new_player(accounts)
    session = await start(accounts, ada, "phone")
    other = await start(accounts, ada, "tablet")
    await accounts.sessions.refresh(h("refresh phone"), rotation("phone 2"))

    # The stolen copy of the first refresh token comes back after the real client refreshed.
    assert await accounts.sessions.refresh(h("refresh phone"), rotation("thief")) == "reused"

    assert await accounts.sessions.holder(h("access phone 2")) is None
    assert await accounts.sessions.holder(h("access thief")) is None
    assert await accounts.sessions.refresh(h("refresh phone 2"), rotation("x")) == "revoked"
    assert [s.session_id for s in await accounts.sessions.live(ada)] == [other]
    assert session != other


async def test_one_refresh_token_refreshed_twice_at_once_is_traded_once(
    accounts: Accounts,
) -> None:
    ada = await new_player(accounts)
    await start(accounts, ada, "phone")

    outcomes = await asyncio.gather(
        *(accounts.sessions.refresh(h("refresh phone"), rotation(f"race {n}")) for n in range(4))
    )

    assert sum(isinstance(outcome, Refreshed) for outcome in outcomes) == 1
    assert all(o == "reused" for o in outcomes if not isinstance(o, Refreshed))


async def test_unknown_and_expired_refresh_tokens_are_refused(accounts: Accounts) -> None:
    ada = await new_player(accounts)
    await start(accounts, ada, "phone")

    assert await accounts.sessions.refresh(h("refresh nobody"), rotation("x")) == "unknown"
    await accounts.age(REFRESH + timedelta(seconds=1))
    assert await accounts.sessions.refresh(h("refresh phone"), rotation("y")) == "expired"
    assert await accounts.sessions.live(ada) == []


async def test_sign_out_of_one_device_or_of_all(accounts: Accounts) -> None:
    ada, bob = await new_player(accounts, "Ada"), await new_player(accounts, "Bob")
    phone = await start(accounts, ada, "phone")
    tablet = await start(accounts, ada, "tablet")
    laptop = await start(accounts, ada, "laptop")
    bobs = await start(accounts, bob, "bob")

    assert not await accounts.sessions.revoke(bob, phone)  # not Bob's to end
    assert await accounts.sessions.revoke(ada, phone)
    assert not await accounts.sessions.revoke(ada, phone)
    assert await accounts.sessions.holder(h("access phone")) is None
    assert await accounts.sessions.refresh(h("refresh phone"), rotation("p")) == "revoked"
    assert [s.session_id for s in await accounts.sessions.live(ada)] == [tablet, laptop]

    assert await accounts.sessions.revoke_all(ada) == 2
    assert await accounts.sessions.live(ada) == []
    assert await accounts.sessions.holder(h("access tablet")) is None
    assert [s.session_id for s in await accounts.sessions.live(bob)] == [bobs]


def device(player_id: str, device_id: str) -> Identity:
    return Identity(
        identity_id=new_id(),
        player_id=player_id,
        kind="device",
        issuer="",
        subject=device_id,
        secret_hash=h(f"secret {device_id}"),
    )


def provider(player_id: str, subject: str, issuer: str = "https://id.example") -> Identity:
    return Identity(
        identity_id=new_id(), player_id=player_id, kind="oidc", issuer=issuer, subject=subject
    )


async def test_an_identity_belongs_to_one_player(accounts: Accounts) -> None:
    ada, bob = await new_player(accounts, "Ada"), await new_player(accounts, "Bob")
    kept = await accounts.identities.add(provider(ada, "sub-1"))

    assert kept.created_at is not None
    assert await accounts.identities.find("oidc", "https://id.example", "sub-1") == kept
    assert await accounts.identities.find("oidc", "https://other.example", "sub-1") is None
    assert await accounts.identities.find("device", "https://id.example", "sub-1") is None
    with pytest.raises(DuplicateIdentity):
        await accounts.identities.add(provider(bob, "sub-1"))
    await accounts.identities.add(provider(bob, "sub-1", issuer="https://other.example"))
    found = await accounts.identities.find("device", "", "phone")
    assert found is None
    phone = await accounts.identities.add(device(ada, "phone"))
    assert phone.secret_hash == h("secret phone")
    assert [i.identity_id for i in await accounts.identities.of_player(ada)] == [
        kept.identity_id,
        phone.identity_id,
    ]


async def test_a_players_last_identity_stays(accounts: Accounts) -> None:
    ada, bob = await new_player(accounts, "Ada"), await new_player(accounts, "Bob")
    first = await accounts.identities.add(provider(ada, "sub-1"))
    second = await accounts.identities.add(device(ada, "phone"))
    bobs = await accounts.identities.add(device(bob, "bobs phone"))

    assert await accounts.identities.remove(ada, bobs.identity_id) == "unknown"
    assert await accounts.identities.remove(ada, new_id()) == "unknown"
    assert await accounts.identities.remove(ada, first.identity_id) == "removed"
    assert await accounts.identities.remove(ada, second.identity_id) == "last"
    assert [i.identity_id for i in await accounts.identities.of_player(ada)] == [second.identity_id]


async def test_two_removals_at_once_leave_one_identity(accounts: Accounts) -> None:
    ada = await new_player(accounts)
    first = await accounts.identities.add(provider(ada, "sub-1"))
    second = await accounts.identities.add(device(ada, "phone"))

    outcomes = await asyncio.gather(
        accounts.identities.remove(ada, first.identity_id),
        accounts.identities.remove(ada, second.identity_id),
    )

    assert sorted(outcomes) == ["last", "removed"]
    assert len(await accounts.identities.of_player(ada)) == 1
