"""The accounts' HTTP tests: a real identity provider on a loopback port, another the service
does not trust, and the app on a module's database trusting the first."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator

import pytest

from tests.accounts.http import with_issuer
from tests.accounts.oidc_provider import Provider, running_provider
from tests.api.conftest import Asgi, served


@pytest.fixture(scope="module")
def provider() -> Iterator[Provider]:
    with running_provider() as running:
        yield running


@pytest.fixture(scope="module")
def stranger() -> Iterator[Provider]:
    with running_provider() as running:
        yield running


@pytest.fixture(scope="module")
async def asgi(database_url: str, provider: Provider) -> AsyncIterator[Asgi]:
    async with served(database_url, with_issuer(database_url, provider)) as running:
        yield running
