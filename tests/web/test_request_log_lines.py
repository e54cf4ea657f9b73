"""A request's log line is made on a short path (fields encoded once, no ``extra`` scan); it
must read byte for byte as the general path writes the same fields."""

from __future__ import annotations

import json
import logging
from collections.abc import Iterator

import pytest

from tests.request_log_lines import Lines, captured_lines
from web.request_log import JsonFormatter, log_request, request_log


@pytest.fixture
def lines() -> Iterator[Lines]:
    with captured_lines() as handler:
        yield handler


@pytest.mark.parametrize(
    ("scope", "seconds"),
    [
        ({"method": "POST", "path": "/matches/x/commands", "client": ("10.0.0.7", 5)}, 0.01234),
        ({"method": "GET", "path": '/odd "path" \u00e9'}, None),
    ],
)
def test_a_request_line_reads_as_the_general_formatter_writes_it(
    lines: Lines, scope: dict[str, object], seconds: float | None
) -> None:
    log_request(scope, 201, seconds)  # type: ignore[arg-type]
    (record,) = lines.records
    client = scope.get("client")
    general = logging.LogRecord("gin.requests", logging.INFO, __file__, 0, "request", None, None)
    general.created = record.created
    for name, value in {
        "method": scope["method"],
        "path": scope["path"],
        "status": 201,
        "duration_ms": None if seconds is None else round(seconds * 1000, 2),
        "client": client[0] if isinstance(client, tuple) else None,
    }.items():
        setattr(general, name, value)
    assert lines.lines == [JsonFormatter().format(general)]
    assert list(json.loads(lines.lines[0])) == [
        *("time", "level", "logger", "message"),
        *("method", "path", "status", "duration_ms", "client"),
    ]


def test_no_request_line_below_its_level(lines: Lines) -> None:
    request_log.setLevel(logging.WARNING)
    log_request({"method": "GET", "path": "/health"}, 200, 0.001)  # type: ignore[arg-type]
    assert lines.lines == []
