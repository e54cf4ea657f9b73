"""A signer for tests and the in-memory wiring: a fresh Ed25519 key that lives only in memory
(nothing to keep, so nothing it signed can be checked after the process ends)."""

from __future__ import annotations

from adapters.ed25519_signer import DEFAULT_KEY_NAME, Ed25519Signer


def memory_signer(name: str = DEFAULT_KEY_NAME) -> Ed25519Signer:
    return Ed25519Signer.generate(name)
