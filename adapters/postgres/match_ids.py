"""The match a stream's rows belong to, as the ``match_id`` column has it (migration 0026).

Every statement that reads or writes one match's rows names the match (``match_id = $1``), so
that a distributed PostgreSQL could route it to the one shard holding the match. The match is
read off the stream id by the rule ``match_id_of_stream`` follows in SQL: a prefix of a match's
stream (``service.store.match_stream_names``) followed by a UUID; any other stream (the service
writes none) belongs to the nil UUID.
"""

from __future__ import annotations

import re
import uuid
from collections.abc import Collection
from functools import lru_cache

from service.store.match_stream_names import MatchStream

NIL = uuid.UUID(int=0)
_UUID = "[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}"
_PREFIXES = "|".join(re.escape(kind.value) for kind in MatchStream)
_STREAM = re.compile(f"(?:{_PREFIXES})({_UUID})")


@lru_cache(maxsize=65_536)
def match_id_of_stream(stream_id: str) -> uuid.UUID:
    """The match ``stream_id`` belongs to; the nil UUID for a stream of no match."""
    found = _STREAM.fullmatch(stream_id)
    return uuid.UUID(found.group(1)) if found else NIL


def match_ids_of_streams(stream_ids: Collection[str]) -> list[uuid.UUID]:
    """The matches of ``stream_ids``, each once."""
    return sorted({match_id_of_stream(stream_id) for stream_id in stream_ids})
