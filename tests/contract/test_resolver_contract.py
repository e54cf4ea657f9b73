"""The resolver contract: the system's resolver and the table both pass it. Only ``localhost``
and address literals are asked, so nothing leaves this machine."""

from __future__ import annotations

import pytest

from adapters.dns_resolver import SystemResolver
from adapters.memory.resolver import TableResolver
from service.ports.resolver import Resolver


@pytest.fixture(params=["system", "table"])
def resolver(request: pytest.FixtureRequest) -> Resolver:
    if request.param == "system":
        return SystemResolver()
    return TableResolver({"localhost": ["127.0.0.1", "::1"]})


async def test_localhost_resolves_to_loopback(resolver: Resolver) -> None:
    found = await resolver.addresses("localhost")

    assert "127.0.0.1" in found
    assert set(found) <= {"127.0.0.1", "::1"}


async def test_an_address_resolves_to_itself(resolver: Resolver) -> None:
    assert await resolver.addresses("127.0.0.1") == ["127.0.0.1"]
    assert await resolver.addresses("::1") == ["::1"]
