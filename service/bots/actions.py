"""Picking commands out of a view's legal actions, so a bot never builds one of its own
(but for a knock naming its melds)."""

from __future__ import annotations

from typing import TypeVar

from domain.cards import Card, card_name, parse_card
from domain.commands import ChooseDealer, Command, Discard, FinishLayoff, Knock
from domain.views import SeatView

C = TypeVar("C", bound=Command)


def legal_of(view: SeatView, kind: type[C]) -> list[C]:
    return [action for action in view.legal_actions if isinstance(action, kind)]


def first_of(view: SeatView, kind: type[C]) -> C | None:
    return next((action for action in view.legal_actions if isinstance(action, kind)), None)


def discardable(view: SeatView) -> list[Card]:
    """The cards this seat may discard now (not the one it just took from the pile)."""
    return [parse_card(action.card) for action in legal_of(view, Discard)]


def knockable(view: SeatView) -> list[Card]:
    """The cards this seat may knock with now, keeping its deadwood within the limit."""
    return [parse_card(action.card) for action in legal_of(view, Knock)]


def discard(view: SeatView, card: Card) -> Discard:
    return Discard(seat=view.seat, card=card_name(card))


def knock_with(view: SeatView, card: Card) -> Knock:
    """A knock putting ``card`` face down, the service arranging the rest."""
    return Knock(seat=view.seat, card=card_name(card))


def require_a_move(view: SeatView) -> None:
    if not view.legal_actions:
        raise ValueError(f"seat {view.seat} has nothing to do now (phase {view.phase})")


def between_hands(view: SeatView) -> Command:
    """The moves that need no judgement: naming the first dealer (the other seat, since the
    non-dealer is offered the upcard and draws first) and closing the layoffs (the rules
    then make the best layoffs left, so finishing at once loses nothing)."""
    finish = first_of(view, FinishLayoff)
    if finish is not None:
        return finish
    for action in legal_of(view, ChooseDealer):
        if action.dealer != view.seat:
            return action
    return view.legal_actions[0]
