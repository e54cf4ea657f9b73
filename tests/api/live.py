"""Reading a Server-Sent Events stream live from the app, inside the app's own event loop.

The test client buffers a response until it ends; a leak test must see each message when it
arrives, so this calls the ASGI app directly, as a server would, and hands over every chunk.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

import msgspec

Chunk = Callable[[bytes], None]


async def read_stream(app: Any, path: str, headers: dict[str, str], on_chunk: Chunk) -> int:
    """Run one GET of ``path`` to its end, passing each body chunk on; the status code."""
    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "GET",
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "query_string": b"",
        "root_path": "",
        "headers": [(k.lower().encode(), v.encode()) for k, v in headers.items()],
        "client": ("127.0.0.1", 1),
        "server": ("testserver", 80),
        "state": {},
    }
    requested = False
    finished = asyncio.Event()
    status = 0

    async def receive() -> dict[str, Any]:
        nonlocal requested
        if not requested:
            requested = True
            return {"type": "http.request", "body": b"", "more_body": False}
        # As a server does: the client is gone once the response is complete.
        await finished.wait()
        return {"type": "http.disconnect"}

    async def send(message: dict[str, Any]) -> None:
        nonlocal status
        if message["type"] == "http.response.start":
            status = message["status"]
        elif message["type"] == "http.response.body":
            if message.get("body"):
                on_chunk(message["body"])
            if not message.get("more_body", False):
                finished.set()

    await app(scope, receive, send)
    return status


def sse_messages(text: str) -> list[dict[str, Any]]:
    """The data of each message (``id``, ``event`` and the decoded ``data``) of an SSE text."""
    messages = []
    for block in text.replace("\r\n", "\n").split("\n\n"):
        fields: dict[str, str] = {}
        for line in block.split("\n"):
            if line and not line.startswith(":"):
                name, _, value = line.partition(":")
                fields[name] = fields.get(name, "") + value.removeprefix(" ")
        if "data" in fields:
            messages.append(
                {
                    "id": int(fields["id"]),
                    "event": fields.get("event"),
                    "data": msgspec.json.decode(fields["data"]),
                }
            )
    return messages
