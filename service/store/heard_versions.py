"""What this process has heard of every stream's newest version, from the wake-ups: enough to
prove a cached state current without reading the store, when it can be proven.

Every append, from any process, is followed by a wake-up naming its stream and the version it
reached, sent after its commit (``adapters/postgres/wakeup_sender.py``). While this process
listens, then, any append committed after a state was cached here is heard of, a wake-up's delay
later; a cached state at a version no lower than any heard of for its stream is current up to
that delay. A state cached before listening (re)started proves nothing: the appends meanwhile
went unheard. So a state is proven by the listening *term* it was cached in (``term``), and a
term ends whenever listening stops or a stream is heard of without its version.

What the delay leaves open is a client's own command, answered by another process a moment
before: its wake-up may still be on its way. A reader therefore also names the version it knows
(``MatchStreams.current``), and a state below it is never taken as current. A wake-up can also
be lost (its sender's connection dropped, its process died after the commit): a state is
therefore provable only for ``PROVEN_SECONDS`` after the read or append it came from.
"""

from __future__ import annotations

# Beyond this many streams heard of, the oldest is forgotten by starting a new term (every
# cached state is then read once more): the memory it takes stays bounded.
STREAMS_KEPT = 100_000


class HeardVersions:
    def __init__(self, *, streams_kept: int = STREAMS_KEPT) -> None:
        self._heard: dict[str, int] = {}
        self._streams_kept = streams_kept
        self._listening = False
        self._term = 0

    def term(self) -> int | None:
        """The listening term now: what a state cached from now on is proven by; None while
        not listening (nothing cached then is proven)."""
        return self._term if self._listening else None

    def heard(self, stream_id: str, version: int | None) -> None:
        if version is None:
            # A wake-up that does not say how far its stream went (from an earlier release):
            # nothing cached of that stream can be proven current, so none is.
            self._new_term()
            return
        if version > self._heard.get(stream_id, 0):
            if stream_id not in self._heard and len(self._heard) >= self._streams_kept:
                self._new_term()
            self._heard[stream_id] = version

    def listening(self, on: bool) -> None:
        self._new_term()
        self._listening = on

    def proves(self, stream_id: str, version: int, term: int | None) -> bool:
        """Whether a state of ``stream_id`` at ``version``, cached in ``term``, is as new as
        every append to it heard of."""
        return (
            term is not None
            and self._listening
            and term == self._term
            and self._heard.get(stream_id, 0) <= version
        )

    def _new_term(self) -> None:
        self._term += 1
        self._heard.clear()
