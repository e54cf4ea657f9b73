"""A resolver from a table, for tests: names resolve to what the test says, and nothing else
is ever looked up."""

from __future__ import annotations

import ipaddress
from collections.abc import Mapping


class TableResolver:
    def __init__(self, table: Mapping[str, list[str]] | None = None) -> None:
        self.table = dict(table or {})

    async def addresses(self, host: str) -> list[str]:
        try:
            return [str(ipaddress.ip_address(host))]  # as getaddrinfo: an address is itself
        except ValueError:
            return list(self.table.get(host.lower().rstrip("."), []))
