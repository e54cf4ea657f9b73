"""RULES.md "Scoring a hand": the player who scores the hand has won it, even for 0 points.

At three players such a hand is a hand won: its loser sits out and deals the next, and its
winner's line bonus counts at the game's end. Matches recorded before rules versions read it
the other way (a round worth 0 won by nobody) and keep doing so: a record without a version
replays as it was decided. At four players a team with no net lead has not won the round,
under every version."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TypeVar

import msgspec
import pytest

from domain.errors import InvalidCommand
from domain.events import Scored
from domain.options import RuleOptions
from domain.rules_versions import CURRENT, UNVERSIONED, RulesVersion
from domain.tables import (
    FormatGameWon,
    FormatMatchCreated,
    RoundScored,
    RoundStarted,
    StartFormatMatch,
    TableEvent,
    decide_tables,
    decode_tables_event,
    encode_tables_event,
    fold_tables,
)
from domain.tables.state import TablesState
from tests.unit.format_helpers import FormatMatch, format_match
from tests.unit.helpers import DEFENDER_5

T = TypeVar("T")

# Every card melded: a gin against it scores the gin bonus alone.
NO_DEADWOOD = "6c 7c 8c 7h 8h 9h Th Qc Qd Qs"


@dataclass(frozen=True)
class ZeroPointHand:
    """Seat 2 deals the first hand to seats 0 and 1 and sits it out; seat 0 knocks with
    KNOCKER_MELDS and ``dead`` against ``defender``, and ``winner`` scores 0 points."""

    options: RuleOptions
    dead: str
    defender: str
    outcome: str
    winner: int


HANDS = [
    # 5 against 5 is an undercut: 0 points and a bonus of 0, to the defender.
    pytest.param(ZeroPointHand(RuleOptions(undercut_bonus=0), "5c", DEFENDER_5, "undercut", 1)),
    # Gin against a hand without deadwood: 0 points and a bonus of 0, to the knocker.
    pytest.param(ZeroPointHand(RuleOptions(gin_bonus=0), "5d", NO_DEADWOOD, "gin", 0)),
]
IDS = ["an undercut worth 0", "a gin worth 0"]


def played(hand: ZeroPointHand, rules_version: RulesVersion, game_target: int) -> FormatMatch:
    options = msgspec.structs.replace(hand.options, game_target=game_target, match_target=0)
    match = format_match(3, dealer=2, options=options, rules_version=rules_version)
    match.knock_hand(0, knocker=0, dead=hand.dead, defender=hand.defender)
    scored = [e.event for e in match.events if isinstance(e, TableEvent)][-1]
    assert isinstance(scored, Scored)
    assert (scored.outcome, scored.points) == (hand.outcome, 0)
    assert scored.winner == hand.winner  # match seats 0 and 1 sit at table seats 0 and 1
    return match


def last(match: FormatMatch, kind: type[T]) -> T:
    return [event for event in match.events if isinstance(event, kind)][-1]


def one_for(seat: int) -> list[int]:
    return [1 if side == seat else 0 for side in range(3)]


@pytest.mark.parametrize("hand", HANDS, ids=IDS)
def test_three_a_hand_won_for_0_points_is_won_and_its_loser_sits_out_to_deal(
    hand: ZeroPointHand,
) -> None:
    match = played(hand, CURRENT, game_target=100)
    scored = last(match, RoundScored)
    assert (scored.winner, scored.net, scored.points) == (hand.winner, 0, [0, 0, 0])
    assert (scored.hand_points, scored.hands_won) == ([0, 0, 0], one_for(hand.winner))
    loser = 1 - hand.winner
    begun = last(match, RoundStarted)
    assert (begun.round, begun.dealer_side, begun.sitting_out) == (2, loser, loser)
    assert sorted(begun.tables[0]) == sorted([hand.winner, 2])  # the winner plays the sitter
    assert match.state.hands_won == tuple(one_for(hand.winner))
    assert match.replayed() == match.state


@pytest.mark.parametrize("hand", HANDS, ids=IDS)
def test_three_a_hand_won_for_0_points_earns_its_line_bonus_at_the_game_s_end(
    hand: ZeroPointHand,
) -> None:
    match = played(hand, CURRENT, game_target=5)
    match.knock_hand(0, knocker=2, dead="5d")  # seat 2 gins against the one it plays: 5 or more
    won = last(match, FormatGameWon)
    hands_won = [a + b for a, b in zip(one_for(hand.winner), one_for(2), strict=True)]
    assert (won.winner, won.hands_won) == (2, hands_won)
    assert won.line_bonuses == [25 * count for count in hands_won]
    loser = 1 - hand.winner
    pair = sorted([hand.winner, loser])
    (settled,) = [s for s in won.settlements if s.sides == pair]
    # Between the two who did not win the game, the hand won for 0 is worth its line bonus.
    assert (settled.scored_by, settled.points, settled.shutout_bonus) == (hand.winner, 25, 0)


@pytest.mark.parametrize("hand", HANDS, ids=IDS)
def test_three_a_match_recorded_without_a_rules_version_replays_as_it_was_decided(
    hand: ZeroPointHand,
) -> None:
    match = played(hand, UNVERSIONED, game_target=100)
    scored = last(match, RoundScored)
    assert (scored.winner, scored.net, scored.hands_won) == (None, 0, [0, 0, 0])
    begun = last(match, RoundStarted)
    # Read as a hand nobody won: the same dealer deals the same two again.
    assert (begun.round, begun.dealer_side, begun.sitting_out, begun.tables) == (2, 2, 2, [[0, 1]])

    created = match.events[0]
    assert isinstance(created, FormatMatchCreated)
    # The bytes stored before rules versions: no version in them.
    stored = encode_tables_event(created)
    assert stored == msgspec.json.encode(
        {"type": "format_match_created", "players": 3, "options": created.options}
    )
    stored_events = [encode_tables_event(event) for event in match.events]
    decoded = [decode_tables_event(data) for data in stored_events]
    assert decoded == match.events
    assert fold_tables(decoded) == match.state
    assert fold_tables(decoded).rules_version == UNVERSIONED


def test_a_new_match_records_the_current_rules_version() -> None:
    (created,) = decide_tables(TablesState(), StartFormatMatch(players=3))
    assert isinstance(created, FormatMatchCreated)
    assert created.rules_version == CURRENT == 2
    stored = encode_tables_event(created)
    assert stored.endswith(b',"rules_version":2}')
    assert decode_tables_event(stored) == created
    assert fold_tables([created]).rules_version == CURRENT


@pytest.mark.parametrize("version", [0, 3, True, "2"])
def test_an_unknown_rules_version_is_refused(version: object) -> None:
    command = StartFormatMatch(players=3, rules_version=version)  # type: ignore[arg-type]
    with pytest.raises(InvalidCommand, match=r"rules_version must be one of \[1, 2\]"):
        decide_tables(TablesState(), command)
    with pytest.raises(msgspec.ValidationError):
        decode_tables_event(
            msgspec.json.encode(
                {"type": "format_match_created", "players": 3, "options": {}, "rules_version": 3}
            )
        )


@pytest.mark.parametrize("version", [UNVERSIONED, CURRENT])
def test_four_a_team_without_a_net_lead_has_not_won_the_round(version: RulesVersion) -> None:
    options = RuleOptions(undercut_bonus=0)
    match = format_match(4, dealer=0, options=options, rules_version=version)
    assert last(match, RoundStarted).tables == [[1, 0], [3, 2]]  # team 0 deals
    match.deal_knock(0, knocker=0, dead="5c")  # 5 against 5: seat 1 (team 1) undercuts for 0
    match.deal_wall(1)
    match.play(0)
    match.play(1)
    scored = last(match, RoundScored)
    assert (scored.points, scored.winner, scored.net, scored.hands_won) == ([0, 0], None, 0, [0, 0])
    begun = last(match, RoundStarted)
    assert (begun.round, begun.dealer_side) == (2, 0)  # the same team deals again
