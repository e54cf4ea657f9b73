"""The HTTP delivery sender against a real receiver on 127.0.0.1: what it sends, and what it
makes of each kind of answer (or of none)."""

from __future__ import annotations

import socket
from collections.abc import Iterator
from urllib.parse import urlsplit

import pytest

from adapters.webhook_sender import UrllibSender
from tests.tournament.receiver import running_receiver

HEADERS = {"Content-Type": "application/json", "X-Gin-Delivery": "7", "X-Gin-Event": "game_end"}
BODY = b'{"exact":"bytes","n":[1,2]}'


@pytest.fixture
def sender() -> Iterator[UrllibSender]:
    urllib_sender = UrllibSender(threads=2, timeout=0.5)
    yield urllib_sender
    urllib_sender.close()


async def test_the_body_and_headers_arrive_as_given_and_the_status_comes_back(
    sender: UrllibSender,
) -> None:
    with running_receiver(statuses=[204]) as receiver:
        outcome = await sender.send(receiver.url, BODY, HEADERS)

    assert (outcome.status_code, outcome.error, outcome.delivered) == (204, None, True)
    (received,) = receiver.requests()
    assert received.body == BODY
    assert {name: received.headers[name] for name in HEADERS} == HEADERS


@pytest.mark.parametrize("status", [500, 404, 302])
async def test_an_error_status_or_a_redirect_is_a_failed_attempt(
    sender: UrllibSender, status: int
) -> None:
    with running_receiver(statuses=[status]) as receiver:
        outcome = await sender.send(receiver.url, BODY, HEADERS)

    assert (outcome.status_code, outcome.delivered) == (status, False)
    assert len(receiver.requests()) == 1  # a redirect is not followed


async def test_a_receiver_slower_than_the_timeout_is_an_error_not_a_wait(
    sender: UrllibSender,
) -> None:
    with running_receiver(delay=2.0) as receiver:
        outcome = await sender.send(receiver.url, BODY, HEADERS)

    assert outcome.status_code is None
    assert outcome.error is not None
    assert "timed out" in outcome.error.lower() or "Timeout" in outcome.error


async def test_nobody_listening_is_an_error(sender: UrllibSender) -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]  # free, and nothing listens once the probe closes

    outcome = await sender.send(f"http://127.0.0.1:{port}/hook", BODY, HEADERS)

    assert outcome.status_code is None
    assert outcome.error is not None
    assert "Connection" in outcome.error or "refused" in outcome.error


async def test_given_an_address_the_sender_connects_there_without_resolving_the_host(
    sender: UrllibSender,
) -> None:
    # The name is made up: were it resolved, the send would fail.
    with running_receiver(statuses=[200]) as receiver:
        port = urlsplit(receiver.url).port
        outcome = await sender.send(
            f"http://never-resolved.invalid:{port}/hook", BODY, HEADERS, address="127.0.0.1"
        )

    assert outcome.delivered, outcome.error
    (received,) = receiver.requests()
    assert received.headers["Host"] == f"never-resolved.invalid:{port}"
