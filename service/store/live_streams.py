"""Which streams wake live readers when appended to: a two-player match's and a three- or
four-player match's. Fairness streams, inboxes and the rest wake nobody through this path.

Readers that handle only two-player matches (the bot sweep, the deadline timer, the players'
projector, the feed and webhooks) tell the two apart with ``match_streams.match_id_of``, which
names no match for a format stream.
"""

from __future__ import annotations

from service.store.format_streams import FORMAT_STREAM_PREFIX
from service.store.match_streams import MATCH_STREAM_PREFIX

LIVE_STREAM_PREFIXES = (MATCH_STREAM_PREFIX, FORMAT_STREAM_PREFIX)


def wakes_readers(stream_id: str) -> bool:
    return stream_id.startswith(LIVE_STREAM_PREFIXES)
