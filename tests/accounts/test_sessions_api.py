"""Sessions over HTTP: from the credential or an identity provider; refreshing, reuse and
signing out; the same player on a second device; an access token opening the player's seats.

The identity provider is a real one on a loopback port (``oidc_provider``); every refusal is a
problem of its own kind that repeats nothing the token held."""

from __future__ import annotations

import asyncio
import secrets
import time
from datetime import timedelta
from typing import Any

import pytest

from adapters.postgres.event_store import open_pool
from tests.accounts.http import (
    Json,
    as_player,
    me,
    oidc,
    refresh,
    session_of,
    subject,
)
from tests.accounts.oidc_provider import HOUR, Provider
from tests.api.accounts import inbox, my_matches, pair, sign_up, until
from tests.api.any_size import EVERY_SIZE
from tests.api.conftest import Asgi
from tests.api.players import ONE_GAME, bearer
from tests.api.problems import assert_problem


async def test_a_provider_sign_in_makes_the_player_once(asgi: Asgi, provider: Provider) -> None:
    who = subject()
    first = await session_of(asgi, provider.id_token(who), "Ada")
    again = await session_of(asgi, provider.id_token(who))

    assert first["new_player"]
    assert not again["new_player"]
    assert first["player_id"] == again["player_id"]
    assert first["session_id"] != again["session_id"]
    assert first["token_type"] == "Bearer"
    assert first["expires_in"] < first["refresh_expires_in"]
    profile = (await asgi.client.get("/players/me", headers=me(again))).json()
    assert (profile["player_id"], profile["display_name"]) == (first["player_id"], "Ada")


async def test_a_second_device_sees_the_same_matches_and_inbox(
    asgi: Asgi, provider: Provider
) -> None:
    who = subject()
    phone = await session_of(asgi, provider.id_token(who), "Ada")
    guest = await sign_up(asgi.client, "Guest")
    match_id = await pair(asgi.client, as_player(phone), guest, ONE_GAME)
    tablet = await session_of(asgi, provider.id_token(who))

    # Each list read once the projector has caught up with the match (it lags the commits).
    version = (await asgi.client.get(f"/matches/{match_id}")).json()["version"]

    async def listed(session: Json) -> Any:
        found = await my_matches(asgi.client, as_player(session))
        now = [(m["match_id"], m["version"]) for m in found["matches"]]
        return found if now == [(match_id, version)] else None

    assert (await until(listed, tablet))["matches"] == (await until(listed, phone))["matches"]
    on_phone = await inbox(asgi.app, phone["access_token"], 1)
    on_tablet = await inbox(asgi.app, tablet["access_token"], 1)
    assert on_tablet == on_phone
    assert on_tablet[0]["data"]["match_id"] == match_id
    view = await asgi.client.get(f"/matches/{match_id}/view", headers=me(tablet))
    assert view.status_code == 200, view.text
    assert view.json()["seat"] == 0


@EVERY_SIZE
async def test_an_access_token_opens_the_players_seat_and_no_other(
    asgi: Asgi, provider: Provider, seats: int
) -> None:
    sessions = [await session_of(asgi, provider.id_token(subject())) for _ in range(seats)]
    if seats == 2:
        match_id = await pair(asgi.client, as_player(sessions[0]), as_player(sessions[1]))
        held = dict(enumerate(sessions))
    else:
        # At most all but one seat are invited: seat 0 is a bot's.
        made = await asgi.client.post(
            "/matches",
            json={
                "players": seats,
                "options": ONE_GAME,
                "bots": ["random"] + [None] * (seats - 1),
                "invite_seats": list(range(1, seats)),
            },
        )
        assert made.status_code == 201, made.text
        match_id = made.json()["match_id"]
        held = {invite["seat"]: sessions[invite["seat"]] for invite in made.json()["invites"]}
        for invite in made.json()["invites"]:
            joined = await asgi.client.post(
                "/players/me/join",
                json={"invite_code": invite["invite_code"]},
                headers=me(held[invite["seat"]]),
            )
            assert joined.status_code == 201, joined.text
    for seat, session in held.items():
        view = await asgi.client.get(f"/matches/{match_id}/view", headers=me(session))
        assert view.status_code == 200, view.text
        assert view.json()["seat"] == seat
    outsider = await session_of(asgi, provider.id_token(subject()))
    refused = await asgi.client.get(f"/matches/{match_id}/view", headers=me(outsider))
    assert_problem(refused, 403, "wrong-token")


async def test_a_refresh_rotates_both_tokens(asgi: Asgi, provider: Provider) -> None:
    first = await session_of(asgi, provider.id_token(subject()))

    response = await refresh(asgi, first["refresh_token"])

    assert response.status_code == 200, response.text
    second = response.json()
    assert second["session_id"] == first["session_id"]
    assert {second["access_token"], second["refresh_token"]}.isdisjoint(
        {first["access_token"], first["refresh_token"]}
    )
    assert_problem(await asgi.client.get("/players/me", headers=me(first)), 401, "wrong-credential")
    assert (await asgi.client.get("/players/me", headers=me(second))).status_code == 200


async def test_a_stolen_refresh_token_used_after_the_real_client_refreshed_revokes_the_family(
    asgi: Asgi, provider: Provider
) -> None:
    first = await session_of(asgi, provider.id_token(subject()))
    stolen = first["refresh_token"]
    real = (await refresh(asgi, first["refresh_token"])).json()

    replayed = await refresh(asgi, stolen)

    problem = assert_problem(replayed, 401, "refresh-token-reused")
    assert stolen not in str(problem)
    assert_problem(await refresh(asgi, real["refresh_token"]), 401, "session-revoked")
    assert_problem(await asgi.client.get("/players/me", headers=me(real)), 401, "wrong-credential")
    # A session signed in elsewhere is not of this family: it goes on.


async def test_refresh_tokens_the_service_never_issued_are_refused(asgi: Asgi) -> None:
    for token in ["gpr_" + secrets.token_urlsafe(32), "xyzzy-made-up", "gpa_xyzzy"]:
        problem = assert_problem(await refresh(asgi, token), 401, "refresh-token-unknown")
        assert token not in str(problem)


async def test_an_expired_access_token_says_so_and_a_refresh_mends_it(
    asgi: Asgi, database_url: str, provider: Provider
) -> None:
    session = await session_of(asgi, provider.id_token(subject()))
    async with open_pool(database_url, max_size=1) as owner, owner.connection() as conn:
        # The database's clock cannot be moved on; the session can be made older.
        await conn.execute(
            "UPDATE account_sessions SET access_expires_at = now() - %s WHERE session_id = %s",
            (timedelta(seconds=1), session["session_id"]),
        )

    assert_problem(
        await asgi.client.get("/players/me", headers=me(session)), 401, "access-token-expired"
    )
    fresh = (await refresh(asgi, session["refresh_token"])).json()
    assert (await asgi.client.get("/players/me", headers=me(fresh))).status_code == 200


async def test_an_expired_refresh_token_says_so(
    asgi: Asgi, database_url: str, provider: Provider
) -> None:
    session = await session_of(asgi, provider.id_token(subject()))
    async with open_pool(database_url, max_size=1) as owner, owner.connection() as conn:
        await conn.execute(
            "UPDATE account_sessions SET refresh_expires_at = now() - %s WHERE session_id = %s",
            (timedelta(seconds=1), session["session_id"]),
        )

    assert_problem(await refresh(asgi, session["refresh_token"]), 401, "refresh-token-expired")


async def test_sign_out_of_one_device_and_of_every_device(asgi: Asgi, provider: Provider) -> None:
    who = subject()
    phone, tablet, laptop = [await session_of(asgi, provider.id_token(who)) for _ in range(3)]

    listed = (await asgi.client.get("/sessions", headers=me(phone))).json()["sessions"]
    assert [s["session_id"] for s in listed] == [s["session_id"] for s in (phone, tablet, laptop)]
    assert [s["current"] for s in listed] == [True, False, False]
    assert (await asgi.client.delete("/sessions/current", headers=me(tablet))).status_code == 204
    assert_problem(
        await asgi.client.get("/players/me", headers=me(tablet)), 401, "wrong-credential"
    )
    assert_problem(await refresh(asgi, tablet["refresh_token"]), 401, "session-revoked")
    assert (await asgi.client.get("/players/me", headers=me(phone))).status_code == 200
    ended = await asgi.client.delete(f"/sessions/{laptop['session_id']}", headers=me(phone))
    assert ended.status_code == 204
    assert_problem(
        await asgi.client.delete(f"/sessions/{laptop['session_id']}", headers=me(phone)),
        404,
        "session-not-found",
    )
    assert_problem(
        await asgi.client.get("/players/me", headers=me(laptop)), 401, "wrong-credential"
    )

    again = await session_of(asgi, provider.id_token(who))
    everywhere = await asgi.client.post("/sessions/sign-out-everywhere", headers=me(phone))
    assert everywhere.json() == {"signed_out": 2}
    for session in (phone, again):
        assert_problem(
            await asgi.client.get("/players/me", headers=me(session)), 401, "wrong-credential"
        )


async def test_anothers_session_cannot_be_signed_out(asgi: Asgi, provider: Provider) -> None:
    mine = await session_of(asgi, provider.id_token(subject()))
    theirs = await session_of(asgi, provider.id_token(subject()))

    refused = await asgi.client.delete(f"/sessions/{theirs['session_id']}", headers=me(mine))

    assert_problem(refused, 404, "session-not-found")
    assert (await asgi.client.get("/players/me", headers=me(theirs))).status_code == 200


async def test_the_credential_and_seat_tokens_keep_working_beside_sessions(
    asgi: Asgi, provider: Provider
) -> None:
    host, guest = await sign_up(asgi.client, "Host"), await sign_up(asgi.client, "Guest")
    match_id = await pair(asgi.client, host, guest, ONE_GAME)
    created = await asgi.client.post("/sessions/credential", headers=bearer(host["credential"]))
    assert created.status_code == 201, created.text
    session = created.json()
    assert session["player_id"] == host["player_id"]
    assert not session["new_player"]

    for headers in (bearer(host["credential"]), me(session)):
        view = await asgi.client.get(f"/matches/{match_id}/view", headers=headers)
        assert view.status_code == 200, view.text
        assert view.json()["seat"] == 0
    assert (
        await asgi.client.get("/players/me", headers=bearer(host["credential"]))
    ).status_code == 200
    assert_problem(
        await asgi.client.post("/sessions/credential", headers=bearer("gpc_" + "x" * 43)),
        401,
        "wrong-credential",
    )
    # A session is never started with an access token: a stolen one would outlive its minutes.
    assert_problem(
        await asgi.client.post("/sessions/credential", headers=me(session)), 401, "wrong-credential"
    )
    # The credential is replaced with itself, never with a session's token.
    assert_problem(
        await asgi.client.post("/players/me/credential", headers=me(session)),
        401,
        "wrong-credential",
    )


@pytest.mark.parametrize(
    ("attack", "kind"),
    [
        ("alg_none", "invalid-id-token"),
        ("hmac_with_public_key", "invalid-id-token"),
        ("wrong_audience", "id-token-wrong-audience"),
        ("expired", "id-token-expired"),
        ("another_issuer", "unknown-issuer"),
        ("signed_by_another_issuer", "invalid-id-token"),
    ],
)
async def test_each_attack_on_sign_in_is_refused_with_its_own_kind_and_makes_nobody(
    asgi: Asgi, provider: Provider, stranger: Provider, attack: str, kind: str
) -> None:
    who = subject()
    now = int(time.time())
    token = {
        "alg_none": lambda: provider.unsigned_token(who),
        "hmac_with_public_key": lambda: provider.hmac_with_public_key(who),
        "wrong_audience": lambda: provider.id_token(who, aud="another-app"),
        "expired": lambda: provider.id_token(who, iat=now - 3 * HOUR, exp=now - HOUR),
        "another_issuer": lambda: stranger.id_token(who),
        "signed_by_another_issuer": lambda: stranger.id_token(who, iss=provider.issuer),
    }[attack]()

    refused = await oidc(asgi, token)

    problem = assert_problem(refused, 401, kind)
    assert who not in refused.text
    assert token not in refused.text
    assert stranger.issuer not in refused.text
    assert "another-app" not in refused.text
    assert problem["instance"] == "/sessions/oidc"
    made = await session_of(asgi, provider.id_token(who))
    assert made["new_player"]  # the refused sign-in made no player


async def test_first_sign_ins_at_once_make_one_player(asgi: Asgi, provider: Provider) -> None:
    token = provider.id_token(subject())

    answers = await asyncio.gather(*(oidc(asgi, token) for _ in range(4)))

    assert [answer.status_code for answer in answers] == [201] * 4
    assert len({answer.json()["player_id"] for answer in answers}) == 1
    assert len({answer.json()["session_id"] for answer in answers}) == 4
