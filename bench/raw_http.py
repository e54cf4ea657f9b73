"""A load client that costs little: HTTP/1.1 over one keep-alive asyncio stream, requests
written from bytes, responses read by their Content-Length. A general client (httpx) spends
several times the server's CPU per request on a two-core machine and so slows the server it
measures; this one knows only what the benchmark's servers answer.
"""

from __future__ import annotations

import asyncio
from types import TracebackType
from urllib.parse import urlsplit

import msgspec


class ProtocolError(RuntimeError):
    """An answer this client does not read (no Content-Length, say)."""


class Connection:
    def __init__(self, base_url: str) -> None:
        parts = urlsplit(base_url)
        self._host = parts.hostname or "127.0.0.1"
        self._port = parts.port or 80
        self._host_header = f"Host: {parts.netloc}\r\n".encode()
        self._reader: asyncio.StreamReader | None = None
        self._writer: asyncio.StreamWriter | None = None

    async def __aenter__(self) -> Connection:
        self._reader, self._writer = await asyncio.open_connection(self._host, self._port)
        return self

    async def __aexit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        if self._writer is not None:
            self._writer.close()

    async def request(
        self, method: str, path: str, body: bytes | None = None, headers: bytes = b""
    ) -> tuple[int, bytes]:
        """Send one request (``headers``: whole lines, each ending in CRLF); its status and
        body."""
        if self._reader is None or self._writer is None:
            raise RuntimeError("open the connection with `async with` first")
        head = f"{method} {path} HTTP/1.1\r\n".encode() + self._host_header + headers
        if body is not None:
            head += b"Content-Type: application/json\r\nContent-Length: %d\r\n" % len(body)
        self._writer.write(head + b"\r\n" + (body or b""))
        response = await self._reader.readuntil(b"\r\n\r\n")
        status = int(response[9:12])
        length = _content_length(response)
        return status, await self._reader.readexactly(length)

    async def json(
        self, method: str, path: str, body: object = None, headers: bytes = b""
    ) -> tuple[int, object]:
        sent = None if body is None else msgspec.json.encode(body)
        status, answer = await self.request(method, path, sent, headers)
        return status, msgspec.json.decode(answer) if answer else None


def _content_length(head: bytes) -> int:
    for line in head.split(b"\r\n")[1:]:
        name, _, value = line.partition(b":")
        if name.strip().lower() == b"content-length":
            return int(value)
    if head.startswith((b"HTTP/1.1 204", b"HTTP/1.1 304")):
        return 0
    raise ProtocolError(f"an answer without Content-Length: {head[:200]!r}")


def bearer(token: str) -> bytes:
    return f"Authorization: Bearer {token}\r\n".encode()
