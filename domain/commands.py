"""Commands: requests in the imperative, which ``decide`` accepts or refuses.

Seat commands carry the seat (0 or 1) that asks. System commands (``StartMatch``, ``Cut``,
``Deal``) come from the service and carry the seed material the domain must not invent.
Cards are written in notation ("7h").
"""

from __future__ import annotations

from datetime import datetime
from typing import Literal

import msgspec

from domain.errors import InvalidCommand
from domain.options import RuleOptions


class _Command(msgspec.Struct, frozen=True, tag_field="type"):
    pass


class StartMatch(_Command, tag="start_match", frozen=True):
    options: RuleOptions = msgspec.field(default_factory=RuleOptions)


class Cut(_Command, tag="cut", frozen=True):
    """Cut for the first deal; ``seed`` is hex seed material (see ``domain.shuffle``)."""

    seed: str


class Deal(_Command, tag="deal", frozen=True):
    """Shuffle and deal the next hand; ``seed`` is hex seed material."""

    seed: str


class ChooseDealer(_Command, tag="choose_dealer", frozen=True):
    """The winner of the cut names who deals the first hand."""

    seat: int
    dealer: int


class TakeUpcard(_Command, tag="take_upcard", frozen=True):
    seat: int


class PassUpcard(_Command, tag="pass_upcard", frozen=True):
    seat: int


class DrawFromStock(_Command, tag="draw_from_stock", frozen=True):
    seat: int


class DrawFromDiscard(_Command, tag="draw_from_discard", frozen=True):
    seat: int


class Discard(_Command, tag="discard", frozen=True):
    seat: int
    card: str


class Knock(_Command, tag="knock", frozen=True):
    """Knock, putting ``card`` face down; ``melds`` None lets the service arrange the rest.

    A named arrangement may leave deadwood within the knock limit, but if the ten cards can
    all be melded the knock is gin, shown with no deadwood, whatever ``melds`` says."""

    seat: int
    card: str
    melds: list[list[str]] | None = None


class BigGin(_Command, tag="big_gin", frozen=True):
    """Go out with all 11 cards in melds, without a discard; named ``melds`` that leave
    cards out are completed when the 11 cards can all be melded."""

    seat: int
    melds: list[list[str]] | None = None


class LayOff(_Command, tag="lay_off", frozen=True):
    """The defender adds ``card`` to the knocker's meld number ``meld`` (0-based)."""

    seat: int
    card: str
    meld: int


class FinishLayoff(_Command, tag="finish_layoff", frozen=True):
    """The defender is done choosing: the best remaining layoffs are made and the hand scored."""

    seat: int


class Resign(_Command, tag="resign", frozen=True):
    """The seat concedes the match: the opponent wins it, the scores stand as they are."""

    seat: int


class StampTime(_Command, tag="stamp_time", frozen=True):
    """The time a decision was received (from the service's clock): restarts the turn clock."""

    at: datetime


class TimeOut(_Command, tag="time_out", frozen=True):
    """The seat's deadline passed before it acted; ``at`` is when the service noticed."""

    seat: int
    at: datetime


class AwaitJoin(_Command, tag="await_join", frozen=True):
    """The invited ``seat`` has ``join_seconds`` from ``at`` (the match's creation) to join;
    ``seat`` None: every invited seat, on one deadline (two seats invited at once)."""

    seat: int | None
    at: datetime


class NoShow(_Command, tag="no_show", frozen=True):
    """The invited ``seat`` had not joined by its deadline; noticed ``at``. ``forfeit``: the
    seat forfeits (an operator's match); otherwise the match is cancelled."""

    seat: int
    at: datetime
    forfeit: bool


class Abandon(_Command, tag="abandon", frozen=True):
    """Nobody has moved for the service's abandonment limit: the match ends with no winner.
    The service finds the match idle from the times its events were stored; the domain only
    refuses a match that is already over."""


Verdict = Literal["forfeit", "award", "void"]


class Adjudicate(_Command, tag="adjudicate", frozen=True):
    """An operator ends the match: ``forfeit`` (``seat`` loses), ``award`` (``seat`` wins) or
    ``void`` (nobody wins; ``seat`` is None), for ``reason``."""

    verdict: Verdict
    seat: int | None
    reason: str


SeatCommand = (
    ChooseDealer
    | TakeUpcard
    | PassUpcard
    | DrawFromStock
    | DrawFromDiscard
    | Discard
    | Knock
    | BigGin
    | LayOff
    | FinishLayoff
    | Resign
)
SystemCommand = (
    StartMatch | Cut | Deal | StampTime | TimeOut | Adjudicate | AwaitJoin | NoShow | Abandon
)
Command = SystemCommand | SeatCommand

COMMAND_TYPES: tuple[type[Command], ...] = (
    StartMatch,
    Cut,
    Deal,
    ChooseDealer,
    TakeUpcard,
    PassUpcard,
    DrawFromStock,
    DrawFromDiscard,
    Discard,
    Knock,
    BigGin,
    LayOff,
    FinishLayoff,
    Resign,
    StampTime,
    TimeOut,
    Adjudicate,
    AwaitJoin,
    NoShow,
    Abandon,
)

_decoder = msgspec.json.Decoder(Command)


def decode_command(data: bytes | str) -> Command:
    """A command from JSON; anything malformed is an ``InvalidCommand`` saying what."""
    try:
        return _decoder.decode(data)
    except msgspec.ValidationError as error:
        raise InvalidCommand(f"the command is malformed: {error}") from None
    except msgspec.DecodeError as error:
        raise InvalidCommand(f"the command is not valid JSON: {error}") from None


def encode_command(command: Command) -> bytes:
    return msgspec.json.encode(command)
