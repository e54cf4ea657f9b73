"""The service's settings, read once from the environment.

Every setting has a default that runs the service on a laptop: no ``GIN_DATABASE_URL`` means an
embedded PostgreSQL whose data lives under ``GIN_DATA_DIR``.
"""

from __future__ import annotations

import os
from collections.abc import Mapping

import msgspec

from service.tournament.webhooks.settings import WebhookSettings


class Settings(msgspec.Struct, frozen=True, kw_only=True):
    database_url: str | None = None
    data_dir: str = ".data"
    host: str = "127.0.0.1"
    port: int = 8000
    log_level: str = "INFO"
    pool_min_size: int = 2
    pool_max_size: int = 10
    # A snapshot every N events keeps loading a long match as cheap as loading a short one.
    snapshot_every: int = 50
    webhooks: WebhookSettings = WebhookSettings()

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None) -> Settings:
        env = os.environ if environ is None else environ
        defaults = cls()
        return cls(
            database_url=env.get("GIN_DATABASE_URL") or env.get("DATABASE_URL") or None,
            data_dir=env.get("GIN_DATA_DIR", defaults.data_dir),
            host=env.get("GIN_HOST", defaults.host),
            port=int(env.get("GIN_PORT", defaults.port)),
            log_level=env.get("GIN_LOG_LEVEL", defaults.log_level).upper(),
            pool_min_size=int(env.get("GIN_POOL_MIN_SIZE", defaults.pool_min_size)),
            pool_max_size=int(env.get("GIN_POOL_MAX_SIZE", defaults.pool_max_size)),
            snapshot_every=int(env.get("GIN_SNAPSHOT_EVERY", defaults.snapshot_every)),
            webhooks=WebhookSettings.from_env(env),
        )

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
            **self.webhooks.to_env(),
        }
        if self.database_url:
            env["GIN_DATABASE_URL"] = self.database_url
        return env
