"""The service's log, asked over HTTP: what ``gin witness`` polls (``service.audit.witness``)."""

from __future__ import annotations

import urllib.parse
import urllib.request

import msgspec

from service.audit.log_proofs import ConsistencyProof, decoded

TIMEOUT_SECONDS = 30


class HttpLogServer:
    def __init__(self, url: str, timeout: float = TIMEOUT_SECONDS) -> None:
        self.url = url.rstrip("/")
        self.timeout = timeout

    def checkpoint(self) -> str:
        return self._get("/log/checkpoint").decode()

    def consistency(self, first: int, second: int) -> list[bytes]:
        query = urllib.parse.urlencode({"first": first, "second": second})
        body = self._get(f"/log/proofs/consistency?{query}")
        try:
            proof = msgspec.json.decode(body, type=ConsistencyProof)
            if (proof.first, proof.second) != (first, second):
                raise ValueError(f"it is from {proof.first} to {proof.second}")
            return decoded(proof.proof)
        except (msgspec.DecodeError, ValueError) as error:
            # Not a proof at all: the server answers nonsense, which proves nothing either way.
            raise OSError(f"the consistency proof is unreadable: {error}") from error

    def _get(self, path: str) -> bytes:
        with urllib.request.urlopen(self.url + path, timeout=self.timeout) as response:
            body: bytes = response.read()
            return body
