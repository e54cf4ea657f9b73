"""Devices and linked identities over HTTP: a device keeps its account with its secret and never
with its id alone; an app that lost its secret gets in through a linked identity; an account's
ways in are linked and unlinked with its session, never down to none.

The identity provider is a real one on a loopback port (``oidc_provider``); every refusal is a
problem of its own kind that repeats nothing the token held."""

from __future__ import annotations

import asyncio
import secrets
import uuid

from tests.accounts.http import (
    device,
    me,
    session_of,
    subject,
    with_issuer,
)
from tests.accounts.oidc_provider import Provider
from tests.api.accounts import sign_up
from tests.api.conftest import Asgi, served
from tests.api.players import bearer
from tests.api.problems import assert_problem


async def test_a_device_keeps_its_account_and_a_device_id_alone_never_signs_in(
    asgi: Asgi, database_url: str, provider: Provider
) -> None:
    device_id, secret = f"device-{uuid.uuid4()}", secrets.token_urlsafe(32)
    first = await device(asgi, device_id, secret, "Phone")
    assert first.status_code == 201, first.text
    assert first.json()["new_player"]
    # The app restarts (a server restart too): the kept secret finds the account.
    async with served(database_url, with_issuer(database_url, provider)) as restarted:
        again = await restarted.client.post(
            "/sessions/device", json={"device_id": device_id, "device_secret": secret}
        )
    assert again.status_code == 201, again.text
    assert again.json()["player_id"] == first.json()["player_id"]
    assert not again.json()["new_player"]

    for guess in [secrets.token_urlsafe(32), secret[:-1] + ("A" if secret[-1] != "A" else "B")]:
        refused = await device(asgi, device_id, guess)
        problem = assert_problem(refused, 401, "wrong-device-secret")
        assert device_id not in str(problem)
        assert guess not in str(problem)
    assert_problem(
        await asgi.client.post("/sessions/device", json={"device_id": device_id}),
        422,
        "invalid-request",
    )
    short = await device(asgi, device_id, "too short")
    assert_problem(short, 422, "invalid-request")


async def test_an_app_that_lost_its_device_secret_gets_in_through_a_linked_identity(
    asgi: Asgi, provider: Provider
) -> None:
    device_id, secret = f"device-{uuid.uuid4()}", secrets.token_urlsafe(32)
    phone = (await device(asgi, device_id, secret)).json()
    who = subject()
    linked = await asgi.client.post(
        "/players/me/identities/oidc", json={"id_token": provider.id_token(who)}, headers=me(phone)
    )
    assert linked.status_code == 201, linked.text
    assert linked.json()["kind"] == "oidc"

    # Reinstalled: the secret is gone, a new one is made; the device id alone opens nothing.
    new_secret = secrets.token_urlsafe(32)
    assert_problem(await device(asgi, device_id, new_secret), 401, "wrong-device-secret")
    back = await session_of(asgi, provider.id_token(who))
    assert back["player_id"] == phone["player_id"]
    assert not back["new_player"]
    # Back in, the app replaces the lost device's identity with the new secret.
    listed = (await asgi.client.get("/players/me/identities", headers=me(back))).json()
    old = next(i for i in listed["identities"] if i["kind"] == "device")
    assert old["subject"] == device_id
    assert "secret" not in str(old)
    removed = await asgi.client.delete(
        f"/players/me/identities/{old['identity_id']}", headers=me(back)
    )
    assert removed.status_code == 204, removed.text
    relinked = await asgi.client.post(
        "/players/me/identities/device",
        json={"device_id": device_id, "device_secret": new_secret},
        headers=me(back),
    )
    assert relinked.status_code == 201, relinked.text
    again = await device(asgi, device_id, new_secret)
    assert again.status_code == 201, again.text
    assert again.json()["player_id"] == phone["player_id"]


async def test_linking_adds_ways_in_and_never_removes_the_last(
    asgi: Asgi, provider: Provider
) -> None:
    host = await sign_up(asgi.client, "Host")
    session = (
        await asgi.client.post("/sessions/credential", headers=bearer(host["credential"]))
    ).json()
    who = subject()
    # Linking takes the account's session, not the credential.
    assert_problem(
        await asgi.client.post(
            "/players/me/identities/oidc",
            json={"id_token": provider.id_token(who)},
            headers=bearer(host["credential"]),
        ),
        401,
        "session-required",
    )
    linked = await asgi.client.post(
        "/players/me/identities/oidc",
        json={"id_token": provider.id_token(who)},
        headers=me(session),
    )
    assert linked.status_code == 201, linked.text
    assert linked.json()["issuer"] == provider.issuer
    assert linked.json()["subject"] == who
    by_provider = await session_of(asgi, provider.id_token(who))
    assert by_provider["player_id"] == host["player_id"]

    # The same identity cannot sign in a second player.
    other = await session_of(asgi, provider.id_token(subject()))
    taken = await asgi.client.post(
        "/players/me/identities/oidc", json={"id_token": provider.id_token(who)}, headers=me(other)
    )
    assert_problem(taken, 409, "identity-taken")

    listed = (await asgi.client.get("/players/me/identities", headers=me(session))).json()
    [only] = listed["identities"]
    last = await asgi.client.delete(
        f"/players/me/identities/{only['identity_id']}", headers=me(session)
    )
    assert_problem(last, 409, "last-identity")
    unknown = await asgi.client.delete(
        f"/players/me/identities/{uuid.uuid4()}", headers=me(session)
    )
    assert_problem(unknown, 404, "identity-not-found")
    theirs = (await asgi.client.get("/players/me/identities", headers=me(other))).json()
    not_mine = theirs["identities"][0]["identity_id"]
    refused = await asgi.client.delete(f"/players/me/identities/{not_mine}", headers=me(session))
    assert_problem(refused, 404, "identity-not-found")


async def test_a_device_id_claimed_with_two_secrets_at_once_keeps_one(asgi: Asgi) -> None:
    device_id = f"device-{uuid.uuid4()}"
    tried = [secrets.token_urlsafe(32) for _ in range(2)]

    answers = await asyncio.gather(*(device(asgi, device_id, secret) for secret in tried))

    statuses = sorted(answer.status_code for answer in answers)
    assert statuses == [201, 401]
    winner = tried[[answer.status_code for answer in answers].index(201)]
    again = await device(asgi, device_id, winner)
    assert again.status_code == 201, again.text
    assert again.json()["player_id"] == next(
        a.json()["player_id"] for a in answers if a.status_code == 201
    )
