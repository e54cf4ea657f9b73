"""Endings other than play over HTTP and webhooks: ``match_end`` is delivered for a
``match_ended`` event with its reason, and a match left idle while no server ran is abandoned
by the first server to start, and said so everywhere."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from litestar.testing import AsyncTestClient

from service.tournament.operators import OperatorKeys
from tests.app_login import as_app
from tests.tournament.conftest import FAST_WEBHOOKS, running_app
from tests.tournament.play import Client, Json, create_table
from tests.tournament.receiver import Receiver, running_receiver
from tests.tournament.webhook_helpers import deliveries, eventually, operator_with_webhook
from web.app import create_app
from web.settings import Settings

ABANDONED = {"reason": "abandoned", "seat": None, "winner": None, "note": None}


def match_ends(receiver: Receiver) -> list[Json]:
    payloads = [json.loads(request.body) for request in receiver.requests()]
    return [payload for payload in payloads if payload["kind"] == "match_end"]


async def test_match_end_is_delivered_for_a_match_ended_event_with_its_reason(
    client: Client, keys: OperatorKeys
) -> None:
    with running_receiver() as receiver:
        key, webhook_id = await operator_with_webhook(
            client, keys, receiver.url, "Resignations", events=["match_end"]
        )
        table = await create_table(client, operator_key=key)
        resigned = await client.post(
            f"/matches/{table.match_id}/commands", json={"type": "resign"}, headers=table.headers(1)
        )
        assert resigned.status_code == 200, resigned.text

        async def delivered() -> bool:
            found = await deliveries(client, key, webhook_id)
            return len(found) == 1 and found[0]["status"] == "delivered"

        await eventually(delivered)
        [end] = match_ends(receiver)
    assert (end["match_id"], end["reason"]) == (table.match_id, "resigned")
    assert end["event"]["type"] == "match_ended"
    assert (end["event"]["reason"], end["event"]["seat"], end["event"]["winner"]) == (
        "resigned",
        1,
        0,
    )


@asynccontextmanager
async def abandoning_app(database_url: str) -> AsyncIterator[Client]:
    """A server whose limit is a thousandth of a second: every match left before it started
    is idle by the time it sweeps, on start."""
    settings = Settings(
        database_url=as_app(database_url),
        pool_max_size=20,
        webhooks=FAST_WEBHOOKS,
        abandon_after_seconds=0.001,
    )
    async with AsyncTestClient(app=create_app(settings)) as client:
        yield client


async def test_a_match_idle_while_no_server_ran_is_abandoned_on_start_and_told_everywhere(
    database_url: str, keys: OperatorKeys
) -> None:
    with running_receiver() as receiver:
        async with running_app(database_url) as before:
            key, webhook_id = await operator_with_webhook(
                before, keys, receiver.url, "Idle tables", events=["match_end"]
            )
            table = await create_table(before, operator_key=key)
            made = await before.post("/matches", json={"invite": True})
            assert made.status_code == 201, made.text
            waiting_id, code = made.json()["match_id"], made.json()["invite_code"]
        path = f"/matches/{table.match_id}"
        async with abandoning_app(database_url) as client:

            async def ended() -> bool:
                views = [
                    (await client.get(f"/matches/{m}")).json() for m in (table.match_id, waiting_id)
                ]
                return all(view["table"]["ending"] is not None for view in views)

            await eventually(ended)
            for match_id in (table.match_id, waiting_id):
                view = (await client.get(f"/matches/{match_id}")).json()
                assert view["table"]["ending"] == ABANDONED
            result = (await client.get(f"{path}/result")).json()
            assert (result["status"], result["winner"], result["ending"]) == (
                "finished",
                None,
                ABANDONED,
            )
            events = (await client.get(f"{path}/events?after=0")).json()["events"]
            assert events[-1]["event"]["type"] == "match_ended"
            assert events[-1]["event"]["reason"] == "abandoned"
            record = (await client.get(f"{path}/record")).json()
            assert record["status"] == "finished"

            # The invited player comes too late: refused each time (the invite is not used up).
            version = (await client.get(f"/matches/{waiting_id}")).json()["version"]
            for _ in range(2):
                late = await client.post("/matches/join", json={"invite_code": code})
                assert late.status_code == 409, late.text
                assert late.json()["type"] == "/problems/match-already-ended"
            after = (await client.get(f"/matches/{waiting_id}")).json()
            assert after["version"] == version

            async def delivered() -> bool:
                found = await deliveries(client, key, webhook_id)
                return len(found) == 1 and found[0]["status"] == "delivered"

            await eventually(delivered)
        [end] = match_ends(receiver)
    assert (end["match_id"], end["reason"]) == (table.match_id, "abandoned")
