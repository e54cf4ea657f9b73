"""The delivery sender over the standard library's HTTP client, on a thread pool of its own
(one thread per delivery of a batch, so no send waits for a thread while its timeout runs).

Redirects are not followed (a 3xx is a failed attempt): the operator registered this URL, and
a signed body must not be passed on to wherever a response points.
"""

from __future__ import annotations

import asyncio
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


class UrllibSender:
    def __init__(self, *, threads: int, timeout: float) -> None:
        self._executor = ThreadPoolExecutor(threads, thread_name_prefix="gin-webhook")
        self._timeout = timeout

    async def send(self, url: str, body: bytes, headers: Mapping[str, str]) -> Outcome:
        post = asyncio.get_running_loop().run_in_executor(
            self._executor, _post, url, body, dict(headers), self._timeout
        )
        try:
            # The socket timeout bounds each read; this bounds a receiver that drips.
            status = await asyncio.wait_for(post, self._timeout + 1)
        except (OSError, TimeoutError, ValueError) as error:
            return Outcome(error=f"{type(error).__name__}: {error}"[:MAX_ERROR])
        return Outcome(status_code=status)

    def close(self) -> None:
        self._executor.shutdown(wait=False, cancel_futures=True)


def _post(url: str, body: bytes, headers: dict[str, str], timeout: float) -> int:
    request = urllib.request.Request(url, data=body, headers=headers, method="POST")
    try:
        with _opener.open(request, timeout=timeout) as response:
            response.read(4096)
            return int(response.status)
    except urllib.error.HTTPError as error:
        error.close()
        return error.code
