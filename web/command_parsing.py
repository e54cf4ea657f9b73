"""A seat's command from an HTTP body, with a precise refusal for each way it can be wrong.

Malformed JSON, a body that is not a command object, an unknown or server-only command type,
a seat other than the token's, and fields of the wrong type are told apart here; a command
that is well formed but breaks the rules is for ``decide`` to refuse.
"""

from __future__ import annotations

from typing import Any

import msgspec

from domain.commands import SeatCommand, SystemCommand
from service.errors import InvalidRequest, MalformedJson, NotYourSeat, UnknownCommand


def _tags(union: Any) -> tuple[str, ...]:
    return tuple(cls.__struct_config__.tag for cls in union.__args__)


# The longest command (a knock laying off every card in melds) is a few hundred bytes; the cap
# keeps a card "name" of 60 KB from being decoded, checked and echoed in a refusal.
MAX_COMMAND_BYTES = 4096

SEAT_COMMAND_TAGS = _tags(SeatCommand)
SYSTEM_COMMAND_TAGS = _tags(SystemCommand)
# What each command's body may hold: its fields and its type (the domain's structs take
# unknown fields silently, as events read back from the store must).
FIELDS_OF = {
    cls.__struct_config__.tag: frozenset(cls.__struct_fields__) | {"type"}
    for cls in SeatCommand.__args__
}


def parse_seat_command(body: bytes, seat: int) -> SeatCommand:
    """The command in ``body``; a missing ``seat`` means the token's own seat."""
    if len(body) > MAX_COMMAND_BYTES:
        raise InvalidRequest(f"a command is at most {MAX_COMMAND_BYTES} bytes")
    try:
        raw = msgspec.json.decode(body)
    except msgspec.DecodeError as error:
        raise MalformedJson(f"the body is not valid JSON: {error}") from None
    if not isinstance(raw, dict):
        raise InvalidRequest('a command is a JSON object such as {"type": "draw_from_stock"}')
    kind = raw.get("type")
    if kind in SYSTEM_COMMAND_TAGS:
        raise UnknownCommand(f"{kind} is done by the server, not by a seat")
    if kind not in SEAT_COMMAND_TAGS:
        named = "no type" if kind is None else f"type {kind!r}"
        raise UnknownCommand(
            f"a command with {named} does not exist; the commands are: "
            + ", ".join(SEAT_COMMAND_TAGS)
        )
    unknown = sorted(set(raw) - FIELDS_OF[kind])
    if unknown:
        raise InvalidRequest(
            f"the {kind} command has no field {', '.join(map(repr, unknown))}; its fields are: "
            + ", ".join(sorted(FIELDS_OF[kind]))
        )
    raw.setdefault("seat", seat)
    if raw["seat"] != seat:
        raise NotYourSeat(f"this token acts for seat {seat}, not seat {raw['seat']!r}")
    try:
        command: SeatCommand = msgspec.convert(raw, SeatCommand)
    except msgspec.ValidationError as error:
        raise InvalidRequest(f"the {kind} command is malformed: {error}") from None
    return command
