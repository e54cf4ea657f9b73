"""The live streams a server process has open, and how they end when it is told to stop.

A stream waits for wake-ups for as long as its client listens, and granian waits for every
open connection before it stops a worker (and only then runs the app's shutdown): a server
with a browser attached would never stop. So the stop signals themselves (SIGTERM, and SIGINT
from Ctrl+C) end the streams: each is woken and sends one last message whose ``retry`` field
tells the client when to reconnect (to another server, or to this one started again), and
ends; the server's own handling of the signal goes on as before. The app's shutdown ends any
stream still open the same way, and waits for them no longer than ``GRACE_SECONDS``.
"""

from __future__ import annotations

import asyncio
import contextlib
import signal
import threading
from collections.abc import AsyncIterator, Callable, Iterator
from types import FrameType
from typing import Any

from service.stopping import GRACE_SECONDS

# What a stream's last message asks of the client: reconnect after this many milliseconds.
RECONNECT_MILLISECONDS = 1000
STOP_SIGNALS = (signal.SIGTERM, signal.SIGINT)


class LiveStreams:
    def __init__(self, wake_all: Callable[[], None]) -> None:
        self.stopping = False
        self._wake_all = wake_all  # wakes every stream waiting for events
        self._open = 0
        self._none_open = asyncio.Event()
        self._none_open.set()

    @contextlib.contextmanager
    def opened(self) -> Iterator[None]:
        """Counts one stream as open while inside."""
        self._open += 1
        self._none_open.clear()
        try:
            yield
        finally:
            self._open -= 1
            if self._open == 0:
                self._none_open.set()

    def end_all(self) -> None:
        """Every stream sends its last message and ends; any opened from now on too."""
        self.stopping = True
        self._wake_all()

    async def stop(self, grace: float = GRACE_SECONDS) -> None:
        self.end_all()
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._none_open.wait(), grace)


@contextlib.asynccontextmanager
async def ending_live_streams(wake_all: Callable[[], None]) -> AsyncIterator[LiveStreams]:
    """The app's live streams, ended by a stop signal or, at the latest, when leaving."""
    streams = LiveStreams(wake_all)
    restore = _on_stop_signals(asyncio.get_running_loop(), streams.end_all)
    try:
        yield streams
    finally:
        restore()
        await streams.stop()


def _on_stop_signals(
    loop: asyncio.AbstractEventLoop, call: Callable[[], None]
) -> Callable[[], None]:
    """Have ``call`` run in ``loop`` on a stop signal, before whatever handled it already;
    returns what puts the handlers back. Only the main thread may set handlers: elsewhere
    (an app run by a test client's thread) nothing is done.

    Set with ``signal.signal``, chained to the handler found: granian's workers (through
    asyncio's ``add_signal_handler``, whose loop is woken by the wake-up fd whichever Python
    handler is set) and uvicorn (a handler of its own) go on handling the signal as before."""
    if threading.current_thread() is not threading.main_thread():
        return lambda: None
    previous: dict[int, Any] = {}

    def handler(signum: int, frame: FrameType | None) -> None:
        # Its loop may be closed by now: two apps in one process restore out of order.
        with contextlib.suppress(RuntimeError):
            loop.call_soon_threadsafe(call)
        chained = previous.get(signum)
        if callable(chained):
            chained(signum, frame)
        elif chained == signal.SIG_DFL:
            signal.signal(signum, signal.SIG_DFL)
            signal.raise_signal(signum)

    for signum in STOP_SIGNALS:
        previous[signum] = signal.signal(signum, handler)

    def restore() -> None:
        for signum, chained in previous.items():
            if signal.getsignal(signum) is handler and chained is not None:
                signal.signal(signum, chained)

    return restore
