"""The seed commitment port: match secrets kept under the commitment published for them, until
a match claims one.

A commitment is claimed at most once. One nobody claimed is forgotten a day after it was made:
the store forgets such old ones whenever it adds a new one, going by its own clock.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Protocol

UNUSED_FOR = timedelta(days=1)


class SeedCommitmentStore(Protocol):
    async def add(self, commitment: bytes, server_secret: bytes) -> None:
        """Keep ``server_secret`` under ``commitment``, having forgotten every commitment made
        more than ``UNUSED_FOR`` ago."""
        ...

    async def claim(self, commitment: bytes) -> bytes | None:
        """The secret kept under ``commitment``, which nobody may then claim again; None if
        there is none (never made, already claimed, or forgotten)."""
        ...
