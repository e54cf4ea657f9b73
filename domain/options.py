"""The rule options (docs/rules.md, "Rule options"), with their defaults and descriptions,
validated on construction."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Any, Literal

import msgspec
from msgspec import Meta

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
    "turn_seconds": (0, 86_400),
    "bank_seconds": (0, 864_000),
    "timeouts_to_forfeit": (1, 100),
    "join_seconds": (0, 2_592_000),
}
_FLAGS = ("undercut_on_tie", "oklahoma", "oklahoma_spades_double")


class RuleOptions(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """The rule options of a match.

    Any option left out takes its default. An unknown name, or a value of the wrong type or
    out of range, is refused with a message naming the option.
    """

    knock_limit: Annotated[
        int,
        Meta(
            description="Highest deadwood count a player may knock with, 0 to 10 (default 10). "
            "0 means gin only. Ignored when oklahoma is on."
        ),
    ] = 10
    gin_bonus: Annotated[
        int,
        Meta(
            description="Bonus for gin, added to the defender's deadwood count, 0 to 1000 "
            "(default 25)."
        ),
    ] = 25
    big_gin_bonus: Annotated[
        int,
        Meta(
            description="Bonus for big gin (all 11 cards melded after the draw), added to the "
            "defender's deadwood count, 0 to 1000 (default 31). 0 means big gin is not played."
        ),
    ] = 31
    undercut_bonus: Annotated[
        int,
        Meta(
            description="Bonus for the defender on an undercut, added to the difference in "
            "deadwood, 0 to 1000 (default 25)."
        ),
    ] = 25
    undercut_on_tie: Annotated[
        bool,
        Meta(
            description="Whether equal deadwood on a knock is an undercut (default true). "
            "false: a tie scores nothing, nobody wins the hand, and the same dealer deals again."
        ),
    ] = True
    game_target: Annotated[
        int,
        Meta(
            description="Hand points that end a game, 1 to 10000 (default 100): the game ends "
            "after the hand that takes a player to this total."
        ),
    ] = 100
    game_bonus: Annotated[
        int, Meta(description="Bonus for winning a game, 0 to 1000 (default 100).")
    ] = 100
    line_bonus: Annotated[
        int,
        Meta(
            description="Bonus per hand won, counted for both players at the end of a game, "
            "0 to 1000 (default 25)."
        ),
    ] = 25
    shutout_bonus: Annotated[
        int,
        Meta(
            description="Extra bonus for the winner of a game in which the loser won no hand, "
            "0 to 1000 (default 100)."
        ),
    ] = 100
    match_target: Annotated[
        int,
        Meta(
            description="Match score that ends the match, 0 to 100000 (default 500). "
            "0 means a single game."
        ),
    ] = 500
    oklahoma: Annotated[
        bool,
        Meta(
            description="Oklahoma (default false): each hand's first upcard sets that hand's "
            "knock limit to its value (an ace: gin only; a face card: 10), in place of "
            "knock_limit."
        ),
    ] = False
    oklahoma_spades_double: Annotated[
        bool,
        Meta(
            description="With oklahoma: a spade as the first upcard doubles that "
            "hand's score (default true). No effect without oklahoma."
        ),
    ] = True
    next_dealer: Annotated[
        NextDealer,
        Meta(
            description='Who deals after a hand someone won (default "winner"): "winner", the '
            'winner of the hand; "alternate", the other player, across games too. After a '
            "drawn hand (the wall, or a tie that scores nothing) the same dealer deals again."
        ),
    ] = "winner"
    turn_seconds: Annotated[
        int,
        Meta(
            description="Turn clock: seconds each decision may take before the seat's time "
            "bank runs, 0 to 86400 (default 0); 0 means no clock. When both run out the "
            'server makes the default move (docs/rules.md, "Clocks and timeouts").'
        ),
    ] = 0
    bank_seconds: Annotated[
        int,
        Meta(
            description="With turn_seconds: each seat's time bank for the whole match, spent "
            "by decisions that take longer than turn_seconds, 0 to 864000 (default 0)."
        ),
    ] = 0
    timeouts_to_forfeit: Annotated[
        int,
        Meta(
            description="With turn_seconds: consecutive timeouts after which a seat forfeits "
            "the match, 1 to 100 (default 3)."
        ),
    ] = 3
    join_seconds: Annotated[
        int,
        Meta(
            description="Seconds an invited player has to join, 0 to 2592000 (default 0); 0 "
            "means no limit. A casual match whose invited player has not joined by then is "
            "cancelled; an operator's match is forfeited by the absent seat (see no_show)."
        ),
    ] = 0
    no_show: Annotated[
        Literal["forfeit", "cancel"],
        Meta(
            description="With join_seconds, in an operator's match: what a no-show is "
            '(default "forfeit"): "forfeit", the absent seat forfeits; "cancel", the match '
            "ends with no result. A casual match is always cancelled."
        ),
    ] = "forfeit"

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
        if self.no_show not in ("forfeit", "cancel"):
            raise InvalidOptions('no_show must be "forfeit" or "cancel"')
        if self.bank_seconds and not self.turn_seconds:
            raise InvalidOptions("bank_seconds needs a turn clock: set turn_seconds too")


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
