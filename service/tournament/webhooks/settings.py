"""How the webhook dispatcher and worker pace themselves, read from ``GIN_WEBHOOK_*``."""

from __future__ import annotations

import ipaddress
import os
from collections.abc import Mapping

import msgspec


class WebhookSettings(msgspec.Struct, frozen=True, kw_only=True):
    enabled: bool = True
    poll_seconds: float = 1.0
    batch_size: int = 20
    timeout_seconds: float = 10.0
    # Longer than a send may take, so no other process claims a delivery still being sent.
    lease_seconds: float = 30.0
    retry_base_seconds: float = 5.0
    retry_cap_seconds: float = 3600.0
    max_attempts: int = 10
    # Networks (CIDR) webhooks may reach although they are not public, e.g. "127.0.0.0/8".
    allowed_networks: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if self.lease_seconds <= self.timeout_seconds:
            raise ValueError("the webhook lease must outlast the send timeout")
        if self.max_attempts < 1 or self.batch_size < 1:
            raise ValueError("webhook max_attempts and batch_size are at least 1")
        for network in self.allowed_networks:
            ipaddress.ip_network(network, strict=False)  # a ValueError names a bad one

    def backoff(self, attempts: int) -> float:
        """Seconds to wait after the ``attempts``-th failed attempt: doubling, then capped."""
        return float(min(self.retry_cap_seconds, self.retry_base_seconds * 2 ** (attempts - 1)))

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None) -> WebhookSettings:
        env = os.environ if environ is None else environ
        d = cls()
        return cls(
            enabled=env.get("GIN_WEBHOOK_ENABLED", "true").lower() not in ("0", "false", "no"),
            poll_seconds=float(env.get("GIN_WEBHOOK_POLL_SECONDS", d.poll_seconds)),
            batch_size=int(env.get("GIN_WEBHOOK_BATCH_SIZE", d.batch_size)),
            timeout_seconds=float(env.get("GIN_WEBHOOK_TIMEOUT_SECONDS", d.timeout_seconds)),
            lease_seconds=float(env.get("GIN_WEBHOOK_LEASE_SECONDS", d.lease_seconds)),
            retry_base_seconds=float(
                env.get("GIN_WEBHOOK_RETRY_BASE_SECONDS", d.retry_base_seconds)
            ),
            retry_cap_seconds=float(env.get("GIN_WEBHOOK_RETRY_CAP_SECONDS", d.retry_cap_seconds)),
            max_attempts=int(env.get("GIN_WEBHOOK_MAX_ATTEMPTS", d.max_attempts)),
            allowed_networks=tuple(
                n.strip()
                for n in env.get("GIN_WEBHOOK_ALLOWED_NETWORKS", "").split(",")
                if n.strip()
            ),
        )

    def to_env(self) -> dict[str, str]:
        """The environment that makes ``from_env`` return these settings."""
        return {
            "GIN_WEBHOOK_ENABLED": "true" if self.enabled else "false",
            "GIN_WEBHOOK_POLL_SECONDS": str(self.poll_seconds),
            "GIN_WEBHOOK_BATCH_SIZE": str(self.batch_size),
            "GIN_WEBHOOK_TIMEOUT_SECONDS": str(self.timeout_seconds),
            "GIN_WEBHOOK_LEASE_SECONDS": str(self.lease_seconds),
            "GIN_WEBHOOK_RETRY_BASE_SECONDS": str(self.retry_base_seconds),
            "GIN_WEBHOOK_RETRY_CAP_SECONDS": str(self.retry_cap_seconds),
            "GIN_WEBHOOK_MAX_ATTEMPTS": str(self.max_attempts),
            "GIN_WEBHOOK_ALLOWED_NETWORKS": ",".join(self.allowed_networks),
        }
