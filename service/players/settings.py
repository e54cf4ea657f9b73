"""How long a quick match waits and how long invites last: the operator's choice, read from
the environment by ``web.settings`` (docs/operations.md)."""

from __future__ import annotations

from datetime import timedelta

import msgspec

# The longest an invite may last, whatever is configured: the request schema says so too.
INVITE_CEILING_SECONDS = 7 * 24 * 3600


class PlayerTimes(msgspec.Struct, frozen=True, kw_only=True):
    """``invite_seconds``: an invite's or a rematch offer's life when the request names none;
    ``invite_max_seconds``: the most a request may ask for (more is shortened to it)."""

    quick_match_wait_seconds: int = 120
    invite_seconds: int = 24 * 3600
    invite_max_seconds: int = INVITE_CEILING_SECONDS

    @property
    def quick_match_wait(self) -> timedelta:
        return timedelta(seconds=self.quick_match_wait_seconds)

    @property
    def invite(self) -> timedelta:
        return timedelta(seconds=self.invite_seconds)

    @property
    def invite_max(self) -> timedelta:
        return timedelta(seconds=self.invite_max_seconds)
