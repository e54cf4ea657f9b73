"""A real HTTP receiver for webhook deliveries, on 127.0.0.1, in a thread of the test process.

It answers each POST with the next status of its script (then 200), records every request,
and counts how many requests for each delivery are in flight at once.
"""

from __future__ import annotations

import threading
import time
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


@dataclass(frozen=True)
class Received:
    path: str
    headers: dict[str, str]
    body: bytes
    at: float


@dataclass
class Receiver:
    url: str
    statuses: list[int] = field(default_factory=list)
    delay: float = 0.0
    received: list[Received] = field(default_factory=list)
    in_flight: Counter[str] = field(default_factory=Counter)
    most_in_flight: Counter[str] = field(default_factory=Counter)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def answer(self, request: Received) -> int:
        delivery = request.headers.get("X-Gin-Delivery", "")
        with self.lock:
            self.in_flight[delivery] += 1
            self.most_in_flight[delivery] = max(
                self.most_in_flight[delivery], self.in_flight[delivery]
            )
            self.received.append(request)
            status = self.statuses.pop(0) if self.statuses else 200
        time.sleep(self.delay)
        with self.lock:
            self.in_flight[delivery] -= 1
        return status

    def requests(self) -> list[Received]:
        with self.lock:
            return list(self.received)


@contextmanager
def running_receiver(statuses: list[int] | None = None, delay: float = 0.0) -> Iterator[Receiver]:
    holder: list[Receiver] = []

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            length = int(self.headers.get("Content-Length", "0"))
            body = self.rfile.read(length)
            request = Received(self.path, dict(self.headers.items()), body, time.time())
            status = holder[0].answer(request)
            self.send_response(status)
            self.send_header("Content-Length", "0")
            self.end_headers()

        def log_message(self, format: str, *args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    host, port = server.server_address[:2]
    receiver = Receiver(f"http://{host!s}:{port}/hook", list(statuses or []), delay)
    holder.append(receiver)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield receiver
    finally:
        server.shutdown()
        server.server_close()
        thread.join()
