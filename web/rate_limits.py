"""Rate limits: creating players and matches, and sending commands, each counted per client
address and per credential (any bearer secret: a player's credential or a seat token), with
Litestar's own ``RateLimitMiddleware``.

Each limit is a number of requests per minute; 0 switches it off. They are on by default, set
well above what an honest client sends, so that only floods and runaway loops meet them:

- creating, per address: 600 (ten a second). An address may be a carrier's NAT in front of
  many phones, so it is the loosest; it is the only handle on a client that has no credential
  yet (signing up).
- creating, per credential: 120 (two a second; a person starts a match every few minutes).
- commands, per credential: 1,200 (twenty a second; a person moves every few seconds, an
  operator's bot client faster).
- commands, per address: 12,000 (two hundred a second): a whole NAT of players, or an
  operator's host driving a tournament's seats.

A deployment sets its own numbers (docs/api.md, "Rate limits"); benchmarks and load tests
switch them off, to measure the service rather than its limits. Over a limit the answer is 429
problem+json (``/problems/too-many-requests``, ``web.problems``) with ``Retry-After``, and
nothing is done.

The counts are kept per server process, in memory. Litestar's middleware reads a client's
history and writes it back under a lock of its own process, so a store shared by processes
would not make the count exact anyway, and a PostgreSQL round trip on every command would add
to the path every command takes. With N processes behind a balancer a client gets at most N
times each limit: set the limits per process with that in mind.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable
from time import time
from typing import Any

import msgspec
from litestar import Request
from litestar.middleware.base import DefineMiddleware
from litestar.middleware.rate_limit import (
    CacheObject,
    RateLimitConfig,
    RateLimitMiddleware,
    get_remote_address,
)

from service.matches.tokens import bearer_token

# Requests that make something: a player, a match (directly, by invite, quick, or rematch).
CREATING = re.compile(
    r"^/(players|matches|players/me/(matches|invites|quick-match)"
    r"|players/me/matches/[^/]+/rematch)/?$"
)
COMMANDS = re.compile(r"^/matches/[^/]+/commands/?$")


class RateLimits(msgspec.Struct, frozen=True, kw_only=True):
    """Requests per minute; 0: no limit. The defaults are what the service ships with."""

    create_per_address: int = 600
    create_per_credential: int = 120
    commands_per_address: int = 12_000
    commands_per_credential: int = 1_200

    def to_env(self) -> dict[str, str]:
        """The environment variables that set these limits."""
        return {
            "GIN_LIMIT_CREATE_PER_ADDRESS": str(self.create_per_address),
            "GIN_LIMIT_CREATE_PER_CREDENTIAL": str(self.create_per_credential),
            "GIN_LIMIT_COMMANDS_PER_ADDRESS": str(self.commands_per_address),
            "GIN_LIMIT_COMMANDS_PER_CREDENTIAL": str(self.commands_per_credential),
        }


# For benchmarks and load tests, which send from one address as fast as the service answers.
NO_LIMITS = RateLimits(
    create_per_address=0, create_per_credential=0, commands_per_address=0, commands_per_credential=0
)


class RetryAfterMiddleware(RateLimitMiddleware):
    """Litestar's middleware, with ``Retry-After`` (seconds until a request is counted again)
    once none remain, as RFC 9110 asks of a 429."""

    def create_response_headers(self, cache_object: CacheObject) -> dict[str, str]:
        headers = super().create_response_headers(cache_object)
        if len(cache_object.history) >= self.max_requests:
            headers["Retry-After"] = str(max(1, cache_object.reset - int(time())))
        return headers


def _address(request: Request[Any, Any, Any]) -> str:
    return get_remote_address(request)


def _credential(request: Request[Any, Any, Any]) -> str:
    # A hash, so no secret is kept in the process's memory longer than the request.
    token = bearer_token(request.headers.get("authorization")) or ""
    return hashlib.sha256(token.encode()).hexdigest()


def _applies(
    pattern: re.Pattern[str], needs_credential: bool
) -> Callable[[Request[Any, Any, Any]], bool]:
    def check(request: Request[Any, Any, Any]) -> bool:
        if request.method != "POST" or not pattern.match(request.url.path):
            return False
        return (
            not needs_credential or bearer_token(request.headers.get("authorization")) is not None
        )

    return check


def rate_limit_middleware(limits: RateLimits) -> list[DefineMiddleware]:
    """One middleware per limit that is switched on; each keeps its counts in a store of its
    own (its keys carry only the client's identifier)."""
    chosen = [
        ("create-address", limits.create_per_address, CREATING, _address, False),
        ("create-credential", limits.create_per_credential, CREATING, _credential, True),
        ("commands-address", limits.commands_per_address, COMMANDS, _address, False),
        ("commands-credential", limits.commands_per_credential, COMMANDS, _credential, True),
    ]
    return [
        RateLimitConfig(
            rate_limit=("minute", per_minute),
            identifier_for_request=identify,
            check_throttle_handler=_applies(pattern, needs_credential),
            middleware_class=RetryAfterMiddleware,
            store=f"rate-limit-{name}",
        ).middleware
        for name, per_minute, pattern, identify, needs_credential in chosen
        if per_minute > 0
    ]
