"""Every environment variable the service reads, and what each accepts.

A value the service cannot use is a ``SettingError`` whose message names the variable and what
it accepts, raised before anything is started; ``gin`` prints it as one line. Command-line
flags are checked by the same ``Accepts`` (``cli.main``). ``web/settings.py`` reads these
variables into ``Settings``.
"""

from __future__ import annotations

import ipaddress
import math
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Generic, TypeVar
from urllib.parse import urlsplit

from service.accounts.settings import ALLOWED_ALGORITHMS, issuers_from_json
from service.players.settings import INVITE_CEILING_SECONDS

T = TypeVar("T")


class SettingError(ValueError):
    """A setting's value the service cannot use."""


@dataclass(frozen=True)
class Accepts(Generic[T]):
    """What a setting accepts: in words, for the error, and as a parser that raises
    ``ValueError`` on anything else."""

    words: str
    parse: Callable[[str], T]

    def read(self, name: str, text: str) -> T:
        try:
            return self.parse(text)
        except ValueError:
            raise SettingError(f"{name} must be {self.words}, not {text!r}") from None


def whole_number(low: int, high: int | None = None) -> Callable[[str], int]:
    def parse(text: str) -> int:
        value = int(text)
        if value < low or (high is not None and value > high):
            raise ValueError(text)
        return value

    return parse


def seconds(text: str) -> float:
    value = float(text)
    if not math.isfinite(value) or value <= 0:
        raise ValueError(text)
    return value


def one_of(choices: Iterable[str]) -> Callable[[str], str]:
    """Any of ``choices``, in any case; the value as it is spelled in ``choices``."""
    by_key = {choice.lower(): choice for choice in choices}

    def parse(text: str) -> str:
        try:
            return by_key[text.lower()]
        except KeyError:
            raise ValueError(text) from None

    return parse


def switch(text: str) -> bool:
    # Only what ``WebhookSettings.from_env`` reads the same way: it takes anything but these
    # three offs for on, so "off" would switch webhooks on.
    value = text.lower()
    if value in ("1", "true", "yes"):
        return True
    if value in ("0", "false", "no"):
        return False
    raise ValueError(text)


def some_text(text: str) -> str:
    if not text.strip():
        raise ValueError(text)
    return text


def folder(text: str) -> Path:
    return Path(some_text(text))


def postgres_url(text: str) -> str | None:
    """A PostgreSQL URL; empty means none (an embedded server), as an unset variable does."""
    if not text:
        return None
    if urlsplit(text).scheme not in ("postgresql", "postgres"):
        raise ValueError(text)
    return text


def origins(text: str) -> tuple[str, ...]:
    """Comma-separated web origins (``https://app.example``, scheme, host and port only), as a
    browser sends them in ``Origin``; empty means none."""
    found = tuple(part.strip().rstrip("/") for part in text.split(",") if part.strip())
    for origin in found:
        parts = urlsplit(origin)
        if parts.scheme not in ("http", "https") or not parts.hostname or parts.path:
            raise ValueError(text)
        if parts.query or parts.fragment or parts.username is not None:
            raise ValueError(text)
    return found


def networks(text: str) -> list[str]:
    found = [part.strip() for part in text.split(",") if part.strip()]
    for network in found:
        ipaddress.ip_network(network, strict=False)
    return found


LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")  # what both ASGI servers know

PORT = Accepts("a port number (1-65535)", whole_number(1, 65535))
AT_LEAST_ONE = Accepts("a whole number, at least 1", whole_number(1))
SECONDS = Accepts("a number of seconds above 0", seconds)
SWITCH = Accepts("true or false (or 1/0, yes/no)", switch)
LOG_LEVEL = Accepts(f"one of {', '.join(LOG_LEVELS)}", one_of(LOG_LEVELS))
HOST = Accepts("a host name or IP address", some_text)
FOLDER = Accepts("a folder path", folder)
FILE = Accepts("a file path", folder)
DATABASE_URL = Accepts("a postgresql:// URL", postgres_url)
NETWORKS = Accepts("networks in CIDR notation, comma-separated (127.0.0.0/8,::1/128)", networks)
# Room for the largest body the API takes (a match's options, entropy) many times over.
BODY_BYTES = Accepts("a number of bytes from 1024 to 1048576", whole_number(1024, 1024 * 1024))

ORIGINS = Accepts("comma-separated origins such as https://app.example:8443", origins)
PER_MINUTE = Accepts("a number of requests per minute (0: no limit)", whole_number(0))
QUICK_MATCH_WAIT = Accepts("a whole number of seconds from 1 to 86400", whole_number(1, 86_400))
INVITE_SECONDS = Accepts(
    f"a whole number of seconds from 60 to {INVITE_CEILING_SECONDS}",
    whole_number(60, INVITE_CEILING_SECONDS),
)

ISSUERS = Accepts(
    'a JSON list of {"issuer", "audience", "jwks_url" or "jwks_file"} objects, each issuer'
    f' once ("algorithms" among {", ".join(ALLOWED_ALGORITHMS)})',
    issuers_from_json,
)
LIFETIME = Accepts("a whole number of seconds from 60 to 31536000", whole_number(60, 31_536_000))
LEEWAY = Accepts("a whole number of seconds from 0 to 300", whole_number(0, 300))

# Every variable the service reads, and what it accepts.
ENVIRONMENT: dict[str, Accepts[Any]] = {
    "GIN_DATABASE_URL": DATABASE_URL,
    "DATABASE_URL": DATABASE_URL,
    # The owner's URL to migrate with, when the service's URL is an application login.
    "GIN_MIGRATION_DATABASE_URL": DATABASE_URL,
    "GIN_DATA_DIR": FOLDER,
    "GIN_SIGNING_KEY_FILE": FILE,
    "GIN_PUBLISHED_LOG_DIR": FOLDER,
    "GIN_HOST": HOST,
    "GIN_PORT": PORT,
    "GIN_LOG_LEVEL": LOG_LEVEL,
    "GIN_POOL_MIN_SIZE": AT_LEAST_ONE,
    "GIN_POOL_MAX_SIZE": AT_LEAST_ONE,
    "GIN_SNAPSHOT_EVERY": AT_LEAST_ONE,
    "GIN_DATABASE_TIMEOUT_SECONDS": SECONDS,
    "GIN_READ_TIMEOUT_SECONDS": SECONDS,
    "GIN_MAX_BODY_BYTES": BODY_BYTES,
    "GIN_TRACING": SWITCH,
    "GIN_RECEIPTS": SWITCH,
    "GIN_METRICS": SWITCH,
    "GIN_CORS_ORIGINS": ORIGINS,
    "GIN_WEBHOOK_ENABLED": SWITCH,
    "GIN_WEBHOOK_POLL_SECONDS": SECONDS,
    "GIN_WEBHOOK_BATCH_SIZE": AT_LEAST_ONE,
    "GIN_WEBHOOK_TIMEOUT_SECONDS": SECONDS,
    "GIN_WEBHOOK_LEASE_SECONDS": SECONDS,
    "GIN_WEBHOOK_RETRY_BASE_SECONDS": SECONDS,
    "GIN_WEBHOOK_RETRY_CAP_SECONDS": SECONDS,
    "GIN_WEBHOOK_MAX_ATTEMPTS": AT_LEAST_ONE,
    "GIN_WEBHOOK_ALLOWED_NETWORKS": NETWORKS,
    "GIN_LIMIT_CREATE_PER_ADDRESS": PER_MINUTE,
    "GIN_LIMIT_CREATE_PER_CREDENTIAL": PER_MINUTE,
    "GIN_LIMIT_COMMANDS_PER_ADDRESS": PER_MINUTE,
    "GIN_LIMIT_COMMANDS_PER_CREDENTIAL": PER_MINUTE,
    "GIN_QUICK_MATCH_WAIT_SECONDS": QUICK_MATCH_WAIT,
    "GIN_INVITE_SECONDS": INVITE_SECONDS,
    "GIN_INVITE_MAX_SECONDS": INVITE_SECONDS,
    "GIN_ABANDON_AFTER_SECONDS": SECONDS,
    "GIN_ACCESS_TOKEN_SECONDS": LIFETIME,
    "GIN_REFRESH_TOKEN_SECONDS": LIFETIME,
    "GIN_OIDC_LEEWAY_SECONDS": LEEWAY,
    "GIN_OIDC_JWKS_CACHE_SECONDS": LIFETIME,
    "GIN_OIDC_ISSUERS": ISSUERS,
}
# What the database commands (``gin db``, ``gin operator``, ``gin audit``) read.
DATABASE_ENVIRONMENT = (
    "GIN_DATABASE_URL",
    "DATABASE_URL",
    "GIN_MIGRATION_DATABASE_URL",
    "GIN_DATA_DIR",
    "GIN_PUBLISHED_LOG_DIR",
)


def check_environment(env: Mapping[str, str], names: Iterable[str] = ENVIRONMENT) -> None:
    """Raise ``SettingError`` for the first of ``names`` set to a value it does not accept."""
    for name in names:
        if name in env:
            ENVIRONMENT[name].read(name, env[name])
