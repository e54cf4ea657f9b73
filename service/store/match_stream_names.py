"""Every stream that belongs to one match, named in one place.

A match writes to several streams of the global log: its own (``match-`` for two players,
``format-match-`` for three and four) and its fairness stream. Whatever must treat all of a
match's streams alike (the log tree blinds each of them with the match's secret) asks
``match_of_stream``; the stream ids are made here too (``MatchStream.of``), so a new kind of
per-match stream is a new member of ``MatchStream`` and cannot be left out of the answer.
"""

from __future__ import annotations

import enum


class MatchStream(enum.Enum):
    """The kinds of per-match stream, each the prefix of its stream ids."""

    TWO_PLAYER = "match-"
    FORMAT = "format-match-"
    FAIRNESS = "fairness-"

    def of(self, match_id: str) -> str:
        return f"{self.value}{match_id}"


# Longest first: no prefix may answer for a stream of a kind whose prefix extends it.
_BY_LENGTH = sorted(MatchStream, key=lambda kind: len(kind.value), reverse=True)


def match_of_stream(stream_id: str) -> str | None:
    """The match ``stream_id`` belongs to, or None for a stream of no match."""
    for kind in _BY_LENGTH:
        if stream_id.startswith(kind.value):
            return stream_id.removeprefix(kind.value)
    return None
