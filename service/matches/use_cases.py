"""The use cases of the service, with no HTTP in them: create a match, seat an invited player,
authenticate a seat, handle a seat's command, and read a match's events as a seat may see them,
each written once for every table size: a match's rules (``domain.match_rules``) and its
streams are chosen by its seats.

Handling a command is load -> decide -> append at the loaded version, with every system step
the command makes due (the next deal) in the same append. A command is answered only after its
append has committed. A request reads its match's registry row once, when it is authenticated
(``Seated``), and hands it on; the events a command adds are folded once, where they are
decided, and the answer is made from the state they lead to.

An Idempotency-Key is kept by the event store, with the fingerprint of the request and the
result of the append it made: a retry is recognised before deciding and answered with the
state right after that append. A refused command appends nothing, so nothing remembers it.

Each use case has its own module; ``MatchService`` is made of them, and this module keeps
the names its callers import.
"""

from __future__ import annotations

from service.matches.authenticating import AuthenticatingSeats
from service.matches.creating import SEATS
from service.matches.joining import JOIN_APPEND_TRIES, JoiningMatches
from service.matches.playing import PlayingMatches
from service.matches.reading import ReadingMatches
from service.matches.round_creation import ROUND_STARTS_AT_ONCE, CreatingRounds
from service.matches.service_base import RECORDS_CACHED
from service.matches.timeouts import TimingOut
from service.matches.use_case_types import (
    CommandRequest,
    CreatedMatch,
    PlayerSeat,
    RoundMatch,
    RoundRequest,
    Seated,
    SeatToken,
    _NewMatch,
)

__all__ = [
    "JOIN_APPEND_TRIES",
    "RECORDS_CACHED",
    "ROUND_STARTS_AT_ONCE",
    "SEATS",
    "CommandRequest",
    "CreatedMatch",
    "MatchService",
    "PlayerSeat",
    "RoundMatch",
    "RoundRequest",
    "SeatToken",
    "Seated",
    "_NewMatch",
]


class MatchService(
    CreatingRounds,
    JoiningMatches,
    AuthenticatingSeats,
    PlayingMatches,
    TimingOut,
    ReadingMatches,
):
    """The match use cases, one module each (see this module's docstring)."""
