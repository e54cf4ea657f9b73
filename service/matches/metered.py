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
from service.matches.use_cases import CommandRequest, MatchService
from service.ports.match_registry import RegisteredMatch
from service.ports.metrics import Metrics
from service.store.match_streams import Loaded

T = TypeVar("T")


async def metered(metrics: Metrics, command: SeatCommand, handling: Awaitable[T]) -> T:
    """``handling`` of ``command`` awaited, and counted by the command's type and outcome."""
    # The tag of a command struct: one of the few command types the domain defines.
    command_type = str(type(command).__struct_config__.tag)
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
