"""Which streams wake live readers when appended to: a match's, at any table size. Fairness
streams, inboxes and the rest wake nobody through this path.

A reader that handles only one kind of match (the bot sweep, the abandonment of two-player
matches) asks that kind: ``TWO_SEATS.match_id_of``.
"""

from __future__ import annotations

from service.store.match_streams import KINDS

LIVE_STREAM_PREFIXES = tuple(kind.prefix for kind in KINDS)


def wakes_readers(stream_id: str) -> bool:
    return stream_id.startswith(LIVE_STREAM_PREFIXES)
