"""A webhook's secret rotated with an overlap, for the news of a match of every table size:
during the overlap each delivery is signed by both secrets (a receiver verifies with either),
and with no overlap the old secret stops signing at once."""

from __future__ import annotations

import uuid

import pytest
from standardwebhooks import Webhook, WebhookVerificationError

from service.tournament.operators import OperatorKeys
from tests.tournament.conftest import new_key
from tests.tournament.play import Client, bearer
from tests.tournament.receiver import Received, running_receiver
from tests.tournament.webhook_helpers import SECRET, eventually

EVERY_SIZE = pytest.mark.parametrize("seats", [2, 3, 4])
SCOPES = ("matches:create", "webhooks:manage")
NEXT_SECRET = "the-next-secret-of-enough-length"
LAST_SECRET = "the-last-secret-of-enough-length"


def verifies(secret: str, request: Received) -> bool:
    try:
        Webhook(secret.encode()).verify(request.body, request.headers)
    except WebhookVerificationError:
        return False
    return True


@EVERY_SIZE
async def test_both_secrets_sign_during_the_overlap_and_only_the_new_one_after(
    client: Client, keys: OperatorKeys, seats: int
) -> None:
    with running_receiver() as receiver:
        key = await new_key(keys, f"Rotation {uuid.uuid4()}", *SCOPES)
        stranger = await new_key(keys, f"Rotation other {uuid.uuid4()}", *SCOPES)
        hook = await client.post(
            "/webhooks",
            json={"url": receiver.url, "secret": SECRET, "events": ["match_created"]},
            headers=bearer(key),
        )
        rotate = f"/webhooks/{hook.json()['webhook_id']}/secret"

        async def delivered_after_a_new_match() -> Received:
            before = len(receiver.requests())
            made = await client.post(
                "/rounds", json={"matches": [{"players": seats}]}, headers=bearer(key)
            )
            assert made.status_code == 201, made.text

            async def arrived() -> bool:
                return len(receiver.requests()) > before

            await eventually(arrived)
            return receiver.requests()[-1]

        theirs = await client.post(rotate, json={}, headers=bearer(stranger))
        overlapping = await client.post(
            rotate, json={"secret": NEXT_SECRET, "overlap_seconds": 3600}, headers=bearer(key)
        )
        during = await delivered_after_a_new_match()
        at_once = await client.post(
            rotate, json={"secret": LAST_SECRET, "overlap_seconds": 0}, headers=bearer(key)
        )
        after = await delivered_after_a_new_match()
        made_one = await client.post(rotate, json={}, headers=bearer(key))

    assert (theirs.status_code, theirs.json()["type"]) == (404, "/problems/webhook-not-found")
    assert overlapping.status_code == 201, overlapping.text
    assert overlapping.json()["secret"] == NEXT_SECRET
    assert verifies(SECRET, during)
    assert verifies(NEXT_SECRET, during)
    assert at_once.status_code == 201, at_once.text
    assert verifies(LAST_SECRET, after)
    assert not verifies(NEXT_SECRET, after)
    assert not verifies(SECRET, after)
    assert made_one.json()["secret"].startswith("whsec_")
