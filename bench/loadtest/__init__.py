"""The load test, ``python3 dev.py loadtest``: concurrent matches over HTTP against the raw
PostgreSQL insert rate. A development tool, not part of the service: it needs only the ``dev``
extra (``httpx``)."""

from bench.loadtest.command import main

__all__ = ["main"]
