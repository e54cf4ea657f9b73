"""The load run's table: one row per level of concurrency, then whatever went wrong."""

from __future__ import annotations

from collections.abc import Sequence

from bench.loadtest.players import COMMAND, VIEW
from bench.loadtest.run import Level

HEADER = (
    "M",
    "matches",
    "commands",
    "cmd/s",
    "p50 ms",
    "p90 ms",
    "p99 ms",
    "max ms",
    "view p99 ms",
    "client CPU",
    "errors",
    "records clean",
    "raw INSERT/s",
    "cmd/s : raw",
)


def table(levels: Sequence[Level]) -> str:
    rows = [HEADER, *(_row(level) for level in levels)]
    widths = [max(len(row[i]) for row in rows) for i in range(len(HEADER))]
    lines = ["  ".join(cell.rjust(w) for cell, w in zip(row, widths, strict=True)) for row in rows]
    lines.insert(1, "  ".join("-" * w for w in widths))
    return "\n".join(lines)


def failures(levels: Sequence[Level]) -> list[str]:
    lines = []
    for level in levels:
        for kind, count in sorted(level.stats.errors.items()):
            lines.append(f"M={level.concurrent}: {count} x {kind}")
        unfinished = level.started - len(level.finished)
        if unfinished:
            lines.append(f"M={level.concurrent}: {unfinished} match(es) did not finish")
        for match_id, problem in sorted(level.record_problems.items()):
            lines.append(f"M={level.concurrent}: the record of {match_id}: {problem}")
    return lines


def _row(level: Level) -> tuple[str, ...]:
    spread = level.stats.milliseconds(COMMAND)
    views = level.stats.milliseconds(VIEW)
    raw = level.raw_inserts_per_second
    clean = len(level.finished) - len(level.record_problems)
    return (
        str(level.concurrent),
        f"{len(level.finished)}/{level.started}",
        str(level.commands),
        f"{level.commands_per_second:,.0f}",
        *(_ms(spread.get(key)) for key in ("p50", "p90", "p99", "max")),
        _ms(views.get("p99")),
        f"{level.client_cpu_seconds / level.seconds:.0%}" if level.seconds else "-",
        str(sum(level.stats.errors.values())),
        f"{clean}/{len(level.finished)}",
        "n/a" if raw is None else f"{raw:,.0f}",
        "n/a" if not raw else f"{level.commands_per_second / raw:.2f}",
    )


def _ms(value: float | None) -> str:
    return "-" if value is None else f"{value:.1f}"
