"""The event's webhook receiver: an HTTP server on this machine that verifies each delivery
with the ``standardwebhooks`` library and keeps what it verified."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from standardwebhooks import Webhook, WebhookVerificationError


class Inbox:
    def __init__(self) -> None:
        self.secret: str | None = None  # set once the webhook is registered
        self.verified: dict[str, dict[str, Any]] = {}  # by event_id: repeats are dropped
        self.refused = 0
        self._lock = threading.Lock()
        self.arrived = threading.Condition(self._lock)

    def take(self, body: bytes, headers: dict[str, str]) -> bool:
        if self.secret is None:
            return False
        try:
            payload = Webhook(self.secret).verify(body, headers)
        except WebhookVerificationError:
            with self._lock:
                self.refused += 1
            return False
        with self.arrived:
            self.verified.setdefault(payload["event_id"], payload)
            self.arrived.notify_all()
        return True

    def wait_for_ends(self, match_ids: set[str], timeout: float) -> set[str]:
        """The matches among ``match_ids`` whose end has arrived, waiting up to ``timeout``."""
        with self.arrived:
            self.arrived.wait_for(lambda: self._ended(match_ids) == match_ids, timeout)
            return self._ended(match_ids)

    def _ended(self, match_ids: set[str]) -> set[str]:
        return {
            p["match_id"]
            for p in self.verified.values()
            if p["kind"] == "match_end" and p["match_id"] in match_ids
        }


@contextmanager
def receiving(inbox: Inbox) -> Iterator[str]:
    """Serve on 127.0.0.1 at a free port; the URL to register."""

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
            ok = inbox.take(body, dict(self.headers.items()))
            self.send_response(204 if ok else 400)
            self.send_header("Content-Length", "0")
            self.end_headers()

        def log_message(self, format: str, *args: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/gin"
    finally:
        server.shutdown()
        server.server_close()
