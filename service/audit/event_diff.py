"""Naming the first way recorded events differ from the events the rules give.

Each message says where (the version), which event and which field, with both values, so a
person can look the discrepancy up in the record: "version 88: Scored says 23 points, the rules
give 21". A dealt hand is compared card by card in the order the cards were dealt.
"""

from __future__ import annotations

from collections.abc import Sequence

import msgspec

from domain import Dealt, Scored
from domain.tables import TableEvent


class Discrepancy(Exception):  # noqa: N818  (named for what the verifier finds)
    """The first thing in a record that does not hold; ``str()`` says what, precisely."""


def name(event: object) -> str:
    return type(event).__name__


def first_difference(
    recorded: Sequence[tuple[int, msgspec.Struct]],
    expected: Sequence[msgspec.Struct],
    after_version: int,
) -> str | None:
    """The first difference between ``recorded`` (with versions) and ``expected``, or None."""
    for index, want in enumerate(expected):
        if index >= len(recorded):
            last = recorded[-1][0] if recorded else after_version
            return f"the record ends at version {last}, where the rules go on with {name(want)}"
        version, have = recorded[index]
        if have == want:
            continue
        return f"version {version}: {_field_difference(have, want)}"
    return None


def _field_difference(have: msgspec.Struct, want: msgspec.Struct) -> str:
    # Fields are compared only between events of one type: a table's event may wrap another
    # type than the rules give, and then that is the difference.
    if type(have) is not type(want):
        return f"the record has {name(have)} where the rules give {name(want)}"
    if (
        isinstance(have, TableEvent)
        and isinstance(want, TableEvent)
        and (have.table, have.seats) == (want.table, want.seats)
    ):
        return f"at table {have.table}, {_field_difference(have.event, want.event)}"
    if isinstance(have, Dealt) and isinstance(want, Dealt):
        dealt = _deal_difference(have, want)
        if dealt is not None:
            return f"Dealt does not match the deck from the revealed seed: {dealt}"
    for field in have.__struct_fields__:
        mine, theirs = getattr(have, field), getattr(want, field)
        if mine == theirs:
            continue
        if isinstance(have, Scored) and field == "points":
            return f"Scored says {mine} points, the rules give {theirs}"
        return f"{name(have)} says {field} {_show(mine)}, the rules give {_show(theirs)}"
    return f"{name(have)} differs from what the rules give"


def _deal_difference(have: Dealt, want: Dealt) -> str | None:
    for seat, (mine, theirs) in enumerate(zip(have.hands, want.hands, strict=False)):
        for card, expected in zip(mine, theirs, strict=False):
            if card != expected:
                return f"seat {seat}'s hand has {card} where the seed gives {expected}"
        if len(mine) != len(theirs):
            return f"seat {seat} is dealt {len(mine)} cards where the seed gives {len(theirs)}"
    if have.upcard != want.upcard:
        return f"the upcard is {have.upcard} where the seed gives {want.upcard}"
    for position, (card, expected) in enumerate(zip(have.stock, want.stock, strict=False), 1):
        if card != expected:
            return f"stock card {position} is {card} where the seed gives {expected}"
    if len(have.stock) != len(want.stock):
        return f"the stock holds {len(have.stock)} cards where the seed gives {len(want.stock)}"
    return None


def _show(value: object) -> str:
    return msgspec.json.encode(value).decode()
