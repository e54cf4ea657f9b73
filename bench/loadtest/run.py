"""One load run: for each number of concurrent matches M, M pairs of clients play matches over
HTTP, every finished match's record is verified, and then the raw PostgreSQL insert rate with M
connections is measured on the same database, so the two numbers sit side by side.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Sequence
from dataclasses import dataclass, field

import httpx

from bench.loadtest.players import COMMAND, Client, play_one
from bench.loadtest.records import check_records
from bench.loadtest.stats import Stats
from bench.reference import raw_inserts


@dataclass(frozen=True)
class LoadOptions:
    matches: Sequence[int] = (8,)  # concurrent matches, one level each
    rounds: int = 2  # matches each pair of clients plays in turn
    game_target: int = 30
    seed: str = "gin"
    raw_seconds: float = 3.0


@dataclass
class Level:
    """What one level of concurrency measured."""

    concurrent: int
    stats: Stats
    seconds: float
    client_cpu_seconds: float  # what the clients themselves cost, on this machine's cores
    started: int
    finished: list[str]
    record_problems: dict[str, str] = field(default_factory=dict)  # by match id
    raw_inserts_per_second: float | None = None

    @property
    def commands(self) -> int:
        return self.stats.count(COMMAND)

    @property
    def commands_per_second(self) -> float:
        return self.commands / self.seconds if self.seconds else 0.0

    @property
    def passed(self) -> bool:
        return (
            not self.stats.errors
            and len(self.finished) == self.started
            and not self.record_problems
        )


async def run_levels(url: str, database_url: str | None, options: LoadOptions) -> list[Level]:
    levels = []
    for concurrent in options.matches:
        level = await play_level(url, concurrent, options)
        if database_url is not None:
            raw = await raw_inserts(database_url, concurrent, seconds=options.raw_seconds)
            level.raw_inserts_per_second = raw.rate
        levels.append(level)
    return levels


async def play_level(url: str, concurrent: int, options: LoadOptions) -> Level:
    stats = Stats()
    finished: list[str] = []
    game = {"game_target": options.game_target, "match_target": 0}
    connections = 2 * concurrent + 2
    # An idle connection is dropped by the client well before any server's keep-alive timeout
    # (uvicorn's is 5 s), so a request never races the server closing the connection under it.
    limits = httpx.Limits(
        max_connections=connections, max_keepalive_connections=connections, keepalive_expiry=1.0
    )
    async with httpx.AsyncClient(base_url=url, timeout=30.0, limits=limits) as http:
        client = Client(http, stats)

        async def pair(number: int) -> None:
            for round_ in range(options.rounds):
                seed = f"{options.seed}:{concurrent}:{number}:{round_}"
                match_id = await play_one(client, game, seed)
                if match_id is not None:
                    finished.append(match_id)

        started, cpu = time.perf_counter(), time.process_time()
        await asyncio.gather(*(pair(number) for number in range(concurrent)))
        seconds, cpu = time.perf_counter() - started, time.process_time() - cpu
        problems = await check_records(client, finished)
    played = concurrent * options.rounds
    return Level(concurrent, stats, seconds, cpu, played, finished, problems)
