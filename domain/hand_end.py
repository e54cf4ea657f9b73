"""The events that close a knocked hand (the last layoffs and the score), and those that close
a two-player game and match after a hand's score (``game_end``): a hand ends no game of its
own, as at the tables of a larger match, where the round's score decides the game.

Each event is folded as it is made, so the next one is decided on the state it leads to.
"""

from __future__ import annotations

from domain.cards import CARD_NAMES, Mask, cards_of, names
from domain.events import Event, GameWon, LaidOff, MatchWon, Scored
from domain.evolve import evolve, evolve_hand
from domain.melds import defender_result, layoff_targets
from domain.scoring import game_winner, match_winner, score_hand, tally_game
from domain.state import HandState, KnockState, MatchState


def can_lay_off(state: HandState) -> bool:
    """Whether any card of the defender fits a meld of the knocker as it stands now."""
    knock = _knock(state)
    if knock.gin or knock.big_gin:
        return False
    melds = knock.melds
    return any(layoff_targets(card, melds) for card in cards_of(state.hands[1 - knock.knocker]))


def close_hand(state: HandState) -> list[Event]:
    """Lay off the best of what the defender holds and score the hand."""
    knock = _knock(state)
    defender = 1 - knock.knocker
    result = defender_result(
        state.hands[defender], knock.melds, layoffs_allowed=not (knock.gin or knock.big_gin)
    )
    events: list[Event] = []
    for card, meld in result.layoffs:
        laid = LaidOff(seat=defender, card=CARD_NAMES[card], meld=meld)
        events.append(laid)
        state = evolve_hand(state, laid)
    scored = _scored(state, result.count, result.melds, result.deadwood)
    events.append(scored)
    return events


def _scored(
    state: HandState, defender_count: int, defender_melds: tuple[Mask, ...], dead: Mask
) -> Scored:
    knock = _knock(state)
    knocker, defender = knock.knocker, 1 - knock.knocker
    score = score_hand(
        knocker,
        knock.count,
        defender_count,
        gin=knock.gin,
        big_gin=knock.big_gin,
        multiplier=state.multiplier,
        options=state.options,
    )
    points = list(state.hand_points)
    if score.winner is not None:
        points[score.winner] += score.points
    return Scored(
        knocker=knocker,
        outcome=score.outcome,
        winner=score.winner,
        points=score.points,
        multiplier=state.multiplier,
        knocker_deadwood=knock.count,
        defender_deadwood=defender_count,
        knock_card=None if knock.card is None else CARD_NAMES[knock.card],
        knocker_melds=[names(cards_of(meld)) for meld in knock.shown_melds],
        defender_melds=[names(cards_of(meld)) for meld in defender_melds],
        defender_deadwood_cards=names(cards_of(dead)),
        layoffs=[(CARD_NAMES[card], meld) for card, meld in knock.layoffs],
        hands=_by_seat(
            knocker,
            names(cards_of(state.hands[knocker])),
            names(cards_of(state.hands[defender] | knock.laid_off)),
        ),
        hand_points=points,
    )


def _by_seat(first_seat: int, first: list[str], other: list[str]) -> list[list[str]]:
    return [first, other] if first_seat == 0 else [other, first]


def game_end(state: MatchState) -> list[Event]:
    """After a hand's score, the two-player game it wins and the match that game wins, when
    their targets are reached."""
    options = state.options
    winner = game_winner(state.hand_points, options)
    if winner is None:
        return []
    tally = tally_game(winner, state.hand_points, state.hands_won, options)
    match_scores = list(state.match_scores)
    if tally.scored_by is not None:
        match_scores[tally.scored_by] += tally.points
    won = GameWon(
        game=state.game,
        winner=winner,
        hand_points=list(state.hand_points),
        hands_won=list(state.hands_won),
        game_bonus=tally.game_bonus,
        line_bonuses=list(tally.line_bonuses),
        shutout_bonus=tally.shutout_bonus,
        totals=list(tally.totals),
        scored_by=tally.scored_by,
        points=tally.points,
        match_scores=match_scores,
    )
    state = evolve(state, won)
    champion = match_winner(state.match_scores, winner, options)
    if champion is None:
        return [won]
    games = list(state.games_won)
    return [won, MatchWon(winner=champion, match_scores=match_scores, games_won=games)]


def _knock(state: HandState) -> KnockState:
    assert state.knock is not None, "only a knocked hand is closed here"
    return state.knock
