"""Wake-ups in one process: the in-memory event store tells of each append, and the waiters of
a match stream are woken at once (what the PostgreSQL store's NOTIFY and LISTEN do across
processes)."""

from __future__ import annotations

from collections.abc import Callable

from adapters.memory.event_store import InMemoryEventStore
from adapters.wakeup_hub import WakeupHub
from service.store.live_streams import wakes_readers


class InMemoryWakeups(WakeupHub):
    def __init__(self, store: InMemoryEventStore) -> None:
        super().__init__()
        self._store = store
        self._stop_hearing: Callable[[], None] | None = None

    async def start(self) -> None:
        if self._stop_hearing is None:
            self._stop_hearing = self._store.on_append(self._appended)
            self.hearing(True)
        self.wake_all()

    async def stop(self) -> None:
        if self._stop_hearing is not None:
            self._stop_hearing()
            self._stop_hearing = None
            self.hearing(False)
        self.wake_all()

    def _appended(self, stream_id: str, version: int) -> None:
        # As the PostgreSQL store: only match streams (of any format) wake anyone.
        if wakes_readers(stream_id):
            self.heard(stream_id, version)
            self.wake(stream_id)
