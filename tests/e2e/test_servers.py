"""``bench.servers.gin_serve``, which the end-to-end tests, the load test and the HTTP benchmark
share: a port taken between choosing it and the server binding it costs a retry, not a run."""

from __future__ import annotations

import socket
from collections.abc import Iterator

import httpx
import pytest

from bench import servers


@pytest.fixture
def taken_port() -> Iterator[int]:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        sock.listen()
        port: int = sock.getsockname()[1]
        yield port


@pytest.mark.parametrize("server", ["granian", "uvicorn"])
def test_a_port_taken_before_the_server_binds_it_is_retried(
    fresh_database_url: str, taken_port: int, server: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    ports = iter([taken_port, servers.free_port()])
    monkeypatch.setattr(servers, "free_port", lambda: next(ports))

    with servers.gin_serve(fresh_database_url, "--server", server) as served:
        assert not served.url.endswith(f":{taken_port}")
        assert httpx.get(f"{served.url}/health", timeout=5).status_code == 200
