"""Signed notes, as in the C2SP signed-note specification (used by Go's checksum database,
Sigstore's Rekor and other transparency logs): a text, a blank line, and one signature line
per key.

    <text, one or more lines, each ending in a newline>
    <blank line>
    — <key name> <base64(key hash (4 bytes) || Ed25519 signature (64 bytes))>

The signature covers the text's bytes, final newline included. The key hash is the first 4
bytes of SHA-256(key name || "\\n" || 0x01 || public key), and the verifier key that names a
public key is ``<key name>+<key hash, 8 hex digits>+<base64(0x01 || public key)>``: a
verifier configured with that line checks any note the key signed, with no other knowledge.
"""

from __future__ import annotations

import base64
import binascii
import hashlib

import msgspec

from service.ports.signer import SignatureCheck, Signer

ED25519 = b"\x01"
SIGNATURE_PREFIX = "\u2014 "  # an em dash and a space


class NoteError(ValueError):
    """A note or a verifier key that does not parse."""


class VerifierKey(msgspec.Struct, frozen=True):
    name: str
    key_hash: bytes
    public_key: bytes

    def text(self) -> str:
        encoded = base64.b64encode(ED25519 + self.public_key).decode()
        return f"{self.name}+{self.key_hash.hex()}+{encoded}"


class Signature(msgspec.Struct, frozen=True):
    name: str
    key_hash: bytes
    signature: bytes


class Note(msgspec.Struct, frozen=True):
    text: str
    signatures: list[Signature]


def key_hash(name: str, public_key: bytes) -> bytes:
    return hashlib.sha256(name.encode() + b"\n" + ED25519 + public_key).digest()[:4]


def verifier_key(signer: Signer) -> VerifierKey:
    return VerifierKey(signer.name, key_hash(signer.name, signer.public_key), signer.public_key)


def parse_verifier_key(text: str) -> VerifierKey:
    parts = text.strip().split("+", 2)  # the base64 key may hold a "+" itself
    if len(parts) != 3 or not parts[0]:
        raise NoteError("a verifier key is <name>+<key hash>+<base64 key>")
    name, hash_hex, encoded = parts
    try:
        hashed = bytes.fromhex(hash_hex)
        raw = base64.b64decode(encoded, validate=True)
    except (ValueError, binascii.Error) as error:
        raise NoteError(f"the verifier key {name!r} is not well encoded") from error
    if len(hashed) != 4 or len(raw) != 33 or raw[:1] != ED25519:
        raise NoteError(f"the verifier key {name!r} is not an Ed25519 key")
    if key_hash(name, raw[1:]) != hashed:
        raise NoteError(f"the verifier key {name!r} has the wrong key hash")
    return VerifierKey(name, hashed, raw[1:])


def sign_note(signer: Signer, text: str) -> str:
    if not text.endswith("\n") or "\n\n" in text:
        raise NoteError("a note's text ends in a newline and has no blank line")
    signature = signer.sign(text.encode())
    stamp = base64.b64encode(key_hash(signer.name, signer.public_key) + signature).decode()
    return f"{text}\n{SIGNATURE_PREFIX}{signer.name} {stamp}\n"


def parse_note(note: str) -> Note:
    text, separator, block = note.rpartition("\n\n")
    if not separator or not block.endswith("\n"):
        raise NoteError("a signed note is a text, a blank line and signature lines")
    signatures = []
    for line in block.removesuffix("\n").split("\n"):
        if not line.startswith(SIGNATURE_PREFIX):
            raise NoteError(f"not a signature line: {line!r}")
        name, _, encoded = line.removeprefix(SIGNATURE_PREFIX).rpartition(" ")
        try:
            raw = base64.b64decode(encoded, validate=True)
        except binascii.Error as error:
            raise NoteError(f"the signature by {name!r} is not base64") from error
        if not name or len(raw) < 5:
            raise NoteError(f"a malformed signature line: {line!r}")
        signatures.append(Signature(name, raw[:4], raw[4:]))
    return Note(text + "\n", signatures)


def signed_by(note: Note, keys: list[VerifierKey], check: SignatureCheck) -> VerifierKey | None:
    """The first of ``keys`` with a valid signature on the note; None if none has one."""
    for key in keys:
        for signature in note.signatures:
            if (signature.name, signature.key_hash) != (key.name, key.key_hash):
                continue
            if check(key.public_key, note.text.encode(), signature.signature):
                return key
    return None


def compact(note: str) -> str:
    """The note as one header value: its UTF-8 bytes in base64 (a header holds no newline)."""
    return base64.b64encode(note.encode()).decode()


def expand(value: str) -> str:
    """A note from its text or from its compact form."""
    stripped = value.strip()
    if "\n" in stripped:
        return value if value.endswith("\n") else value + "\n"
    try:
        return base64.b64decode(stripped, validate=True).decode()
    except (binascii.Error, UnicodeDecodeError) as error:
        raise NoteError("neither a signed note nor one in base64") from error
