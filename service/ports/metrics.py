"""The metrics port: what the service counts, in words the use cases know.

Every label value passed here comes from a small closed set (a command's type, an outcome, a
route template, a problem's kind): never a token, a key, an id or a card, so no series can
grow without bound or tell a secret.
"""

from __future__ import annotations

from typing import Literal, Protocol

CommandOutcome = Literal["applied", "refused", "conflict", "error"]
DeliveryOutcome = Literal["delivered", "refused", "unreachable"]


class Metrics(Protocol):
    def command(self, command_type: str, outcome: CommandOutcome) -> None:
        """One command handled: its type (``discard``, ``knock``...) and what came of it."""
        ...

    def appended(self, events: int) -> None:
        """One append committed, of ``events`` events."""
        ...

    def append_conflict(self) -> None:
        """One append refused because its stream had moved on."""
        ...

    def webhook_delivery(self, outcome: DeliveryOutcome) -> None:
        """One attempt to deliver a webhook."""
        ...

    def request(self, method: str, route: str, status: int, seconds: float) -> None:
        """One HTTP request, by its route's template (``/matches/{match_id}/view``)."""
        ...

    def problem(self, kind: str, status: int) -> None:
        """One problem+json answer, by its kind (``not-your-turn``, ``version-conflict``...)."""
        ...
