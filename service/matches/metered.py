"""The match service, counting each command by its type and what came of it, at every table
size.

A subclass rather than a change to ``MatchService``: the use cases stay as they read, and a
composition root that wants no metrics builds the plain one.
"""

from __future__ import annotations

from collections.abc import Awaitable
from typing import Any, TypeVar

from domain.commands import SeatCommand
from domain.errors import DomainError
from service.errors import ServiceError, StaleVersion, VersionConflict
from service.matches.playing import BotChoice
from service.matches.use_cases import CommandRequest, MatchService
from service.ports.event_store import ConcurrencyConflict
from service.ports.match_registry import RegisteredMatch
from service.ports.metrics import Metrics
from service.store.match_streams import Loaded

T = TypeVar("T")


async def metered(metrics: Metrics, command: SeatCommand, handling: Awaitable[T]) -> T:
    """``handling`` of ``command`` awaited, and counted by the command's type and outcome."""
    # The tag of a command struct: one of the few command types the domain defines.
    command_type = _tag(command)
    try:
        after = await handling
    except (VersionConflict, StaleVersion):
        metrics.command(command_type, "conflict")
        raise
    except (DomainError, ServiceError):
        metrics.command(command_type, "refused")
        raise
    except Exception:
        metrics.command(command_type, "error")
        raise
    metrics.command(command_type, "applied")
    return after


class MeteredMatchService(MatchService):
    def __init__(self, *args: Any, metrics: Metrics, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.metrics = metrics

    async def handle(
        self, match: RegisteredMatch, seat: int, request: CommandRequest
    ) -> Loaded[Any]:
        return await metered(self.metrics, request.command, super().handle(match, seat, request))

    async def play_bots(
        self, match: RegisteredMatch, loaded: Loaded[Any], choose: BotChoice, *, limit: int
    ) -> Loaded[Any]:
        """Each bot move counted as a command of its own, as it was decided."""
        chosen: list[SeatCommand] = []

        def counted(state: Any) -> tuple[int, SeatCommand] | None:
            move = choose(state)
            if move is not None:
                chosen.append(move[1])
            return move

        try:
            after = await super().play_bots(match, loaded, counted, limit=limit)
        except ConcurrencyConflict:
            for command in chosen:
                self.metrics.command(_tag(command), "conflict")
            raise
        for command in chosen:
            self.metrics.command(_tag(command), "applied")
        return after


def _tag(command: SeatCommand) -> str:
    return str(type(command).__struct_config__.tag)
