"""The stream heads this process last saw: the hash an append chains its events to.

The event store learns a head from its own appends, from every read of a stream's tail and from
the head the append statement answers with when it did not write. A head may be stale (another
process appended since): the append statement then refuses it and answers with the current
one, so a stale head costs a second try, never a wrong hash. At most ``limit`` heads are kept;
the one seen longest ago goes first.
"""

from __future__ import annotations

# ~250 bytes a head: a few MB for as many streams as a process plays at once, and then some.
DEFAULT_LIMIT = 20_000


class Heads:
    def __init__(self, limit: int = DEFAULT_LIMIT) -> None:
        self._limit = limit
        self._heads: dict[str, tuple[int, bytes]] = {}

    def saw(self, stream_id: str, version: int, last_hash: bytes) -> None:
        """Remember the head at ``version``, unless a later one is known already (a read that
        started before an append may answer after it)."""
        known = self._heads.pop(stream_id, None)
        if known is not None and known[0] > version:
            self._heads[stream_id] = known
            return
        self._heads[stream_id] = (version, last_hash)
        if len(self._heads) > self._limit:
            del self._heads[next(iter(self._heads))]

    def get(self, stream_id: str) -> tuple[int, bytes] | None:
        """The version and hash of the head last seen."""
        return self._heads.get(stream_id)
