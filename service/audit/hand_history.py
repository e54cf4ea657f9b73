"""The plain-text history of one finished hand, for a person settling an argument.

One line per action with the cards in notation, then the final arrangement and the score, and
the seeds the deal came from so anyone can recompute it. Hands are numbered through the match
(the third hand dealt is hand 3, whatever game it belongs to). A hand the match ended in (a
resignation, a forfeit on time, an adjudication, an abandonment) is finished too: its history
says in words how the match ended instead of a score, and each timeout is told as one.

At three and four seats a hand is its table's, told in table seats, headed by the round, the
table and which match seats sit there (``table_hand_history``); hands are numbered through the
match in the order dealt, at every table, as their seeds are.
"""

from __future__ import annotations

from collections.abc import Sequence

from domain import (
    Dealt,
    Event,
    GameWon,
    HandDrawn,
    HandState,
    Knocked,
    MatchState,
    MatchWon,
    Phase,
    Scored,
    evolve,
    new_match,
)
from domain.events import MatchEnded, TimedOut
from domain.evolve import HAND_EVOLVERS, evolve_hand
from domain.tables import FormatEvent, TableEvent, TablesState, evolve_tables
from service.audit.hand_text import (
    game_ending,
    hand_ending,
    listed,
    match_ended,
    match_ending,
    move,
    seat,
)
from service.errors import HandNotFinished
from service.fairness.events import FairnessView
from service.fairness.seeds import deal_link, locate, shuffle_seed, step_of_link


def hand_history(
    match_id: str, events: Sequence[tuple[int, Event]], fairness: FairnessView, deal: int
) -> str:
    state, start = _before_deal(events, deal)
    return told_hand(match_id, state, events[start:], fairness, deal)


def table_hand_history(
    match_id: str, events: Sequence[tuple[int, FormatEvent]], fairness: FairnessView, deal: int
) -> str:
    state = TablesState()
    dealt = 0
    for index, (_, event) in enumerate(events):
        if isinstance(event, TableEvent) and isinstance(event.event, Dealt):
            dealt += 1
            if dealt == deal:
                return _told_table(match_id, state, events[index:], fairness, deal)
        state = evolve_tables(state, event)
    raise HandNotFinished(f"hand {deal} of the match is not finished (or not dealt)")


def _told_table(
    match_id: str,
    state: TablesState,
    events: Sequence[tuple[int, FormatEvent]],
    fairness: FairnessView,
    deal: int,
) -> str:
    first = events[0][1]
    assert isinstance(first, TableEvent)
    table = first.table
    # The table's events, and the end of the match if it came before the hand's.
    hand: list[tuple[int, Event]] = []
    for version, event in events:
        if isinstance(event, TableEvent) and event.table == table:
            hand.append((version, event.event))
        elif isinstance(event, MatchEnded) and not _over(hand):
            hand.append((version, event))
    if not _over(hand):
        raise HandNotFinished(f"hand {deal} of the match is not finished")
    first_seat, second_seat = first.seats
    where = (
        f"round {state.round}, table {table}; table seats 0 and 1 are seats {first_seat} "
        f"and {second_seat} of the match"
    )
    return told_hand(match_id, state.tables[table].state, hand, fairness, deal, where)


def _over(hand: Sequence[tuple[int, Event]]) -> bool:
    return any(isinstance(event, Scored | HandDrawn | MatchEnded) for _, event in hand)


def told_hand(
    match_id: str,
    state: HandState,
    events: Sequence[tuple[int, Event]],
    fairness: FairnessView,
    deal: int,
    where: str | None = None,
) -> str:
    """The history of the hand whose deal is ``events[0]``, dealt on ``state``; ``deal`` is
    its number in the match (its seed's), ``where`` what replaces the game and hand line's
    end (a three- or four-player match names the round and the table there)."""
    dealt = events[0][1]
    assert isinstance(dealt, Dealt)
    lines = [
        f"Match {match_id}, hand {deal}: "
        + (where or f"game {dealt.game}, hand {dealt.hand} of the game"),
        f"Dealer: {seat(dealt.dealer)}. Knock limit {dealt.knock_limit}"
        + (f", scores x{dealt.multiplier}." if dealt.multiplier != 1 else "."),
        *(f"Seat {s} is dealt: {' '.join(cards)}" for s, cards in enumerate(dealt.hands)),
        f"Upcard: {dealt.upcard}",
        f"Stock, top first: {' '.join(dealt.stock)}",
        *_seed_lines(match_id, fairness, deal),
        "",
    ]
    state = evolve_hand(state, dealt)
    number = 0
    for version, event in events[1:]:
        said = (
            _timed_out(event)
            if isinstance(event, TimedOut)
            else move(event, upcard_offer=state.phase is Phase.OFFER)
        )
        # Only the hand's own events move its phase (the end of a game or match moves none).
        step = HAND_EVOLVERS.get(type(event))
        state = state if step is None else step(state, event)
        if said is not None:
            number += 1
            lines.append(f"{number:3}. (version {version}) {said}")
        if isinstance(event, Scored | HandDrawn):
            lines += ["", *_result(event, _knock(events, 0))]
        elif isinstance(event, GameWon):
            lines.append(_sentence(game_ending(event)))
        elif isinstance(event, MatchWon):
            lines.append(_sentence(match_ending(event)))
        elif isinstance(event, MatchEnded):
            ended = match_ended(event, sides=where is not None)
            lines += ["", f"Result: {_sentence(ended)}"]
            break
        elif isinstance(event, Dealt):
            break
    return "\n".join(lines) + "\n"


def _before_deal(events: Sequence[tuple[int, Event]], deal: int) -> tuple[MatchState, int]:
    state = new_match()
    for index, (_, event) in enumerate(events):
        if isinstance(event, Dealt) and state.deals == deal - 1:
            if not any(isinstance(e, Scored | HandDrawn | MatchEnded) for _, e in events[index:]):
                break
            return state, index
        state = evolve(state, event)
    raise HandNotFinished(f"hand {deal} of the match is not finished (or not dealt)")


def _knock(events: Sequence[tuple[int, Event]], start: int) -> Knocked | None:
    for _, event in events[start + 1 :]:
        if isinstance(event, Knocked):
            return event
        if isinstance(event, Scored | HandDrawn):
            break
    return None


def _seed_lines(match_id: str, fairness: FairnessView, deal: int) -> list[str]:
    link = deal_link(deal)
    revealed = next((r for r in fairness.revealed if r.link == link), None)
    if revealed is None or fairness.entropy is None:
        return ["Server seed: not revealed"]
    chain, index = locate(link, fairness.chain_links)
    value = shuffle_seed(bytes.fromhex(revealed.seed), match_id, fairness.entropy, revealed.step)
    return [
        f"Server seed: link {link} ({step_of_link(link)}), link {index} of chain {chain}, "
        f"committed as {fairness.commitments[chain - 1]}: {revealed.seed}",
        f"Seats' entropy: {fairness.entropy}; shuffle seed: {value.hex()}",
    ]


def _result(event: Scored | HandDrawn, knock: Knocked | None) -> list[str]:
    if isinstance(event, HandDrawn):
        hands = [f"  {seat(s)}: {' '.join(cards)}" for s, cards in enumerate(event.hands)]
        return ["Final hands:", *hands, f"Result: {hand_ending(event)}"]
    knocker, defender = event.knocker, 1 - event.knocker
    melds = " | ".join(" ".join(meld) for meld in event.knocker_melds)
    dead = " ".join(knock.deadwood) if knock is not None else ""
    shown = f"  {seat(knocker)}, knocker: {melds}; deadwood {dead or 'none'}"
    shown += f" ({event.knocker_deadwood})"
    if event.knock_card is not None:
        shown += f"; knock card {event.knock_card}"
    theirs = " | ".join(" ".join(meld) for meld in event.defender_melds) or "no melds"
    laid = ", ".join(f"{card} on meld {meld}" for card, meld in event.layoffs)
    other = f"  {seat(defender)}, defender: {theirs}"
    other += f"; laid off {laid}" if laid else ""
    other += f"; deadwood {' '.join(event.defender_deadwood_cards) or 'none'}"
    other += f" ({event.defender_deadwood})"
    return [
        "Final arrangement:",
        shown,
        other,
        f"Result: {hand_ending(event)}; hand points this game {listed(event.hand_points)}",
    ]


def _timed_out(event: TimedOut) -> str:
    return (
        f"{seat(event.seat)} ran out of time (due {event.due_at.isoformat()}, "
        f"timeout {event.consecutive} in a row)"
    )


def _sentence(text: str) -> str:
    return text[:1].upper() + text[1:] + "."
