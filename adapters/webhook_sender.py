"""The delivery sender over the standard library's HTTP client, on a thread pool of its own
(one thread per delivery of a batch, so no send waits for a thread while its timeout runs).

Redirects are not followed (a 3xx is a failed attempt): the operator registered this URL, and
a signed body must not be passed on to wherever a response points.

Given an ``address``, the connection goes to that address (checked by the caller) and the URL's
host is not resolved again, so a name cannot point somewhere else between the check and the
send (DNS rebinding). Where the environment names a proxy for the URL, the proxy connects.
"""

from __future__ import annotations

import asyncio
import http.client
import socket
import urllib.error
import urllib.request
from collections.abc import Mapping
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from service.ports.delivery_queue import Outcome

MAX_ERROR = 300


class _NoRedirects(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args: Any, **kwargs: Any) -> None:
        return None


_opener = urllib.request.build_opener(_NoRedirects)


def _pinned(base: type[http.client.HTTPConnection], address: str) -> Any:
    class Pinned(base):  # type: ignore[valid-type,misc]
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            # What HTTPConnection.connect (and so HTTPSConnection's) opens its socket with.
            self._create_connection = lambda host_port, *rest: socket.create_connection(
                (address, host_port[1]), *rest
            )

    return Pinned


class _PinnedHTTP(urllib.request.HTTPHandler):
    def __init__(self, address: str) -> None:
        super().__init__()
        self._address = address

    def http_open(self, req: urllib.request.Request) -> Any:
        return self.do_open(_pinned(http.client.HTTPConnection, self._address), req)


class _PinnedHTTPS(urllib.request.HTTPSHandler):
    def __init__(self, address: str) -> None:
        super().__init__()
        self._address = address

    def https_open(self, req: urllib.request.Request) -> Any:
        # The default TLS context: the certificate is checked against the URL's host.
        return self.do_open(_pinned(http.client.HTTPSConnection, self._address), req)


def _pinned_opener(address: str) -> urllib.request.OpenerDirector:
    return urllib.request.build_opener(
        _NoRedirects, urllib.request.ProxyHandler({}), _PinnedHTTP(address), _PinnedHTTPS(address)
    )


def _proxied(request: urllib.request.Request) -> bool:
    proxies = urllib.request.getproxies()
    return request.type in proxies and not urllib.request.proxy_bypass(request.host)


class UrllibSender:
    def __init__(self, *, threads: int, timeout: float) -> None:
        self._executor = ThreadPoolExecutor(threads, thread_name_prefix="gin-webhook")
        self._timeout = timeout

    async def send(
        self, url: str, body: bytes, headers: Mapping[str, str], *, address: str | None = None
    ) -> Outcome:
        post = asyncio.get_running_loop().run_in_executor(
            self._executor, _post, url, body, dict(headers), self._timeout, address
        )
        try:
            # The socket timeout bounds each read; this bounds a receiver that drips.
            status = await asyncio.wait_for(post, self._timeout + 1)
        except (OSError, TimeoutError, ValueError) as error:
            return Outcome(error=f"{type(error).__name__}: {error}"[:MAX_ERROR])
        return Outcome(status_code=status)

    def close(self) -> None:
        self._executor.shutdown(wait=False, cancel_futures=True)


def _post(
    url: str, body: bytes, headers: dict[str, str], timeout: float, address: str | None
) -> int:
    request = urllib.request.Request(url, data=body, headers=headers, method="POST")
    opener = _opener if address is None or _proxied(request) else _pinned_opener(address)
    try:
        with opener.open(request, timeout=timeout) as response:
            response.read(4096)
            return int(response.status)
    except urllib.error.HTTPError as error:
        error.close()
        return error.code
