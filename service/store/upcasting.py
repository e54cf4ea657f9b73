"""Upcasters: old events keep loading after an event type changes shape.

The store never rewrites an event (its bytes are hashed). When an event type's payload
changes, the type's schema version goes up and one upcaster is registered that turns a payload
of the old version into one of the next version. Decoding applies the steps in order, so a
version-1 payload reaches the current version through 1 -> 2 -> 3.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import msgspec

Payload = dict[str, Any]
Upcaster = Callable[[Payload], Payload]


def canonical_json(value: object) -> bytes:
    """The canonical bytes of a JSON value: compact, keys sorted, UTF-8."""
    return msgspec.json.encode(value, order="sorted")


class Upcasters:
    def __init__(self) -> None:
        self._steps: dict[tuple[str, int], Upcaster] = {}

    def register(self, type: str, from_version: int) -> Callable[[Upcaster], Upcaster]:
        """Decorate the function that turns ``type`` at ``from_version`` into the next version."""

        def add(step: Upcaster) -> Upcaster:
            if (type, from_version) in self._steps:
                raise ValueError(f"{type} already has an upcaster from version {from_version}")
            self._steps[(type, from_version)] = step
            return step

        return add

    def current_version(self, type: str) -> int:
        """The version payloads of ``type`` are upcast to: one past the newest upcaster."""
        versions = [version for (name, version) in self._steps if name == type]
        return max(versions, default=0) + 1

    def has_steps_from(self, schema_version: int) -> bool:
        """Whether a payload of any type stored at ``schema_version`` may need a step."""
        return any(version >= schema_version for (_, version) in self._steps)

    def upcast(self, type: str, schema_version: int, payload: Payload) -> Payload:
        version = schema_version
        while (step := self._steps.get((type, version))) is not None:
            payload = step(payload)
            version += 1
        if version < self.current_version(type):
            raise LookupError(f"{type} has no upcaster from version {version}")
        return payload

    def decode(self, type: str, schema_version: int, data: bytes) -> Payload:
        payload = msgspec.json.decode(data)
        if not isinstance(payload, dict):
            raise ValueError(f"{type} data is not a JSON object")
        return self.upcast(type, schema_version, payload)
