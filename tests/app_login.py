"""The login an app under test connects as: granted only the application role ``gin_app``, as
the service runs in production (``tests/conftest.py`` makes it once per server)."""

from __future__ import annotations

from adapters.postgres.roles import with_login

# Roles are cluster-wide: the same login serves every test database of the server. A password,
# since a container's server asks for one over TCP (the embedded one trusts its socket).
TEST_APP_LOGIN = "gin_test_app"
TEST_APP_PASSWORD = "gin-test-app-password"


def as_app(url: str) -> str:
    """``url``'s database, through the login an app under test serves with."""
    return with_login(url, TEST_APP_LOGIN, TEST_APP_PASSWORD)
