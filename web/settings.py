"""The service's settings, read once from the environment, and what each setting accepts.

Every setting has a default that runs the service on a laptop: no ``GIN_DATABASE_URL`` means an
embedded PostgreSQL whose data lives under ``GIN_DATA_DIR``. A value the service cannot use is a
``SettingError`` whose message names the setting and what it accepts, raised before anything
is started; ``gin`` prints it as one line. Command-line flags are checked by the same
``Accepts`` (``cli.main``).
"""

from __future__ import annotations

import ipaddress
import math
import os
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Generic, TypeVar
from urllib.parse import urlsplit

import msgspec

from service.accounts.settings import ALLOWED_ALGORITHMS, AccountSettings, issuers_from_json
from service.players.settings import INVITE_CEILING_SECONDS, PlayerTimes
from service.tournament.webhooks.settings import WebhookSettings
from web.rate_limits import RateLimits

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


class Settings(msgspec.Struct, frozen=True, kw_only=True):
    database_url: str | None = None
    data_dir: str = ".data"
    # The Ed25519 key (PEM) that signs checkpoints and receipts, kept outside the database;
    # None: ``<data_dir>/signing-key.pem``, made on first start.
    signing_key_file: str | None = None
    # Where the last log checkpoint given out is kept, outside the database (a restore is
    # checked against it); None: ``published-log`` beside the signing key.
    published_log_dir: str | None = None
    host: str = "127.0.0.1"
    port: int = 8000
    log_level: str = "INFO"
    pool_min_size: int = 2
    pool_max_size: int = 10
    # A snapshot every N events keeps loading a long match as cheap as loading a short one.
    snapshot_every: int = 50
    # How long a request waits for the database before it is answered 503 (see pool.py).
    database_timeout_seconds: float = 2.0
    # How long a client may take to send its request's headers, and then its body.
    read_timeout_seconds: float = 10.0
    max_body_bytes: int = 64 * 1024
    # OpenTelemetry spans for every request (web/tracing.py).
    tracing: bool = False
    # Signed receipts on commands and /metrics: on in production; off only to measure their
    # cost against the same service without them (bench/observability_cost.py).
    receipts: bool = True
    metrics: bool = True
    # Other web origins whose pages may call the API (CORS); the service's own page needs none.
    cors_origins: tuple[str, ...] = ()
    webhooks: WebhookSettings = WebhookSettings()
    rate_limits: RateLimits = RateLimits()
    players: PlayerTimes = PlayerTimes()
    # Sessions' lifetimes and the identity providers whose ID tokens sign players in.
    accounts: AccountSettings = AccountSettings()
    # A match nobody has moved in for this long ends as abandoned (docs/rules.md).
    abandon_after_seconds: float = 7 * 24 * 3600.0

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None) -> Settings:
        env = os.environ if environ is None else environ
        check_environment(env)

        def read(name: str, default: T) -> T:
            value: T = ENVIRONMENT[name].read(name, env[name]) if name in env else default
            return value

        defaults = cls()
        database_url: str | None = read("GIN_DATABASE_URL", None) or read("DATABASE_URL", None)
        settings = cls(
            database_url=database_url,
            data_dir=str(read("GIN_DATA_DIR", defaults.data_dir)),
            signing_key_file=_text_or_none(read("GIN_SIGNING_KEY_FILE", None)),
            published_log_dir=_text_or_none(read("GIN_PUBLISHED_LOG_DIR", None)),
            host=read("GIN_HOST", defaults.host),
            port=read("GIN_PORT", defaults.port),
            log_level=read("GIN_LOG_LEVEL", defaults.log_level),
            pool_min_size=read("GIN_POOL_MIN_SIZE", defaults.pool_min_size),
            pool_max_size=read("GIN_POOL_MAX_SIZE", defaults.pool_max_size),
            snapshot_every=read("GIN_SNAPSHOT_EVERY", defaults.snapshot_every),
            database_timeout_seconds=read(
                "GIN_DATABASE_TIMEOUT_SECONDS", defaults.database_timeout_seconds
            ),
            read_timeout_seconds=read("GIN_READ_TIMEOUT_SECONDS", defaults.read_timeout_seconds),
            max_body_bytes=read("GIN_MAX_BODY_BYTES", defaults.max_body_bytes),
            tracing=read("GIN_TRACING", defaults.tracing),
            receipts=read("GIN_RECEIPTS", defaults.receipts),
            metrics=read("GIN_METRICS", defaults.metrics),
            cors_origins=read("GIN_CORS_ORIGINS", defaults.cors_origins),
            webhooks=_webhooks(env),
            abandon_after_seconds=read("GIN_ABANDON_AFTER_SECONDS", defaults.abandon_after_seconds),
            rate_limits=RateLimits(
                create_per_address=read(
                    "GIN_LIMIT_CREATE_PER_ADDRESS", defaults.rate_limits.create_per_address
                ),
                create_per_credential=read(
                    "GIN_LIMIT_CREATE_PER_CREDENTIAL", defaults.rate_limits.create_per_credential
                ),
                commands_per_address=read(
                    "GIN_LIMIT_COMMANDS_PER_ADDRESS", defaults.rate_limits.commands_per_address
                ),
                commands_per_credential=read(
                    "GIN_LIMIT_COMMANDS_PER_CREDENTIAL",
                    defaults.rate_limits.commands_per_credential,
                ),
            ),
            accounts=AccountSettings(
                access_seconds=read("GIN_ACCESS_TOKEN_SECONDS", defaults.accounts.access_seconds),
                refresh_seconds=read(
                    "GIN_REFRESH_TOKEN_SECONDS", defaults.accounts.refresh_seconds
                ),
                leeway_seconds=read("GIN_OIDC_LEEWAY_SECONDS", defaults.accounts.leeway_seconds),
                jwks_cache_seconds=read(
                    "GIN_OIDC_JWKS_CACHE_SECONDS", defaults.accounts.jwks_cache_seconds
                ),
                issuers=read("GIN_OIDC_ISSUERS", defaults.accounts.issuers),
            ),
            players=PlayerTimes(
                quick_match_wait_seconds=read(
                    "GIN_QUICK_MATCH_WAIT_SECONDS", defaults.players.quick_match_wait_seconds
                ),
                invite_seconds=read("GIN_INVITE_SECONDS", defaults.players.invite_seconds),
                invite_max_seconds=read(
                    "GIN_INVITE_MAX_SECONDS", defaults.players.invite_max_seconds
                ),
            ),
        )
        if settings.accounts.access_seconds >= settings.accounts.refresh_seconds:
            raise SettingError(
                f"GIN_ACCESS_TOKEN_SECONDS must be shorter than GIN_REFRESH_TOKEN_SECONDS "
                f"({settings.accounts.refresh_seconds}), not '{settings.accounts.access_seconds}'"
            )
        if settings.players.invite_seconds > settings.players.invite_max_seconds:
            raise SettingError(
                f"GIN_INVITE_SECONDS must be at most GIN_INVITE_MAX_SECONDS "
                f"({settings.players.invite_max_seconds}), not '{settings.players.invite_seconds}'"
            )
        if settings.pool_min_size > settings.pool_max_size:
            raise SettingError(
                f"GIN_POOL_MIN_SIZE must be at most GIN_POOL_MAX_SIZE "
                f"({settings.pool_max_size}), not '{settings.pool_min_size}'"
            )
        return settings

    def to_env(self) -> dict[str, str]:
        """The environment that makes ``from_env`` return these settings (for server workers)."""
        env = {
            "GIN_DATA_DIR": self.data_dir,
            "GIN_HOST": self.host,
            "GIN_PORT": str(self.port),
            "GIN_LOG_LEVEL": self.log_level,
            "GIN_POOL_MIN_SIZE": str(self.pool_min_size),
            "GIN_POOL_MAX_SIZE": str(self.pool_max_size),
            "GIN_SNAPSHOT_EVERY": str(self.snapshot_every),
            "GIN_DATABASE_TIMEOUT_SECONDS": str(self.database_timeout_seconds),
            "GIN_READ_TIMEOUT_SECONDS": str(self.read_timeout_seconds),
            "GIN_MAX_BODY_BYTES": str(self.max_body_bytes),
            "GIN_TRACING": str(self.tracing).lower(),
            "GIN_RECEIPTS": str(self.receipts).lower(),
            "GIN_METRICS": str(self.metrics).lower(),
            "GIN_CORS_ORIGINS": ",".join(self.cors_origins),
            "GIN_ABANDON_AFTER_SECONDS": str(self.abandon_after_seconds),
            **self.webhooks.to_env(),
            **self.rate_limits.to_env(),
            "GIN_QUICK_MATCH_WAIT_SECONDS": str(self.players.quick_match_wait_seconds),
            "GIN_INVITE_SECONDS": str(self.players.invite_seconds),
            "GIN_INVITE_MAX_SECONDS": str(self.players.invite_max_seconds),
            "GIN_ACCESS_TOKEN_SECONDS": str(self.accounts.access_seconds),
            "GIN_REFRESH_TOKEN_SECONDS": str(self.accounts.refresh_seconds),
            "GIN_OIDC_LEEWAY_SECONDS": str(self.accounts.leeway_seconds),
            "GIN_OIDC_JWKS_CACHE_SECONDS": str(self.accounts.jwks_cache_seconds),
            "GIN_OIDC_ISSUERS": msgspec.json.encode(self.accounts.issuers).decode(),
        }
        if self.database_url:
            env["GIN_DATABASE_URL"] = self.database_url
        if self.signing_key_file:
            env["GIN_SIGNING_KEY_FILE"] = self.signing_key_file
        if self.published_log_dir:
            env["GIN_PUBLISHED_LOG_DIR"] = self.published_log_dir
        return env

    def signing_key_path(self) -> Path:
        if self.signing_key_file:
            return Path(self.signing_key_file)
        return Path(self.data_dir) / "signing-key.pem"

    def published_log_path(self) -> Path:
        if self.published_log_dir:
            return Path(self.published_log_dir)
        return self.signing_key_path().parent / "published-log"


def _text_or_none(value: Path | None) -> str | None:
    return None if value is None else str(value)


def _webhooks(env: Mapping[str, str]) -> WebhookSettings:
    # Each value was checked above; what is left is the one rule between two of them.
    try:
        return WebhookSettings.from_env(env)
    except ValueError:
        timeout = env.get("GIN_WEBHOOK_TIMEOUT_SECONDS", str(WebhookSettings().timeout_seconds))
        lease = env.get("GIN_WEBHOOK_LEASE_SECONDS", str(WebhookSettings().lease_seconds))
        raise SettingError(
            f"GIN_WEBHOOK_LEASE_SECONDS must be longer than GIN_WEBHOOK_TIMEOUT_SECONDS "
            f"({timeout}), not {lease!r}"
        ) from None
