"""The resolver over the operating system's own (``getaddrinfo``: DNS, /etc/hosts), run off
the event loop by asyncio."""

from __future__ import annotations

import asyncio
import socket


class SystemResolver:
    async def addresses(self, host: str) -> list[str]:
        try:
            found = await asyncio.get_running_loop().getaddrinfo(
                host, None, type=socket.SOCK_STREAM
            )
        except (socket.gaierror, UnicodeError):
            return []
        return list(dict.fromkeys(str(info[4][0]) for info in found))
