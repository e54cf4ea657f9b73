"""The signer port on both adapters: the key file and the in-memory key sign alike, and what
one signs, only its own public key verifies."""

from __future__ import annotations

from pathlib import Path

import pytest

from adapters.ed25519_signer import DEFAULT_KEY_NAME, key_from_file, verify_ed25519
from adapters.memory.signer import memory_signer
from service.ports.signer import Signer


@pytest.fixture(params=["file", "memory"])
def signer(request: pytest.FixtureRequest, tmp_path: Path) -> Signer:
    if request.param == "memory":
        return memory_signer()
    return key_from_file(tmp_path / "signing-key.pem")


def test_a_signature_verifies_with_the_signers_public_key_only(signer: Signer) -> None:
    message = b"gin-rummy/match-x\n7\n" + bytes(32)
    signature = signer.sign(message)

    assert signer.name == DEFAULT_KEY_NAME
    assert len(signer.public_key) == 32
    assert len(signature) == 64
    assert verify_ed25519(signer.public_key, message, signature)
    assert not verify_ed25519(signer.public_key, message + b"!", signature)
    assert not verify_ed25519(memory_signer().public_key, message, signature)
    assert not verify_ed25519(signer.public_key, message, bytes(64))


def test_two_signers_hold_two_keys(signer: Signer, tmp_path: Path) -> None:
    other = key_from_file(tmp_path / "other" / "signing-key.pem")

    assert other.public_key != signer.public_key
