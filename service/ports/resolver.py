"""The resolver port: the addresses a host name stands for now, as the system's DNS answers."""

from __future__ import annotations

from typing import Protocol


class Resolver(Protocol):
    async def addresses(self, host: str) -> list[str]:
        """Every IPv4 and IPv6 address ``host`` resolves to (textual form); empty if none."""
        ...
