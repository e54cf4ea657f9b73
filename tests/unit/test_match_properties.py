"""Properties of complete random matches, played through ``legal_actions`` and ``decide``.

Each match is played by a random policy that only ever picks listed legal actions (leaning
towards going out, so that matches end in a sensible number of hands), now and then naming
its own arrangement of the melds when it goes out. At every step: every listed action is
accepted, a sample of other commands is refused, the 52 cards are all in one place, and no
view names a card its viewer has not been shown this hand. At the end: the events fold back
into the same state, survive JSON, and every ``Scored`` is recomputed from the hands it shows
(a knock whose ten cards meld completely is always gin).
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass, field

import msgspec
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from domain.cards import CARD_NAMES, FULL_DECK, VALUES, cards_of, mask_of, names, parse_cards
from domain.commands import (
    BigGin,
    ChooseDealer,
    Command,
    Cut,
    Deal,
    Discard,
    DrawFromDiscard,
    DrawFromStock,
    FinishLayoff,
    Knock,
    LayOff,
    PassUpcard,
    StartMatch,
    TakeUpcard,
)
from domain.decide import decide
from domain.errors import DomainError
from domain.events import (
    CardsCut,
    Dealt,
    Discarded,
    Drew,
    Event,
    HandDrawn,
    Knocked,
    LaidOff,
    Scored,
    decode_event,
    encode_event,
)
from domain.evolve import evolve, fold
from domain.legal import legal_actions, legal_actions_as
from domain.melds import (
    arrangement_of,
    defender_result,
    layoff_targets,
    melds_in,
    min_deadwood,
)
from domain.options import RuleOptions
from domain.state import HandState, MatchState, Phase, new_match
from domain.views import SeatView, TableView, public_view, redact_event, view
from tests.card_names import card_names_in
from tests.unit.helpers import examples

MATCHES = settings(
    max_examples=examples(40, under_mutation=2),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
MAX_STEPS = 20_000
REFUSALS_PER_STEP = 4

options_strategy = st.builds(
    RuleOptions,
    knock_limit=st.sampled_from([0, 5, 10]),
    big_gin_bonus=st.sampled_from([0, 31]),
    undercut_on_tie=st.booleans(),
    game_target=st.sampled_from([10, 40, 100]),
    match_target=st.sampled_from([0, 50, 300]),
    oklahoma=st.booleans(),
    next_dealer=st.sampled_from(["winner", "alternate"]),
)


def names_in(shown: SeatView | TableView) -> set[str]:
    """Cards named in a view, leaving out what belongs to other hands or the cut's deck."""
    this_hand = msgspec.structs.replace(shown, cut=None, last_hand=None, last_game=None)
    text = msgspec.json.encode(this_hand).decode()
    return card_names_in(text)


def names_in_event(event: Event) -> set[str]:
    text = encode_event(event).decode()
    return card_names_in(text)


def with_seed(command: Command, rng: random.Random, options: RuleOptions) -> Command:
    if isinstance(command, Cut | Deal):
        return type(command)(seed=rng.randbytes(16).hex())
    if isinstance(command, StartMatch):
        return StartMatch(options=options)
    return command


def choose(actions: list[Command], state: MatchState, rng: random.Random) -> Command:
    going_out = [a for a in actions if isinstance(a, Knock | BigGin)]
    if going_out and rng.random() < 0.6:
        chosen = rng.choice(going_out)
        return named(chosen, state, rng) if rng.random() < 0.3 else chosen
    discards = [a for a in actions if isinstance(a, Discard)]
    if discards and rng.random() < 0.7:
        hand = state.hands[discards[0].seat]
        return min(discards, key=lambda a: min_deadwood(hand & ~(1 << parse_cards([a.card])[0])))
    return rng.choice(actions)


def named(command: Knock | BigGin, state: MatchState, rng: random.Random) -> Knock | BigGin:
    """``command`` with an arrangement of the player's own: some melds of the hand picked at
    random, often leaving cards out. Kept only where the rules accept it: within the knock
    limit, or on a hand that melds completely (gin cannot be declined)."""
    hand = state.hands[command.seat]
    if isinstance(command, Knock):
        hand &= ~(1 << parse_cards([command.card])[0])
    candidates = melds_in(hand)
    picked: list[int] = []
    used = 0
    for meld in rng.sample(candidates, k=len(candidates)):
        if not meld & used and rng.random() < 0.7:
            picked.append(meld)
            used |= meld
    melds = [names(cards_of(meld)) for meld in picked]
    if isinstance(command, BigGin):
        return BigGin(seat=command.seat, melds=melds)
    if arrangement_of(hand, picked).count > state.knock_limit and min_deadwood(hand):
        return command
    return Knock(seat=command.seat, card=command.card, melds=melds)


def other_commands(rng: random.Random) -> Iterator[Command]:
    """Commands of every kind, most of them nonsense at any given moment."""
    while True:
        seat = rng.randrange(2)
        card = rng.choice(CARD_NAMES)
        kinds: list[Command] = [
            Discard(seat=seat, card=card),
            Knock(seat=seat, card=card),
            BigGin(seat=seat),
            DrawFromStock(seat=seat),
            DrawFromDiscard(seat=seat),
            TakeUpcard(seat=seat),
            PassUpcard(seat=seat),
            LayOff(seat=seat, card=card, meld=rng.randrange(4)),
            FinishLayoff(seat=seat),
            ChooseDealer(seat=seat, dealer=rng.randrange(2)),
            Deal(seed="ab"),
            Cut(seed="ab"),
            StartMatch(),
        ]
        yield rng.choice(kinds)


def where_cards_are(state: HandState) -> list[int]:
    knock = state.knock
    stock = mask_of(state.stock[state.stock_next :])
    places = [state.hands[0], state.hands[1], stock, mask_of(state.pile)]
    if knock is not None:
        places.append(knock.laid_off)
        if knock.card is not None:
            places.append(1 << knock.card)
    return places


@dataclass
class Record:
    """What happened in one match, for the checks at its end."""

    events: list[Event] = field(default_factory=list)
    chosen_layoffs: set[int] = field(default_factory=set)  # hands in which LayOff was chosen


def play_match(options: RuleOptions, rng: random.Random) -> tuple[MatchState, Record]:
    state, record = new_match(), Record()
    others = other_commands(rng)
    known: dict[int | None, set[str]] = {0: set(), 1: set(), None: set()}
    for _ in range(MAX_STEPS):
        if state.phase is Phase.MATCH_OVER:
            return state, record
        actor = state.turn
        actions = legal_actions(state, actor)
        assert actions, f"nothing to do in {state.phase}"
        for action in actions:
            decide(state, with_seed(action, rng, options))  # every listed action is accepted
        if actor is not None:  # listed for a larger match's seat: the same, with its number
            sender = len(record.events) % 4
            renamed = [msgspec.structs.replace(a, seat=sender) for a in actions]
            assert legal_actions_as(state, actor, sender) == renamed
        check_refusals(state, actions, others, rng)
        command = with_seed(choose(actions, state, rng), rng, options)
        if isinstance(command, LayOff):
            record.chosen_layoffs.add(len([e for e in record.events if isinstance(e, Dealt)]))
        for event in decide(state, command):
            state = evolve(state, event)
            record.events.append(event)
            learn(known, event)
        check_cards_accounted(state)
        check_views(state, known)
    raise AssertionError("the match did not end")


def check_refusals(
    state: MatchState, actions: list[Command], others: Iterator[Command], rng: random.Random
) -> None:
    listed_types = {type(a) for a in actions if isinstance(a, Cut | Deal | StartMatch)}
    refused = 0
    while refused < REFUSALS_PER_STEP:
        command = next(others)
        if command in actions or type(command) in listed_types:
            continue
        try:
            decide(state, command)
        except DomainError:
            refused += 1
        else:
            raise AssertionError(f"{command} was accepted but not listed in {state.phase}")


def learn(known: dict[int | None, set[str]], event: Event) -> None:
    """Add what each viewer is shown of ``event``, by the rules, and check that the event as
    redacted for that viewer shows nothing more."""
    for viewer, cards in known.items():
        if isinstance(event, Dealt):
            cards.clear()
        cards |= shown_of(event, viewer)
        assert names_in_event(redact_event(event, viewer, hand_over=False)) <= cards


def shown_of(event: Event, viewer: int | None) -> set[str]:
    """The cards a viewer sees in an event (RULES.md: what is face up, or its own)."""
    if isinstance(event, Dealt):
        return {event.upcard, *(event.hands[viewer] if viewer is not None else [])}
    if isinstance(event, Drew):
        seen = event.source == "discard" or event.seat == viewer
        return {event.card} if seen and event.card is not None else set()
    if isinstance(event, Discarded | LaidOff):
        return {event.card}
    if isinstance(event, Knocked):
        shown = {card for meld in event.melds for card in meld} | set(event.deadwood)
        return shown | ({event.card} if event.seat == viewer and event.card else set())
    if isinstance(event, Scored | HandDrawn | CardsCut):
        return names_in_event(event)  # the end of a hand shows everything; the cut is public
    return set()


def check_cards_accounted(state: HandState) -> None:
    if state.hand == 0:
        return
    places = where_cards_are(state)
    assert sum(place.bit_count() for place in places) == 52
    union = 0
    for place in places:
        union |= place
    assert union == FULL_DECK


def check_views(state: MatchState, known: dict[int | None, set[str]]) -> None:
    if state.hand == 0 or state.phase in (Phase.DEAL, Phase.MATCH_OVER):
        return
    for seat in (0, 1):
        assert names_in(view(state, seat)) <= known[seat]
    assert names_in(public_view(state)) <= known[None]


def check_scores(record: Record) -> None:
    hand_number = 0
    for index, event in enumerate(record.events):
        if isinstance(event, Dealt):
            hand_number += 1
        if isinstance(event, Scored):
            check_scored(event, record, index, manual_layoffs=hand_number in record.chosen_layoffs)


def check_scored(scored: Scored, record: Record, index: int, *, manual_layoffs: bool) -> None:
    knocker, defender = scored.knocker, 1 - scored.knocker
    knocker_hand = mask_of(parse_cards(scored.hands[knocker]))
    defender_hand = mask_of(parse_cards(scored.hands[defender]))
    shown = [mask_of(parse_cards(meld)) for meld in scored.knocker_melds]
    arranged = arrangement_of(knocker_hand, shown)
    assert arranged.count == scored.knocker_deadwood
    if scored.outcome != "big_gin":  # gin is never declined, whatever arrangement is named
        assert (scored.outcome == "gin") == (min_deadwood(knocker_hand) == 0)
    melds = list(shown)
    laid = 0
    for card_name, meld in scored.layoffs:
        card = parse_cards([card_name])[0]
        assert meld in layoff_targets(card, melds)
        melds[meld] |= 1 << card
        laid |= 1 << card
    assert laid & ~defender_hand == 0
    gin = scored.outcome in ("gin", "big_gin")
    assert not (gin and scored.layoffs)
    assert min_deadwood(defender_hand & ~laid) == scored.defender_deadwood
    best = defender_result(defender_hand, shown, layoffs_allowed=not gin).count
    assert scored.defender_deadwood >= best
    if not manual_layoffs:
        assert scored.defender_deadwood == best
    expected = expected_score(scored, record.events[index - 1 :: -1])
    assert (scored.outcome, scored.winner, scored.points) == expected


def expected_score(scored: Scored, earlier: list[Event]) -> tuple[str, int | None, int]:
    """RULES.md "Scoring a hand", written out again from its table."""
    options = next(e.options for e in earlier if hasattr(e, "options"))
    k, d, m = scored.knocker_deadwood, scored.defender_deadwood, scored.multiplier
    dealt = next(e for e in earlier if isinstance(e, Dealt))
    upcard = parse_cards([dealt.upcard])[0]
    assert m == (2 if options.oklahoma and options.oklahoma_spades_double and upcard >= 39 else 1)
    if scored.outcome == "big_gin":
        return "big_gin", scored.knocker, (d + options.big_gin_bonus) * m
    if k == 0:
        return "gin", scored.knocker, (d + options.gin_bonus) * m
    if d > k:
        return "knock", scored.knocker, (d - k) * m
    if d < k or options.undercut_on_tie:
        return "undercut", 1 - scored.knocker, (k - d + options.undercut_bonus) * m
    return "tie", None, 0


def check_limit(record: Record) -> None:
    """Every knock was within the hand's limit (Oklahoma: the upcard's value, an ace 0)."""
    dealt: Dealt | None = None
    for event in record.events:
        if isinstance(event, Dealt):
            dealt = event
        if isinstance(event, Scored) and event.outcome != "big_gin":
            assert dealt is not None
            assert event.knocker_deadwood <= dealt.knock_limit
            upcard = parse_cards([dealt.upcard])[0]
            if dealt.knock_limit != 10 and dealt.knock_limit != 0:
                assert dealt.knock_limit == VALUES[upcard] or dealt.knock_limit == 5


@MATCHES
@given(options=options_strategy, seed=st.integers(0, 2**32 - 1))
def test_complete_random_matches_keep_every_rule(options: RuleOptions, seed: int) -> None:
    state, record = play_match(options, random.Random(seed))
    assert state.phase is Phase.MATCH_OVER
    assert fold(record.events) == state
    assert [decode_event(encode_event(e)) for e in record.events] == record.events
    check_scores(record)
    check_limit(record)
