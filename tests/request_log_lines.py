"""The request log's lines as the server writes them, captured for a test."""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Iterator

from web.request_log import JsonFormatter, request_log


class Lines(logging.Handler):
    def __init__(self) -> None:
        super().__init__()
        self.setFormatter(JsonFormatter())
        self.records: list[logging.LogRecord] = []
        self.lines: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)
        self.lines.append(self.format(record))


@contextlib.contextmanager
def captured_lines() -> Iterator[Lines]:
    """Every request line logged inside, at the request log's INFO level."""
    lines = Lines()
    request_log.addHandler(lines)
    level = request_log.level
    request_log.setLevel(logging.INFO)
    try:
        yield lines
    finally:
        request_log.removeHandler(lines)
        request_log.setLevel(level)
