"""Bot players: every move legal, every match finished, nothing hidden used, and each level
playing the way it says it does."""

from __future__ import annotations

import random

import msgspec
import pytest

from domain.cards import CARD_NAMES, FULL_DECK, mask_of, parse_card, parse_cards
from domain.commands import (
    ChooseDealer,
    Command,
    Cut,
    Deal,
    Discard,
    FinishLayoff,
    Knock,
    PassUpcard,
    StartMatch,
    TakeUpcard,
)
from domain.decide import decide
from domain.errors import InvalidCommand
from domain.events import Dealt, Event
from domain.evolve import evolve
from domain.melds import min_deadwood_after_discard
from domain.options import RuleOptions
from domain.state import MatchState, Phase, new_match
from domain.views import SeatView, view
from service.bots import DISTINCT_LEVELS, LEVELS, Bot, bot_for
from service.bots.card_memory import CardMemory, read_view
from service.bots.hand_value import expected_deadwood
from service.bots.knocking import KnockPlan, KnockPolicy
from service.bots.opponent_melds import expected_layoffs, holding_chances, usefulness
from service.bots.random_bot import RandomBot
from tests.card_names import card_names_in
from tests.unit.helpers import Table, deal

PAIRINGS = [
    ("strong", "simple"),
    ("simple", "strong"),
    ("strong", "random"),
    ("random", "simple"),
    ("strong", "strong"),
]
ONE_GAME = RuleOptions(match_target=0)
MOVE_LIMIT = 20_000  # far beyond any match these bots play; reaching it means a stuck match


def apply(state: MatchState, command: Command) -> tuple[MatchState, list[Event]]:
    events = decide(state, command)
    for event in events:
        state = evolve(state, event)
    return state, events


def started(rng: random.Random, options: RuleOptions) -> MatchState:
    state, _ = apply(new_match(), StartMatch(options=options))
    state, _ = apply(state, Cut(seed=rng.randbytes(8).hex()))
    return state


def assert_legal(command: Command, seen: SeatView) -> None:
    """A listed action, or a knock naming its melds with a card the seat may knock with."""
    if isinstance(command, Knock) and command.melds is not None:
        assert Knock(seat=seen.seat, card=command.card) in seen.legal_actions
    else:
        assert command in seen.legal_actions


def play_match(bots: tuple[Bot, Bot], seed: int, options: RuleOptions) -> MatchState:
    """A whole match, every bot move checked against the seat's legal actions; ``decide``
    refusing a move fails the test with its reason."""
    rng = random.Random(seed)
    state = started(rng, options)
    for _ in range(MOVE_LIMIT):
        if state.phase is Phase.MATCH_OVER:
            return state
        if state.phase is Phase.DEAL:
            state, _ = apply(state, Deal(seed=rng.randbytes(16).hex()))
            continue
        seat = state.turn
        assert seat is not None
        seen = view(state, seat)
        command = bots[seat].choose(seen)
        assert_legal(command, seen)
        state, _ = apply(state, command)
    raise AssertionError(f"the match did not end within {MOVE_LIMIT} moves")


@pytest.mark.parametrize(("first", "second"), PAIRINGS)
def test_bots_only_make_legal_moves_and_finish_a_game(first: str, second: str) -> None:
    for seed in range(2):
        state = play_match((bot_for(first), bot_for(second)), seed, ONE_GAME)
        assert state.winner in (0, 1)


def test_bots_finish_a_whole_match_under_the_default_options() -> None:
    state = play_match((bot_for("strong"), bot_for("simple")), 7, RuleOptions())
    assert max(state.match_scores) >= RuleOptions().match_target


@pytest.mark.parametrize(
    "options",
    [
        RuleOptions(match_target=0, oklahoma=True),
        RuleOptions(match_target=0, knock_limit=3, big_gin_bonus=0),
        RuleOptions(match_target=0, undercut_on_tie=False, next_dealer="alternate"),
    ],
    ids=["oklahoma", "low-knock-limit-no-big-gin", "tie-scores-nothing"],
)
def test_bots_play_legally_under_other_rule_options(options: RuleOptions) -> None:
    for first, second in (("strong", "simple"), ("simple", "random")):
        state = play_match((bot_for(first), bot_for(second)), 3, options)
        assert state.phase is Phase.MATCH_OVER


# Hidden information -------------------------------------------------------------------


def first_hand(seed: int) -> tuple[MatchState, Dealt]:
    """A match at its first deal: the state just before it, and the deal."""
    rng = random.Random(seed)
    state = started(rng, RuleOptions())
    assert state.turn is not None
    state, _ = apply(state, ChooseDealer(seat=state.turn, dealer=seed % 2))
    (dealt,) = decide(state, Deal(seed=rng.randbytes(16).hex()))
    assert isinstance(dealt, Dealt)
    return state, dealt


def known_to(seen: SeatView, state: MatchState) -> set[str]:
    """The cards named in a seat's view (and the knock card, kept in place so the knocker's
    recorded knock stays legal, though the defender does not see it)."""
    text = msgspec.json.encode(msgspec.structs.replace(seen, cut=None)).decode()
    known = card_names_in(text)
    if state.knock is not None and state.knock.card is not None:
        known.add(CARD_NAMES[state.knock.card])
    return known


def reshuffled(dealt: Dealt, known: set[str], rng: random.Random) -> Dealt:
    """The same deal with every card outside ``known`` moved to another hidden place: the
    opponent's hand and the stock change, and nothing the seat knows does."""
    hidden = [name for name in CARD_NAMES if name not in known]
    moved = hidden[:]
    while moved == hidden:
        rng.shuffle(moved)
    swap = dict(zip(hidden, moved, strict=True))

    def new(name: str) -> str:
        return swap.get(name, name)

    return msgspec.structs.replace(
        dealt,
        hands=[[new(name) for name in hand] for hand in dealt.hands],
        upcard=new(dealt.upcard),
        stock=[new(name) for name in dealt.stock],
    )


@pytest.mark.parametrize("level", DISTINCT_LEVELS)
def test_a_bot_decides_from_its_seats_view_alone(level: str) -> None:
    """At every move of a hand the bot plays against itself, a second table is built that
    differs only in what the moving seat cannot know (the opponent's hidden cards and the
    stock, reshuffled) and has seen the same moves: the seat's view is the same there, and
    so is the bot's move."""
    bot = bot_for(level)
    rng = random.Random(level)
    for seed in range(3):
        before, dealt = first_hand(seed)
        state = evolve(before, dealt)
        played: list[Command] = []
        while state.phase is not Phase.DEAL:
            seat = state.turn
            assert seat is not None
            seen = view(state, seat)
            move = bot.choose(seen)
            other = evolve(before, reshuffled(dealt, known_to(seen, state), rng))
            for command in played:
                other, _ = apply(other, command)
            assert other.hands[1 - seat] != state.hands[1 - seat] or other.stock != state.stock
            assert view(other, seat) == seen
            assert bot.choose(view(other, seat)) == move
            state, _ = apply(state, move)
            played.append(move)


def test_the_random_level_is_seeded_by_the_view_or_by_the_generator_passed_in() -> None:
    table = opening()
    seen = view(table.state, 1)
    assert len({bot_for("random").choose(seen) for _ in range(5)}) == 1
    picks = {RandomBot(random.Random(seed)).choose(seen) for seed in range(40)}
    assert picks == set(seen.legal_actions)


# Levels ------------------------------------------------------------------------------


def test_unknown_levels_are_refused_with_the_levels_named() -> None:
    with pytest.raises(InvalidCommand, match="easy, medium, hard"):
        bot_for("expert")


def test_a_bot_asked_to_move_out_of_turn_says_so() -> None:
    table = opening()
    for level in LEVELS:
        with pytest.raises(ValueError, match="nothing to do"):
            bot_for(level).choose(view(table.state, 0))


def test_a_bot_winning_the_cut_lets_the_other_seat_deal() -> None:
    state = started(random.Random(1), RuleOptions())
    assert state.turn is not None
    for level in ("simple", "strong"):
        choice = bot_for(level).choose(view(state, state.turn))
        assert choice == ChooseDealer(seat=state.turn, dealer=1 - state.turn)


def opening(upcard: str = "Kc", seat1: str = "2c 3c 4c 7d 8d 9h Th Qh Kd Ks") -> Table:
    """Seat 0 deals; seat 1 is offered the upcard."""
    return deal(
        seat0="As 2s 3s 4h 5h 6h 7c 8c 9c Qd",
        seat1=seat1,
        upcard=upcard,
        stock="8s 6d Tc",
        dealer=0,
    )


def test_simple_takes_an_upcard_that_joins_a_meld_and_passes_one_that_does_not() -> None:
    bot = bot_for("simple")
    assert bot.choose(view(opening("Kc").state, 1)) == TakeUpcard(seat=1)  # Kc Kd Ks
    assert bot.choose(view(opening("Jc").state, 1)) == PassUpcard(seat=1)


def test_simple_discards_its_highest_deadwood_card_and_knocks_when_it_can() -> None:
    table = opening("Kc")
    table.take_upcard(1)  # 2c 3c 4c, Kc Kd Ks; deadwood 7d 8d 9h Th Qh: Th or Qh, the higher
    assert bot_for("simple").choose(view(table.state, 1)) == Discard(seat=1, card="Qh")
    table = opening("5s", seat1="2c 3c 4c 7d 8d 9d Th Jh Qh Ks")
    table.take_upcard(1)  # 2c 3c 4c, 7d 8d 9d, Th Jh Qh: with 5s and Ks, a knock for 5
    assert bot_for("simple").choose(view(table.state, 1)) == Knock(seat=1, card="Ks")


def test_every_bot_leaves_the_layoffs_to_the_rules_best_choice() -> None:
    table = deal(
        seat0="5s 6s 7s Jc Jd Jh 2d 3d 4d Ac",
        seat1="8s 9s 2h 4c 6h 8c Tc Kh Qc 3h",
        upcard="2c",
        stock="Ks",
        dealer=1,
    )
    table.pass_upcard(0)
    table.pass_upcard(1)
    table.draw_stock(0)
    table.knock(0, "Ks")
    for level in ("simple", "strong"):
        assert bot_for(level).choose(view(table.state, 1)) == FinishLayoff(seat=1)


# The strong level's judgement ---------------------------------------------------------


def test_expected_deadwood_is_the_mean_over_every_unseen_draw() -> None:
    """The shortcut for cards that meld with nothing held against counting every draw."""
    rng = random.Random(5)
    for _ in range(300):
        cards = rng.sample(range(52), 10 + rng.randrange(25))
        hand, seen = mask_of(cards[:10]), mask_of(cards)
        unseen = [card for card in range(52) if not seen >> card & 1]
        mean = sum(min_deadwood_after_discard(hand | 1 << c) for c in unseen) / len(unseen)
        assert expected_deadwood(hand, FULL_DECK & ~seen) == pytest.approx(mean)


def test_the_card_memory_holds_what_the_seat_has_seen_and_nothing_else() -> None:
    table = opening("Jc")
    table.pass_upcard(1)
    table.pass_upcard(0)
    table.draw_stock(1)
    memory = read_view(view(table.state, 0))
    assert memory.hand == mask_of(parse_cards("As 2s 3s 4h 5h 6h 7c 8c 9c Qd"))
    assert memory.pile == mask_of(parse_cards("Jc"))
    assert memory.declined == memory.pile  # both passed the upcard
    assert memory.unseen == FULL_DECK & ~memory.hand & ~memory.pile
    assert memory.opponent_unknown == 11


def test_a_card_is_more_useful_to_an_opponent_that_took_its_neighbour() -> None:
    table = opening("Jd")  # seat 1 takes it, though it melds with nothing there
    table.take_upcard(1)
    table.discard(1, "Kd")
    memory = read_view(view(table.state, 0))
    chances = holding_chances(memory)
    assert chances[parse_card("Jd")] == 1.0
    assert chances[parse_card("Td")] > chances[parse_card("5c")]
    jh, five = parse_card("Jh"), parse_card("5c")
    assert usefulness(jh, chances, memory.declined) > usefulness(five, chances, memory.declined)


def test_a_pair_is_less_likely_held_when_the_opponent_passed_over_its_third_card() -> None:
    table = opening("Qc")
    assert read_view(view(table.state, 0)).declined == 0  # not yet offered to seat 1
    table.pass_upcard(1)
    memory = read_view(view(table.state, 0))
    assert memory.declined == mask_of(parse_cards("Qc"))
    chances = holding_chances(memory)
    # Tc Jc would have melded with the Qc passed over: holding them, seat 1 had taken it.
    nine = parse_card("9c")
    assert usefulness(nine, chances, memory.declined) < usefulness(nine, chances, 0)


def test_layoffs_are_expected_only_onto_ends_the_opponent_may_hold() -> None:
    run, triple = mask_of(parse_cards("2s 3s 4s")), mask_of(parse_cards("2c 2d 2h"))
    chances = [0.5] * 52
    both = expected_layoffs([run, triple], chances)
    for dead in ("As", "5s", "2s"):
        chances[parse_card(dead)] = 0.0
    # With As and 5s out of reach nothing fits the run; with 2s gone nothing fits the set.
    assert expected_layoffs([run, triple], chances) == 0.0 < both


HIGH_RUN = ["9s", "Ts", "Js", "Qs", "Ks"]


@pytest.mark.parametrize(
    ("upcard", "thrown", "shown"),
    [("3s", "9c", [["3c", "3d", "3h"], HIGH_RUN]), ("Ah", "5h", [["2h", "3h", "4h"], HIGH_RUN])],
)
def test_strong_knocks_showing_the_melds_with_the_fewest_layoffs(
    upcard: str, thrown: str, shown: list[list[str]]
) -> None:
    """3h melds either with 3c 3d or with 2h 4h, leaving deadwood 6 either way. With 3s on
    the pile nothing fits the set of 3s; with Ah and 5h there, nothing fits the run."""
    table = deal(
        seat0="3c 3d 3h 2h 4h 9s Ts Js Qs Ks",
        seat1="5s 5h 6c 7d 8d 9h Tc Qh Kd Jc",
        upcard=upcard,
        stock="9c Kc",
        dealer=0,
    )
    table.pass_upcard(1)
    table.pass_upcard(0)
    table.draw_stock(1)
    table.discard(1, thrown)
    table.draw_stock(0)
    knock = bot_for("strong").choose(view(table.state, 0))
    assert isinstance(knock, Knock)
    assert knock.card == "Kc"
    assert knock.melds is not None
    assert sorted(map(sorted, knock.melds)) == sorted(map(sorted, shown))
    table.do(knock)


def test_strong_takes_a_pile_card_for_a_meld_but_not_just_to_lower_its_deadwood() -> None:
    assert bot_for("strong").choose(view(opening("Kc").state, 1)) == TakeUpcard(seat=1)
    # Ad melds with nothing: the simple level takes it in place of a ten, the strong does not.
    seen = view(opening("Ad").state, 1)
    assert bot_for("simple").choose(seen) == TakeUpcard(seat=1)
    assert bot_for("strong").choose(seen) == PassUpcard(seat=1)


def memory_at(stock_size: int, opponent_took: str = "") -> CardMemory:
    took = mask_of(parse_cards(opponent_took))
    return CardMemory(
        hand=0,
        pile=0,
        top=None,
        opponent_took=took,
        declined=0,
        unseen=FULL_DECK & ~took,
        opponent_unknown=10 - took.bit_count(),
        stock_size=stock_size,
        knock_limit=10,
    )


def plan(deadwood: int, layoffs: float = 0.0) -> KnockPlan:
    return KnockPlan(card=0, melds=(), deadwood=deadwood, layoffs=layoffs)


def test_strong_knocks_for_gin_always_and_plays_on_for_it_early_with_little_deadwood() -> None:
    policy = KnockPolicy()
    assert policy.knocks(plan(0), memory_at(30))
    assert not policy.knocks(plan(3), memory_at(25))
    assert policy.knocks(plan(3), memory_at(25, opponent_took="7h 8h"))  # it is collecting
    assert policy.knocks(plan(3), memory_at(10))


def test_strong_knocks_late_only_when_deadwood_and_layoffs_leave_little_to_undercut() -> None:
    policy = KnockPolicy()
    assert policy.knocks(plan(9), memory_at(25))
    assert not policy.knocks(plan(9), memory_at(10))
    assert policy.knocks(plan(6, layoffs=1.5), memory_at(10))
    assert not policy.knocks(plan(6, layoffs=2.5), memory_at(10))
    assert policy.knocks(plan(9), memory_at(2))  # a discard now would end the hand drawn
