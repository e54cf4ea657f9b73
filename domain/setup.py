"""Deciding the system commands: creating the match, the cut, choosing the dealer, the deal."""

from __future__ import annotations

from collections.abc import Sequence

from domain.cards import Card, names, rank_of, suit_of, value_of
from domain.commands import ChooseDealer, Cut, Deal, StartMatch
from domain.errors import InvalidCommand, InvalidOptions
from domain.events import CardsCut, DealerChosen, Dealt, Event, MatchCreated
from domain.guards import checked_seat, require_system_phase, require_turn
from domain.options import RuleOptions
from domain.shuffle import cut_pairs, seed_bytes, shuffled_deck
from domain.state import HandState, MatchState, Phase

HAND_SIZE = 10
_SPADES = 3


def start_match(state: MatchState, command: StartMatch) -> list[Event]:
    if not isinstance(command.options, RuleOptions):
        raise InvalidOptions("options must be a set of rule options")
    require_system_phase(state, Phase.START, "create the match")
    return [MatchCreated(options=command.options)]


def cut(state: MatchState, command: Cut) -> list[Event]:
    seed = seed_bytes(command.seed)
    require_system_phase(state, Phase.CUT, "cut for the deal")
    pairs = cut_pairs(seed)
    first, second = pairs[-1]
    winner = 0 if rank_of(first) > rank_of(second) else 1
    return [CardsCut(pairs=[names(pair) for pair in pairs], winner=winner)]


def choose_dealer(state: MatchState, command: ChooseDealer) -> list[Event]:
    seat = checked_seat(command.seat)
    if command.dealer not in (0, 1) or type(command.dealer) is not int:
        raise InvalidCommand("the dealer must be seat 0 or seat 1")
    require_turn(state, seat, Phase.CHOOSE_DEALER, "choose the dealer")
    return [DealerChosen(seat=seat, dealer=command.dealer)]


def deal(state: HandState, command: Deal) -> list[Event]:
    seed = seed_bytes(command.seed)
    require_system_phase(state, Phase.DEAL, "deal")
    return [dealt_from_deck(state, shuffled_deck(seed))]


def dealt_from_deck(state: HandState, deck: Sequence[Card]) -> Dealt:
    """Deal ``deck`` from the top (index 0): one card at a time, the non-dealer first, ten
    each; the next card is the upcard, the rest the stock in draw order."""
    dealer = state.dealer
    assert dealer is not None
    hands: list[list[str]] = [[], []]
    hands[1 - dealer] = names(deck[0 : 2 * HAND_SIZE : 2])
    hands[dealer] = names(deck[1 : 2 * HAND_SIZE : 2])
    upcard = deck[2 * HAND_SIZE]
    knock_limit, multiplier = hand_terms(upcard, state.options)
    return Dealt(
        game=state.game,
        hand=state.hand + 1,
        dealer=dealer,
        hands=hands,
        upcard=names([upcard])[0],
        stock=names(deck[2 * HAND_SIZE + 1 :]),
        knock_limit=knock_limit,
        multiplier=multiplier,
    )


def hand_terms(upcard: Card, options: RuleOptions) -> tuple[int, int]:
    """The hand's knock limit and score multiplier. With Oklahoma the upcard's value is the
    limit (an ace: gin only) and a spade upcard may double the hand."""
    if not options.oklahoma:
        return options.knock_limit, 1
    limit = 0 if rank_of(upcard) == 0 else value_of(upcard)
    doubled = options.oklahoma_spades_double and suit_of(upcard) == _SPADES
    return limit, 2 if doubled else 1
