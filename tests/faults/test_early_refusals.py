"""A refusal sent before the request's body is read (413, 429, 405) says ``Connection: close``
and closes, so a client that keeps its connections alive (every mobile HTTP stack does) opens
a new one rather than losing its next request down this one; an answer to a body it read keeps
the connection and serves the next request on it. Against the real server (granian), with a
raw socket that holds back the end of the body until the answer has come: the answer was sent
before the body arrived, so only that header can tell the client the connection is done.

Without the header, granian closed such a connection after the answer or not, depending on
how soon the rest of the body came: the next request was lost on a busy machine."""

from __future__ import annotations

import contextlib
import socket
from collections.abc import Iterator

import pytest

from bench.servers import Server, gin_serve
from web.rate_limits import RateLimits
from web.settings import Settings

TIMEOUT = 10.0  # only a hung server would take this long
# One creation a minute per address: the second POST /matches is refused unread.
ONE_CREATION = RateLimits(
    create_per_address=1, create_per_credential=0, commands_per_address=0, commands_per_credential=0
)
NEXT = b"GET /health/live HTTP/1.1\r\nHost: gin\r\n\r\n"

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def server(database_url: str) -> Iterator[Server]:
    with gin_serve(database_url, env=ONE_CREATION.to_env()) as running:
        yield running


def post(path: str, body: bytes) -> bytes:
    return (
        f"POST {path} HTTP/1.1\r\nHost: gin\r\nContent-Type: application/json\r\n"
        f"Content-Length: {len(body)}\r\n\r\n"
    ).encode() + body


def read_response(sock: socket.socket) -> tuple[bytes, bytes]:
    """One response's status line and headers, and its body (by Content-Length)."""
    received = b""
    while b"\r\n\r\n" not in received:
        chunk = sock.recv(65536)
        assert chunk, f"the server closed without a whole response: {received!r}"
        received += chunk
    head, _, body = received.partition(b"\r\n\r\n")
    length = next(
        int(line.split(b":", 1)[1])
        for line in head.lower().split(b"\r\n")
        if line.startswith(b"content-length:")
    )
    while len(body) < length:
        chunk = sock.recv(65536)
        assert chunk, "the server closed mid-body"
        body += chunk
    return head, body


def reuse_after(server: Server, request: bytes, status: bytes, *, withhold: int = 1000) -> None:
    """Send ``request`` but the last ``withhold`` bytes of its body, read the answer
    (``status``), then send the rest of the body, as a client on a slow network would, and
    the next request on the same connection."""
    host, port = server.url.removeprefix("http://").split(":")
    head_end = request.index(b"\r\n\r\n") + 4
    rest = min(withhold, len(request) - head_end)
    with socket.create_connection((host, int(port)), timeout=TIMEOUT) as sock:
        sock.sendall(request[: len(request) - rest])
        head, _ = read_response(sock)
        assert head.startswith(b"HTTP/1.1 " + status), head
        closing = b"\r\nconnection: close" in head.lower()
        assert closing == (rest > 0), head
        if closing:
            # Announced: the client opens a new connection; the server must then close this one.
            with contextlib.suppress(BrokenPipeError, ConnectionResetError):
                sock.sendall(request[len(request) - rest :])
            assert read_until_closed(sock) == b""
            return
        try:
            sock.sendall(request[len(request) - rest :] + NEXT)
            head, body = read_response(sock)
        except (BrokenPipeError, ConnectionResetError) as error:
            raise AssertionError("the connection was closed under the next request") from error
        assert head.startswith(b"HTTP/1.1 200"), head
        assert body


def read_until_closed(sock: socket.socket) -> bytes:
    received = b""
    with contextlib.suppress(ConnectionResetError):
        while chunk := sock.recv(65536):
            received += chunk
    return received


def test_a_body_too_large_leaves_the_connection_usable(server: Server) -> None:
    body = b'{"pad": "' + b"x" * Settings().max_body_bytes + b'"}'
    reuse_after(server, post("/commitments", body), b"413")


def test_a_rate_limited_request_leaves_the_connection_usable(server: Server) -> None:
    body = b'{"options": {"match_target": 0}}' + b" " * 2000
    reuse_after(server, post("/matches", body), b"201", withhold=0)
    reuse_after(server, post("/matches", body), b"429")


def test_a_post_no_route_takes_leaves_the_connection_usable(server: Server) -> None:
    reuse_after(server, post("/no/such/route", b"{" + b" " * 20000 + b"}"), b"405")
