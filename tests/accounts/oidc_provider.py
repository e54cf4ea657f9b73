"""A small OpenID Connect provider on a loopback port, for the tests: its own RSA and EC keys,
its discovery and JWKS documents, ID tokens it signs, and key rotation.

It is a real HTTP server the service fetches keys from, so the verifier under test runs as it
does in production; tokens are signed with PyJWT, as any provider's library would sign them.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import threading
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import jwt
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec, rsa
from jwt.algorithms import ECAlgorithm, RSAAlgorithm

AUDIENCE = "gin-mobile-app"
HOUR = 3600

PrivateKey = rsa.RSAPrivateKey | ec.EllipticCurvePrivateKey


@dataclass
class SigningKey:
    kid: str
    alg: str
    private: PrivateKey

    def jwk(self) -> dict[str, Any]:
        public = self.private.public_key()
        text = (
            RSAAlgorithm.to_jwk(public)
            if isinstance(public, rsa.RSAPublicKey)
            else ECAlgorithm.to_jwk(public)
        )
        jwk: dict[str, Any] = json.loads(text)
        return {**jwk, "kid": self.kid, "alg": self.alg, "use": "sig"}

    def public_pem(self) -> bytes:
        return self.private.public_key().public_bytes(
            serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo
        )


def new_key(alg: str = "RS256") -> SigningKey:
    private: PrivateKey = (
        ec.generate_private_key(ec.SECP256R1())
        if alg == "ES256"
        else rsa.generate_private_key(public_exponent=65537, key_size=2048)
    )
    return SigningKey(f"{alg.lower()}-{uuid.uuid4().hex[:8]}", alg, private)


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


@dataclass
class Provider:
    """``issuer`` is its URL; ``published`` the keys its JWKS document lists now."""

    issuer: str = ""
    published: list[SigningKey] = field(default_factory=list)
    jwks_fetches: int = 0

    @property
    def jwks_url(self) -> str:
        return f"{self.issuer}/jwks"

    @property
    def current(self) -> SigningKey:
        return self.published[-1]

    def jwks(self) -> dict[str, Any]:
        return {"keys": [key.jwk() for key in self.published]}

    def rotate(self, alg: str = "RS256", *, keep_old: bool = True) -> SigningKey:
        """A new signing key, published beside the old ones (or instead of them)."""
        key = new_key(alg)
        self.published = [*self.published, key] if keep_old else [key]
        return key

    def claims(self, subject: str, **overrides: Any) -> dict[str, Any]:
        now = int(time.time())
        claims: dict[str, Any] = {
            "iss": self.issuer,
            "sub": subject,
            "aud": AUDIENCE,
            "iat": now,
            "nbf": now,
            "exp": now + HOUR,
        }
        claims.update(overrides)
        return {name: value for name, value in claims.items() if value is not None}

    def id_token(self, subject: str, *, key: SigningKey | None = None, **claims: Any) -> str:
        signer = key or self.current
        return jwt.encode(
            self.claims(subject, **claims),
            signer.private,
            algorithm=signer.alg,
            headers={"kid": signer.kid},
        )

    def unsigned_token(self, subject: str) -> str:
        """``alg: none``: no signature at all."""
        header = {"alg": "none", "typ": "JWT", "kid": self.current.kid}
        body = self.claims(subject)
        return f"{_b64(json.dumps(header).encode())}.{_b64(json.dumps(body).encode())}."

    def hmac_with_public_key(self, subject: str) -> str:
        """HS256 keyed with the provider's public key (which anyone may fetch): a verifier that
        let the token choose the algorithm would take it for the provider's."""
        header = {"alg": "HS256", "typ": "JWT", "kid": self.current.kid}
        body = self.claims(subject)
        signing_input = f"{_b64(json.dumps(header).encode())}.{_b64(json.dumps(body).encode())}"
        mac = hmac.new(self.current.public_pem(), signing_input.encode(), hashlib.sha256)
        return f"{signing_input}.{_b64(mac.digest())}"


class _Handler(BaseHTTPRequestHandler):
    provider: Provider

    def do_GET(self) -> None:
        if self.path == "/jwks":
            self.provider.jwks_fetches += 1
            body = self.provider.jwks()
        elif self.path == "/.well-known/openid-configuration":
            body = {"issuer": self.provider.issuer, "jwks_uri": self.provider.jwks_url}
        else:
            self.send_error(404)
            return
        data = json.dumps(body).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, format: str, *args: Any) -> None:
        pass  # quiet: the tests' output is the tests'


@contextmanager
def running_provider(alg: str = "RS256") -> Iterator[Provider]:
    """A provider serving on 127.0.0.1 at a port the system chose, until the block ends."""
    provider = Provider(published=[new_key(alg)])
    handler = type("Handler", (_Handler,), {"provider": provider})
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    provider.issuer = f"http://127.0.0.1:{server.server_address[1]}"
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield provider
    finally:
        server.shutdown()
        server.server_close()
        thread.join()
