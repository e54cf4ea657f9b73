"""``decide_tables(state, command) -> list[FormatEvent]``: the rules of the three- and
four-player formats. A seat's command goes to the two-player hand at its table, translated
to its table seat; the events that hand decides come back wrapped with their table, followed,
when the round's last hand ends, by the round's score and what it leads to."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from domain.cards import names
from domain.commands import (
    Abandon,
    Adjudicate,
    AwaitJoin,
    ChooseDealer,
    Deal,
    NoShow,
    Resign,
    SeatCommand,
    TimeOut,
)
from domain.decide import PLAY_HANDLERS, decide_hand
from domain.endings import abandon, adjudicate, resign
from domain.errors import IllegalMove, InvalidCommand, InvalidOptions, MatchOver, NotYourTurn
from domain.events import HandDrawn, Scored
from domain.options import RuleOptions
from domain.rules_versions import KNOWN as KNOWN_RULES_VERSIONS
from domain.scoring import game_winner, match_winner, settle_game
from domain.setup import deal
from domain.shuffle import seed_bytes
from domain.tables.clocks import await_join, no_show, stamp_clocks, time_out
from domain.tables.commands import (
    CutSeats,
    DealTable,
    FormatCommand,
    StampClocks,
    StartFormatMatch,
)
from domain.tables.endings import standing
from domain.tables.events import (
    FormatEvent,
    FormatGameWon,
    FormatMatchCreated,
    FormatMatchWon,
    RoundScored,
    RoundStarted,
    SeatsCut,
    TableEvent,
)
from domain.tables.evolve import evolve_tables
from domain.tables.formats import FORMATS
from domain.tables.scoring import round_result
from domain.tables.seating import cut_for_dealer, next_dealer_side
from domain.tables.state import FormatPhase, TablesState
from domain.tables.table_seats import BY_IDENTITY, as_table_seat

# Looked up once: a member looked up on its enum class goes through ``EnumType.__getattr__``
# (Python 3.11), as slow as several of the checks below.
_PLAY = FormatPhase.PLAY


def decide_tables(state: TablesState, command: FormatCommand) -> list[FormatEvent]:
    if type(command) in _SYSTEM:
        return _SYSTEM[type(command)](state, command)
    # A seat's move, nearly every command, so decided right here: the checks are ordered and
    # written for speed.
    move: SeatCommand = command  # type: ignore[assignment]
    seat = move.seat
    if type(seat) is not int or not 0 <= seat < state.players:
        raise InvalidCommand(f"seat must be 0 to {state.players - 1}")
    if type(move) is ChooseDealer:
        raise InvalidCommand("the cut alone decides the first dealer in this format")
    if type(move) is Resign:
        return [resign(standing(state), move)]
    if state.phase is not _PLAY:
        if state.phase is FormatPhase.MATCH_OVER:
            raise MatchOver("the match is over")
        raise IllegalMove("you cannot play now: the hand has not been dealt yet")
    place = state.places[seat]
    if place is None:
        raise NotYourTurn(f"seat {seat} sits this hand out and deals it")
    index, table_seat = place
    hand = state.hands[index]
    seats = state.table_seats[index]
    if hand.last_hand is not None:
        raise NotYourTurn("your hand is over: the round ends when the other table's hand does")
    turn = hand.turn
    if turn is not None and turn != table_seat:
        # Said here, with match seats: the two-player hand would name its table seat.
        raise NotYourTurn(f"it is not your turn: seat {seats[turn]} is to play")
    if table_seat != seat:
        own = BY_IDENTITY[table_seat].get(id(move))  # a listed command: as_table_seat, inlined
        move = own if own is not None else as_table_seat(move, table_seat)  # type: ignore[assignment]
    handler = PLAY_HANDLERS.get(type(move))
    if handler is None or hand.timeouts[table_seat]:  # not a plain move: all of ``decide_hand``
        inner = decide_hand(hand, move)
    else:
        inner = handler(hand, move)
    listed = [seats[0], seats[1]]
    events: list[FormatEvent]
    if len(inner) == 1:  # most moves: no comprehension's extra call
        events = [TableEvent(index, listed, inner[0])]
    else:
        events = [TableEvent(index, listed, event) for event in inner]
    for event in inner:
        if type(event) is Scored or type(event) is HandDrawn:
            return _hand_ended(state, events)
    return events  # the hand goes on, so the round does


def _start(state: TablesState, command: StartFormatMatch) -> list[FormatEvent]:
    if not isinstance(command.options, RuleOptions):
        raise InvalidOptions("options must be a set of rule options")
    if type(command.players) is not int or command.players not in FORMATS:
        raise InvalidCommand(f"a match of this kind has {' or '.join(map(str, FORMATS))} players")
    version = command.rules_version
    if type(version) is not int or version not in KNOWN_RULES_VERSIONS:
        raise InvalidCommand(f"rules_version must be one of {list(KNOWN_RULES_VERSIONS)}")
    _require_phase(state, FormatPhase.START, "create the match")
    return [
        FormatMatchCreated(players=command.players, options=command.options, rules_version=version)
    ]


def _time_out(state: TablesState, command: TimeOut) -> list[FormatEvent]:
    events = time_out(state, command)
    for event in events:
        if type(event) is TableEvent and type(event.event) in (Scored, HandDrawn):
            return _hand_ended(state, events)
    return events


def _cut(state: TablesState, command: CutSeats) -> list[FormatEvent]:
    seed = seed_bytes(command.seed)
    _require_phase(state, FormatPhase.CUT, "cut for the deal")
    rounds, dealer = cut_for_dealer(seed, state.players)
    cut = SeatsCut(rounds=[names(cards) for cards in rounds], dealer=dealer)
    side = state.side_of(dealer)
    return [cut, _round_started(state, round_number=1, game=1, hand=1, dealer_side=side)]


def _deal(state: TablesState, command: DealTable) -> list[FormatEvent]:
    seed_bytes(command.seed)
    _require_phase(state, FormatPhase.DEAL, "deal")
    index = next(i for i, hand in enumerate(state.hands) if hand.deals == 0)
    (dealt,) = deal(state.hands[index], Deal(seed=command.seed))
    return [TableEvent(table=index, seats=list(state.table_seats[index]), event=dealt)]


def _hand_ended(state: TablesState, events: list[FormatEvent]) -> list[FormatEvent]:
    """A table's hand has ended with ``events``: when it was the round's last, the round ends."""
    for event in events:
        state = evolve_tables(state, event)
    if all(hand.last_hand is not None for hand in state.hands):
        events += _round_end(state)
    return events


def _round_end(state: TablesState) -> list[FormatEvent]:
    """The round's score, and the game and match it may end, or the next round."""
    results: list[tuple[tuple[int, int], Scored | HandDrawn]] = []
    for table in state.tables:
        end = table.state.last_hand
        assert end is not None
        results.append((table.seats, end))
    side_of = [state.side_of(seat) for seat in state.seats]
    result = round_result(state.sides, results, side_of, state.rules_version)
    hand_points, hands_won = list(state.hand_points), list(state.hands_won)
    if result.winner is not None:
        hand_points[result.winner] += result.net
        hands_won[result.winner] += 1
    scored = RoundScored(
        round=state.round,
        points=list(result.points),
        winner=result.winner,
        net=result.net,
        hand_points=hand_points,
        hands_won=hands_won,
    )
    dealer_side = next_dealer_side(state, result.winner)
    events: list[FormatEvent] = [scored]
    state = evolve_tables(state, scored)
    game, hand = state.game, state.hand + 1
    winner = game_winner(hand_points, state.options)
    if winner is not None:
        won = _game_won(state, winner)
        events.append(won)
        state = evolve_tables(state, won)
        champion = match_winner(state.match_scores, winner, state.options)
        if champion is not None:
            return [
                *events,
                FormatMatchWon(
                    winner=champion,
                    match_scores=list(state.match_scores),
                    games_won=list(state.games_won),
                ),
            ]
        game, hand = game + 1, 1
    started = _round_started(
        state, round_number=state.round + 1, game=game, hand=hand, dealer_side=dealer_side
    )
    return [*events, started]


def _game_won(state: TablesState, winner: int) -> FormatGameWon:
    options = state.options
    settlements = settle_game(winner, state.hand_points, state.hands_won, options)
    match_scores = list(state.match_scores)
    for settlement in settlements:
        if settlement.scored_by is not None:
            match_scores[settlement.scored_by] += settlement.points
    return FormatGameWon(
        game=state.game,
        winner=winner,
        hand_points=list(state.hand_points),
        hands_won=list(state.hands_won),
        game_bonus=options.game_bonus,
        line_bonuses=[won * options.line_bonus for won in state.hands_won],
        settlements=settlements,
        match_scores=match_scores,
    )


def _round_started(
    state: TablesState, *, round_number: int, game: int, hand: int, dealer_side: int
) -> RoundStarted:
    return RoundStarted(
        round=round_number,
        game=game,
        hand=hand,
        dealer_side=dealer_side,
        tables=state.format.round_tables(dealer_side, round_number),
        sitting_out=state.format.sitting_out(dealer_side),
    )


def _require_phase(state: TablesState, phase: FormatPhase, doing: str) -> None:
    if state.phase is FormatPhase.MATCH_OVER:
        raise MatchOver("the match is over")
    if state.phase is not phase:
        raise IllegalMove(f"cannot {doing} now: the match is in its {state.phase} phase")


_SYSTEM: dict[type[Any], Callable[[TablesState, Any], list[FormatEvent]]] = {
    StartFormatMatch: _start,
    CutSeats: _cut,
    DealTable: _deal,
    StampClocks: stamp_clocks,
    TimeOut: _time_out,
    AwaitJoin: await_join,
    NoShow: no_show,
    Adjudicate: lambda state, command: [adjudicate(standing(state), command)],
    Abandon: lambda state, command: [abandon(standing(state))],
}
