"""The match services, counting each command by its type and what came of it.

Subclasses rather than changes to ``MatchService`` and ``FormatMatchService``: the use cases
stay as they read, and a composition root that wants no metrics builds the plain ones. Both
count through ``metered``, so a command is counted the same way at every table size.
"""

from __future__ import annotations

from collections.abc import Awaitable
from typing import Any, TypeVar

from domain.commands import SeatCommand
from domain.errors import DomainError
from domain.formats import FormatState
from service.errors import ServiceError, StaleVersion, VersionConflict
from service.matches.formats import FormatMatchService
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

    async def handle(self, match: RegisteredMatch, seat: int, request: CommandRequest) -> Loaded:
        return await metered(self.metrics, request.command, super().handle(match, seat, request))


class MeteredFormatMatchService(FormatMatchService):
    """A three- or four-player seat's command is counted; the bot moves it carries are
    appended within it, not handled as commands of their own."""

    def __init__(self, *args: Any, metrics: Metrics, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.metrics = metrics

    async def handle(
        self,
        match: RegisteredMatch,
        seat: int,
        command: SeatCommand,
        if_match: int | None = None,
        idempotency_key: str | None = None,
    ) -> Loaded[FormatState]:
        handling = super().handle(match, seat, command, if_match, idempotency_key)
        return await metered(self.metrics, command, handling)
