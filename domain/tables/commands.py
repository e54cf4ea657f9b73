"""Commands of a three- or four-player match. Seats send the two-player seat commands with
their match seat; the service sends the system commands, with the seeds."""

from __future__ import annotations

from datetime import datetime

import msgspec

from domain.commands import Abandon, Adjudicate, AwaitJoin, NoShow, SeatCommand, TimeOut
from domain.errors import InvalidCommand
from domain.options import RuleOptions
from domain.rules_versions import CURRENT, RulesVersion
from domain.tables.events import Players


class _SystemCommand(msgspec.Struct, frozen=True, tag_field="type"):
    pass


class StartFormatMatch(_SystemCommand, tag="start_format_match", frozen=True):
    """A new match is played by the current rules; a verifier re-running a record sends the
    version it recorded."""

    players: Players
    options: RuleOptions = msgspec.field(default_factory=RuleOptions)
    rules_version: RulesVersion = CURRENT


class CutSeats(_SystemCommand, tag="cut_seats", frozen=True):
    """Every seat cuts for the first deal; ``seed`` is hex seed material."""

    seed: str


class DealTable(_SystemCommand, tag="deal_table", frozen=True):
    """Shuffle and deal the next table of the round still to be dealt, from its own deck."""

    seed: str


class StampClocks(_SystemCommand, tag="stamp_clocks", frozen=True):
    """A decision was made, or a hand dealt, at each of ``tables``, received ``at``: their
    turn clocks restart (``domain.clocks.stamp_time``, table by table)."""

    at: datetime
    tables: list[int]


# The two-player commands with match seats (``AwaitJoin``'s seat is not used: one deadline
# serves every invited seat).
FormatSystemCommand = (
    StartFormatMatch
    | CutSeats
    | DealTable
    | StampClocks
    | TimeOut
    | Adjudicate
    | Abandon
    | AwaitJoin
    | NoShow
)
FormatCommand = FormatSystemCommand | SeatCommand

_decoder = msgspec.json.Decoder(FormatCommand)


def decode_tables_command(data: bytes | str) -> FormatCommand:
    try:
        return _decoder.decode(data)
    except (msgspec.ValidationError, msgspec.DecodeError) as error:
        raise InvalidCommand(f"the command is malformed: {error}") from None
