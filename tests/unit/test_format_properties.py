"""Properties of complete random three- and four-player matches, played through
``tables_legal_actions`` and ``decide_tables`` with the two-player property run's policy.

At every step: every listed action is accepted, a sample of other commands (seats out of the
match included) is refused, each table's 52 cards are all in one place, and no view or event
shows a seat a card of a hand in play it has not been shown (partners included). At the end:
the events fold back into the same state and survive JSON, every hand's score is recomputed
from the cards it shows, every round and game from the hands, and the match ended.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from itertools import combinations

import msgspec
import pytest
from hypothesis import given
from hypothesis import strategies as st

from domain.commands import Command, Deal, LayOff, SeatCommand
from domain.errors import DomainError
from domain.events import Dealt, Event, HandDrawn, MatchCreated, Scored
from domain.options import RuleOptions
from domain.tables import (
    CutSeats,
    DealTable,
    FormatEvent,
    FormatGameWon,
    FormatMatchWon,
    FormatPhase,
    FormatTableView,
    RoundScored,
    RoundStarted,
    StartFormatMatch,
    TableEvent,
    TablesState,
    decide_tables,
    decode_tables_event,
    encode_tables_event,
    evolve_tables,
    fold_tables,
    redact_tables_events,
    tables_legal_actions,
    tables_public_view,
    tables_view,
)
from domain.tables.commands import FormatCommand
from domain.tables.events import Players
from tests.card_names import card_names_in
from tests.unit.test_match_properties import (
    MATCHES,
    MAX_STEPS,
    REFUSALS_PER_STEP,
    Record,
    check_cards_accounted,
    check_scored,
    choose,
    names_in,
    names_in_event,
    options_strategy,
    other_commands,
    shown_of,
)

# The two-player run's options, with shorter matches: every step here checks three or four
# seats' views, and a round of four players costs two hands whose nets often cancel.
format_options = options_strategy.map(
    lambda options: msgspec.structs.replace(
        options,
        game_target=min(options.game_target, 40),
        match_target=min(options.match_target, 150),
    )
)

Known = dict[int | None, list[set[str]]]  # by viewer (None: a spectator), by table


def play_format_match(
    players: Players, options: RuleOptions, rng: random.Random
) -> tuple[TablesState, list[FormatEvent], set[tuple[int, int]]]:
    """The final state, every event, and the (round, table) hands in which LayOff was chosen."""
    state, events = TablesState(), []
    chosen_layoffs: set[tuple[int, int]] = set()
    others = format_other_commands(players, rng)
    known: Known = {viewer: [set(), set()] for viewer in [*range(players), None]}
    command: FormatCommand = StartFormatMatch(players=players, options=options)
    for _ in range(MAX_STEPS):
        produced = decide_tables(state, command)
        for event in produced:
            state = evolve_tables(state, event)
        events += produced
        learn(known, produced, players)
        check_tables(state)
        check_views(state, known)
        if state.phase is FormatPhase.MATCH_OVER:
            return state, events, chosen_layoffs
        command = next_command(state, rng, others)
        if isinstance(command, LayOff):
            table = state.table_of(command.seat)
            assert table is not None
            chosen_layoffs.add((state.round, table))
    raise AssertionError("the match did not end")


def next_command(
    state: TablesState, rng: random.Random, others: Iterator[FormatCommand]
) -> FormatCommand:
    system = tables_legal_actions(state, None)
    if system:
        step = type(system[0])
        assert step is CutSeats or step is DealTable
        for _ in range(2):
            decide_tables(state, step(seed=rng.randbytes(16).hex()))  # any seed is accepted
        return step(seed=rng.randbytes(16).hex())
    listed = {seat: tables_legal_actions(state, seat) for seat in state.seats}
    for actions in listed.values():
        for action in actions:
            decide_tables(state, action)  # every listed action is accepted
    check_refusals(state, [a for actions in listed.values() for a in actions], others)
    seat = rng.choice([seat for seat, actions in listed.items() if actions])
    table = state.tables[state.table_of(seat) or 0]
    table_seat = table.table_seat(seat)
    assert table_seat is not None
    as_table = [msgspec.structs.replace(a, seat=table_seat) for a in listed[seat]]
    chosen: Command = choose(as_table, table.state, rng)  # type: ignore[arg-type]
    return msgspec.structs.replace(chosen, seat=seat)  # type: ignore[return-value]


def format_other_commands(players: int, rng: random.Random) -> Iterator[FormatCommand]:
    """The two-player run's nonsense commands, spread over every seat and one beyond."""
    for command in other_commands(rng):
        if isinstance(command, SeatCommand):
            yield msgspec.structs.replace(command, seat=rng.randrange(players + 1))
        elif isinstance(command, Deal):
            yield DealTable(seed="ab")
        else:
            yield CutSeats(seed="ab")


def check_refusals(
    state: TablesState, actions: list[FormatCommand], others: Iterator[FormatCommand]
) -> None:
    refused = 0
    while refused < REFUSALS_PER_STEP:
        command = next(others)
        if command in actions:
            continue
        try:
            decide_tables(state, command)
        except DomainError:
            refused += 1
        else:
            raise AssertionError(f"{command} was accepted but not listed in {state.phase}")


def learn(known: Known, produced: list[FormatEvent], players: int) -> None:
    """Add what each viewer is shown of the new events, by the rules; then check that the
    events as redacted for each viewer show nothing more."""
    for viewer, tables in known.items():
        for event in produced:
            if isinstance(event, TableEvent):
                table_seat = event.seats.index(viewer) if viewer in event.seats else None
                if isinstance(event.event, Dealt):
                    tables[event.table].clear()
                tables[event.table] |= shown_of(event.event, table_seat)
        for _, event in redact_tables_events(list(enumerate(produced)), viewer):
            if isinstance(event, TableEvent):
                assert names_in_event(event.event) <= tables[event.table], (viewer, event)


def check_tables(state: TablesState) -> None:
    for table in state.tables:
        if table.dealt:
            check_cards_accounted(table.state)


def check_views(state: TablesState, known: Known) -> None:
    for viewer in [*state.seats, None]:
        if viewer is None:
            shown: FormatTableView = tables_public_view(state)
        else:
            seen = tables_view(state, viewer)
            own = set(seen.hand) | set(names_in_actions(seen.legal_actions))
            if seen.table is None:
                assert not own
            else:
                assert own <= known[viewer][seen.table]
            shown = msgspec.structs.replace(seen, hand=[], legal_actions=[])
        for index, table in enumerate(state.tables):
            if table.dealt and not table.over:
                assert names_in(shown.tables[index].view) <= known[viewer][index]
        everything_else = msgspec.structs.replace(
            shown, tables=[], cut=None, last_round=None, last_hands=[], last_game=None
        )
        assert not names_in_json(everything_else)


def names_in_actions(actions: list[FormatCommand]) -> set[str]:
    return names_in_json(actions)


def names_in_json(value: object) -> set[str]:
    text = msgspec.json.encode(value).decode()
    return card_names_in(text)


def check_hands(events: list[FormatEvent], chosen_layoffs: set[tuple[int, int]]) -> None:
    """Every two-player hand's score, recomputed as the two-player run does."""
    options = next(e.options for e in events if hasattr(e, "options"))
    hand: dict[int, list[Event]] = {}
    round_number = 0
    for event in events:
        if isinstance(event, RoundStarted):
            round_number = event.round
        if not isinstance(event, TableEvent):
            continue
        if isinstance(event.event, Dealt):
            hand[event.table] = [MatchCreated(options=options)]
        hand[event.table].append(event.event)
        if isinstance(event.event, Scored):
            table_events = hand[event.table]
            manual = (round_number, event.table) in chosen_layoffs
            check_scored(
                event.event,
                Record(events=table_events),
                len(table_events) - 1,
                manual_layoffs=manual,
            )


def check_rounds_and_games(players: int, events: list[FormatEvent]) -> None:
    """RULES.md "Three and four players", written out again: each round from its hands, the
    seating from the round before, each game's settlements from the rounds."""
    options = next(e.options for e in events if hasattr(e, "options"))
    sides = 3 if players == 3 else 2

    def side(seat: int) -> int:
        return seat if players == 3 else seat % 2

    ends: list[tuple[list[int], Scored | HandDrawn]] = []
    hand_points, hands_won = [0] * sides, [0] * sides
    match_scores = [0] * sides
    previous: RoundStarted | None = None
    last_winner: int | None = None
    for event in events:
        if isinstance(event, TableEvent) and isinstance(event.event, Scored | HandDrawn):
            ends.append((event.seats, event.event))
        if isinstance(event, RoundStarted):
            check_seating(players, options, previous, last_winner, event)
            previous, ends = event, []
        if isinstance(event, RoundScored):
            points = [0] * sides
            for seats, end in ends:
                if isinstance(end, Scored) and end.winner is not None:
                    points[side(seats[end.winner])] += end.points
            top = sorted(points, reverse=True)
            net = top[0] - top[1]
            winner = points.index(top[0]) if net else None
            assert (event.points, event.winner, event.net) == (points, winner, net)
            if winner is not None:
                hand_points[winner] += net
                hands_won[winner] += 1
            assert (event.hand_points, event.hands_won) == (hand_points, hands_won)
            last_winner = winner
        if isinstance(event, FormatGameWon):
            assert hand_points[event.winner] >= options.game_target
            for pair, settlement in zip(
                combinations(range(sides), 2), event.settlements, strict=True
            ):
                totals = [hand_points[s] + options.line_bonus * hands_won[s] for s in pair]
                for i, s in enumerate(pair):
                    if s == event.winner:
                        other = pair[1 - i]
                        totals[i] += options.game_bonus
                        totals[i] += options.shutout_bonus if hands_won[other] == 0 else 0
                assert settlement.totals == totals
                if totals[0] != totals[1]:
                    higher = pair[0] if totals[0] > totals[1] else pair[1]
                    match_scores[higher] += abs(totals[0] - totals[1])
            assert event.match_scores == match_scores
            hand_points, hands_won = [0] * sides, [0] * sides
        if isinstance(event, FormatMatchWon):
            assert event.match_scores == match_scores
            assert match_scores[event.winner] == max(match_scores)
            assert options.match_target == 0 or max(match_scores) >= options.match_target


def check_seating(
    players: int,
    options: RuleOptions,
    previous: RoundStarted | None,
    last_winner: int | None,
    begun: RoundStarted,
) -> None:
    seated = sorted(seat for table in begun.tables for seat in table)
    if players == 3:
        assert begun.sitting_out is not None
        assert seated == sorted(set(range(3)) - {begun.sitting_out})
        assert begun.dealer_side == begun.sitting_out
    else:
        assert seated == [0, 1, 2, 3]
        for table in begun.tables:
            assert {seat % 2 for seat in table} == {0, 1}  # opponents are never partners
            assert table[1] % 2 == begun.dealer_side  # the dealing team deals at both tables
        pairs = {frozenset(t) for t in begun.tables}
        odd = {frozenset({0, 1}), frozenset({2, 3})}
        assert (pairs == odd) == (begun.round % 2 == 1)
    if previous is None:
        return
    if last_winner is None:
        assert begun.dealer_side == previous.dealer_side
    elif players == 3:
        (loser,) = set(previous.tables[0]) - {last_winner}
        assert begun.sitting_out == loser
        assert last_winner in begun.tables[0]
        assert previous.sitting_out in begun.tables[0]
    elif options.next_dealer == "alternate":
        assert begun.dealer_side == 1 - previous.dealer_side
    else:
        assert begun.dealer_side == last_winner


def check_complete(players: Players, options: RuleOptions, seed: int) -> None:
    state, events, chosen_layoffs = play_format_match(players, options, random.Random(seed))
    assert state.phase is FormatPhase.MATCH_OVER
    assert fold_tables(events) == state
    assert [decode_tables_event(encode_tables_event(e)) for e in events] == events
    check_hands(events, chosen_layoffs)
    check_rounds_and_games(players, events)


@pytest.mark.slow
@MATCHES
@given(options=format_options, seed=st.integers(0, 2**32 - 1))
def test_complete_random_three_player_matches_keep_every_rule(
    options: RuleOptions, seed: int
) -> None:
    check_complete(3, options, seed)


@pytest.mark.slow
@MATCHES
@given(options=format_options, seed=st.integers(0, 2**32 - 1))
def test_complete_random_four_player_matches_keep_every_rule(
    options: RuleOptions, seed: int
) -> None:
    check_complete(4, options, seed)
