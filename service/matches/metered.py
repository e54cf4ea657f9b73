"""The match service, counting each command by its type and what came of it.

A subclass rather than a change to ``MatchService``: the use case stays as it reads, and a
composition root that wants no metrics builds the plain one.
"""

from __future__ import annotations

from typing import Any

from domain.errors import DomainError
from service.errors import ServiceError, StaleVersion, VersionConflict
from service.matches.use_cases import CommandRequest, MatchService
from service.ports.match_registry import RegisteredMatch
from service.ports.metrics import Metrics
from service.store.match_streams import Loaded


class MeteredMatchService(MatchService):
    def __init__(self, *args: Any, metrics: Metrics, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.metrics = metrics

    async def handle(self, match: RegisteredMatch, seat: int, request: CommandRequest) -> Loaded:
        # The tag of a command struct: one of the few command types the domain defines.
        command_type = str(type(request.command).__struct_config__.tag)
        try:
            after = await super().handle(match, seat, request)
        except (VersionConflict, StaleVersion):
            self.metrics.command(command_type, "conflict")
            raise
        except (DomainError, ServiceError):
            self.metrics.command(command_type, "refused")
            raise
        except Exception:
            self.metrics.command(command_type, "error")
            raise
        self.metrics.command(command_type, "applied")
        return after
