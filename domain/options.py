"""The rule options of RULES.md, with their defaults, validated on construction."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal

import msgspec

from domain.errors import InvalidOptions

NextDealer = Literal["winner", "alternate"]

# Bounds keep a typo (an extra zero, a negative sign) from producing a match nobody can finish.
_POINTS = (0, 1000)
_RANGES: dict[str, tuple[int, int]] = {
    "knock_limit": (0, 10),
    "gin_bonus": _POINTS,
    "big_gin_bonus": _POINTS,
    "undercut_bonus": _POINTS,
    "game_target": (1, 10_000),
    "game_bonus": _POINTS,
    "line_bonus": _POINTS,
    "shutout_bonus": _POINTS,
    "match_target": (0, 100_000),
}
_FLAGS = ("undercut_on_tie", "oklahoma", "oklahoma_spades_double")


class RuleOptions(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """Every option of RULES.md ("Rule options"), defaults as written there.

    ``knock_limit`` 0 means gin only. ``big_gin_bonus`` 0 disables big gin. ``match_target`` 0
    means a single game. With ``oklahoma`` the first upcard of each hand sets that hand's knock
    limit (an ace: gin only; a face card: 10) in place of ``knock_limit``. ``next_dealer``
    "alternate" passes the deal after every scored hand; a drawn hand (the wall, or a tie that
    scores nothing) is always dealt again by the same dealer.
    """

    knock_limit: int = 10
    gin_bonus: int = 25
    big_gin_bonus: int = 31
    undercut_bonus: int = 25
    undercut_on_tie: bool = True
    game_target: int = 100
    game_bonus: int = 100
    line_bonus: int = 25
    shutout_bonus: int = 100
    match_target: int = 500
    oklahoma: bool = False
    oklahoma_spades_double: bool = True
    next_dealer: NextDealer = "winner"

    def __post_init__(self) -> None:
        for name, (low, high) in _RANGES.items():
            value = getattr(self, name)
            if type(value) is not int or not low <= value <= high:
                raise InvalidOptions(f"{name} must be a whole number from {low} to {high}")
        for name in _FLAGS:
            if type(getattr(self, name)) is not bool:
                raise InvalidOptions(f"{name} must be true or false")
        if self.next_dealer not in ("winner", "alternate"):
            raise InvalidOptions('next_dealer must be "winner" or "alternate"')


def parse_options(raw: Mapping[str, Any] | None) -> RuleOptions:
    """Options from untrusted input (e.g. a JSON object); unknown names are refused."""
    try:
        return msgspec.convert(dict(raw or {}), RuleOptions)
    except msgspec.ValidationError as error:
        raise InvalidOptions(_explain(error)) from None


def _explain(error: msgspec.ValidationError) -> str:
    text = str(error)
    if text.startswith("Object contains unknown field `"):
        name = text.split("`")[1]
        return f"{name} is not a rule option"
    if " - at `$." in text:
        detail, where = text.split(" - at `$.")
        name = where.rstrip("`").split("[")[0]
        return f"{name} is not valid: {detail[0].lower()}{detail[1:]}"
    return text
