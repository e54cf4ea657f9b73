"""The service's settings, read once from the environment (what each variable accepts is in
``web/environment.py``), and written back to it for the server's workers.

Every setting has a default that runs the service on a laptop: no ``GIN_DATABASE_URL`` means an
embedded PostgreSQL whose data lives under ``GIN_DATA_DIR``. A value the service cannot use, or
two that contradict each other, is a ``SettingError`` raised before anything is started.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import TypeVar

import msgspec

from service.accounts.settings import AccountSettings
from service.players.settings import PlayerTimes
from service.tournament.webhooks.settings import WebhookSettings
from web.environment import ENVIRONMENT, SettingError, check_environment
from web.rate_limits import RateLimits

T = TypeVar("T")


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
