"""Signed notes as the C2SP signed-note specification has them, checked against the example
Go's ``golang.org/x/mod/sumdb/note`` documents, and the key file a server starts with."""

from __future__ import annotations

from pathlib import Path

import pytest

from adapters.ed25519_signer import key_from_file, verify_ed25519
from adapters.memory.signer import memory_signer
from service.audit.checkpoints import checkpoint_text, parse_attestation
from service.audit.notes import (
    NoteError,
    compact,
    expand,
    parse_note,
    parse_verifier_key,
    sign_note,
    signed_by,
    verifier_key,
)
from web.environment import SettingError
from web.settings import Settings

# From the Go note package's documentation: a verifier key and a note it signed.
GO_KEY = "PeterNeumann+c74f20a3+ARpc2QcUPDhMQegwxbzhKqiBfsVkmqq/LDE4izWy10TW"
GO_NOTE = (
    "If you think cryptography is the answer to your problem,\n"
    "then you don't know what your problem is.\n"
    "\n"
    "\u2014 PeterNeumann x08go/ZJkuBS9UG/SffcvIAQxVBtiFupLLr8pAcElZInNIuGUgYN1FFYC2pZSNXgKvqfqdng"
    "otpRZb6KE6RyyBwJnAM=\n"
)


def test_the_go_example_note_verifies_with_its_published_key() -> None:
    key = parse_verifier_key(GO_KEY)

    assert signed_by(parse_note(GO_NOTE), [key], verify_ed25519) == key
    assert key.text() == GO_KEY


def test_a_changed_text_no_longer_verifies() -> None:
    key = parse_verifier_key(GO_KEY)
    forged = GO_NOTE.replace("problem is", "problem was")

    assert signed_by(parse_note(forged), [key], verify_ed25519) is None


def test_a_verifier_key_with_the_wrong_key_hash_is_refused() -> None:
    with pytest.raises(NoteError, match="wrong key hash"):
        parse_verifier_key(GO_KEY.replace("c74f20a3", "c74f20a4"))


def test_a_note_signed_here_verifies_with_its_key_and_not_with_another() -> None:
    signer, other = memory_signer(), memory_signer()
    note = sign_note(signer, checkpoint_text("match-x", 7, bytes(range(32))))

    assert signed_by(parse_note(note), [verifier_key(other)], verify_ed25519) is None
    assert signed_by(parse_note(note), [verifier_key(signer)], verify_ed25519) is not None
    found = parse_attestation(parse_note(note).text)
    assert (found.kind, found.stream_id, found.version) == ("checkpoint", "match-x", 7)
    assert found.value == bytes(range(32))
    assert expand(compact(note)) == note


def test_the_key_file_is_made_once_and_then_kept(tmp_path: Path) -> None:
    path = tmp_path / "keys" / "signing-key.pem"

    first = key_from_file(path)
    again = key_from_file(path)

    assert first.public_key == again.public_key
    assert path.stat().st_mode & 0o777 == 0o600
    with pytest.raises(FileNotFoundError):
        key_from_file(tmp_path / "missing.pem", create=False)


def test_the_key_file_is_a_setting_and_defaults_to_the_data_folder() -> None:
    chosen = Settings.from_env({"GIN_SIGNING_KEY_FILE": "/keys/gin.pem"})
    default = Settings.from_env({"GIN_DATA_DIR": "/var/gin"})

    assert chosen.signing_key_path() == Path("/keys/gin.pem")
    assert Settings.from_env(chosen.to_env()) == chosen
    assert default.signing_key_path() == Path("/var/gin/signing-key.pem")
    with pytest.raises(SettingError, match=r"^GIN_SIGNING_KEY_FILE must be a file path"):
        Settings.from_env({"GIN_SIGNING_KEY_FILE": " "})
