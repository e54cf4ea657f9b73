"""Slow and vanishing clients against the real server (granian): headers and bodies that never
finish are cut off after the read timeout, and a client that leaves is logged as gone, not as
a server error (issue 13, finding 6)."""

from __future__ import annotations

import json
import socket
import time
from collections.abc import Iterator

import pytest

from bench.servers import Server, gin_serve

READ_TIMEOUT = 1.0
MARGIN = 3.0  # a busy two-core machine, on top of the timeout itself

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def server(database_url: str) -> Iterator[Server]:
    with gin_serve(
        database_url,
        "--log-level",
        "info",
        env={"GIN_READ_TIMEOUT_SECONDS": str(READ_TIMEOUT)},
    ) as running:
        yield running


def connect(server: Server) -> socket.socket:
    host, port = server.url.removeprefix("http://").split(":")
    sock = socket.create_connection((host, int(port)), timeout=READ_TIMEOUT + MARGIN)
    return sock


def read_until_closed(sock: socket.socket) -> bytes:
    """Everything the server sends until it closes (or the socket's own timeout, which fails)."""
    received = b""
    while chunk := sock.recv(65536):
        received += chunk
    return received


def test_a_body_that_never_finishes_is_answered_408(server: Server) -> None:
    with connect(server) as sock:
        started = time.monotonic()
        sock.sendall(
            b"POST /commitments HTTP/1.1\r\nHost: gin\r\nContent-Type: application/json\r\n"
            b"Content-Length: 100\r\n\r\n{"
        )
        answer = sock.recv(65536)
        took = time.monotonic() - started
    assert answer.startswith(b"HTTP/1.1 408"), answer[:200]
    assert b"/problems/request-timeout" in answer
    assert took < READ_TIMEOUT + MARGIN


def test_headers_that_never_finish_are_cut_off(server: Server) -> None:
    with connect(server) as sock:
        started = time.monotonic()
        sock.sendall(b"GET /health/live HTTP/1.1\r\nHost: gin\r\n")  # no blank line: never ends
        received = read_until_closed(sock)
        took = time.monotonic() - started
    assert b"200 OK" not in received
    assert took < READ_TIMEOUT + MARGIN


def test_a_client_that_leaves_mid_body_is_logged_as_gone_not_as_an_error(server: Server) -> None:
    with connect(server) as sock:
        sock.sendall(
            b"POST /matches HTTP/1.1\r\nHost: gin\r\nContent-Type: application/json\r\n"
            b'Content-Length: 1000\r\n\r\n{"options": '
        )
        time.sleep(0.2)  # the app is reading the body when the client goes
    deadline = time.monotonic() + READ_TIMEOUT + MARGIN
    lines: list[dict[str, object]] = []
    while time.monotonic() < deadline:
        lines = [json.loads(line) for line in server.output().splitlines() if line.startswith("{")]
        if any(line.get("path") == "/matches" for line in lines):
            break
        time.sleep(0.1)
    requests = [line for line in lines if line.get("path") == "/matches"]
    assert [line["status"] for line in requests] == [499], requests
    assert "Traceback" not in server.output()
    assert not [line for line in lines if line.get("level") == "error"]
