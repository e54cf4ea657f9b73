"""The page's verifier does a game's and a round's arithmetic by its own code
(``web/client/static/rules.js``, ``formats.js``): on many random cases, small numbers so that
ties are common, it gives what the domain gives: who wins a game, its settlement between every
two sides, who wins the match, and at three and four seats who plays whom, who sits out, who
deals next and who wins a match a seat gives up."""

from __future__ import annotations

import random
from typing import Any

import msgspec

from domain.options import RuleOptions
from domain.scoring import game_winner, match_winner, settle_game
from domain.tables.formats import FORMATS
from domain.tables.state import TablesState
from tests.browser.conftest import Pages

CASES = 300

IN_THE_PAGE = """
async (cases) => {
  const rules = await import("/rules.js");
  const { FORMATS } = await import("/formats.js");
  return cases.map((c) => {
    const { options, winner, handPoints, handsWon, matchScores, dealer } = c;
    const format = FORMATS[c.players];
    const tables = format.roundTables(dealer, c.round);
    return {
      game_winner: rules.gameWinner(options, handPoints),
      settlements: rules.settleGame(options, winner, handPoints, handsWon),
      match_winner: rules.matchWinner(options, matchScores, winner),
      tables,
      sitting_out: format.sittingOut(dealer),
      next_dealer: format.nextDealerSide(dealer, tables, c.roundWinner, options.next_dealer),
      conceded_to: format.concededTo(c.seat, matchScores, handPoints),
    };
  });
}
"""


def a_case(rng: random.Random) -> dict[str, Any]:
    players = rng.choice([3, 4])
    sides = FORMATS[players].sides
    options = RuleOptions(
        game_target=rng.choice([10, 20]),
        game_bonus=rng.choice([0, 10]),
        line_bonus=rng.choice([0, 5]),
        shutout_bonus=rng.choice([0, 10]),
        match_target=rng.choice([0, 20, 40]),
        next_dealer=rng.choice(["winner", "alternate"]),
    )
    dealer, round_number = rng.randrange(sides), rng.randrange(1, 5)
    # A seat at the round's (first) table wins it.
    seat = rng.choice(FORMATS[players].round_tables(dealer, round_number)[0])
    return {
        "options": msgspec.to_builtins(options),
        "winner": rng.randrange(sides),
        "handPoints": [rng.choice([0, 5, 10, 20]) for _ in range(sides)],
        "handsWon": [rng.randrange(3) for _ in range(sides)],
        "matchScores": [rng.choice([0, 20, 40]) for _ in range(sides)],
        "players": players,
        "dealer": dealer,
        "round": round_number,
        "roundWinner": FORMATS[players].side_by_seat[seat],
        "seat": rng.randrange(players),
    }


def in_the_domain(case: dict[str, Any]) -> dict[str, Any]:
    options = msgspec.convert(case["options"], RuleOptions)
    format_ = FORMATS[case["players"]]
    dealer, winner = case["dealer"], case["winner"]
    tables = format_.round_tables(dealer, case["round"])
    state = TablesState(
        players=case["players"],
        options=options,
        dealer_side=dealer,
        table_seats=tuple((a, b) for a, b in tables),
        match_scores=tuple(case["matchScores"]),
        hand_points=tuple(case["handPoints"]),
    )
    return {
        "game_winner": game_winner(case["handPoints"], options),
        "settlements": msgspec.to_builtins(
            settle_game(winner, case["handPoints"], case["handsWon"], options)
        ),
        "match_winner": match_winner(case["matchScores"], winner, options),
        "tables": tables,
        "sitting_out": format_.sitting_out(dealer),
        "next_dealer": format_.next_dealer_side(state, case["roundWinner"]),
        "conceded_to": format_.conceded_to(state, case["seat"]),
    }


async def test_the_pages_game_and_round_arithmetic_is_the_domains(pages: Pages) -> None:
    rng = random.Random(7)
    cases = [a_case(rng) for _ in range(CASES)]
    page = await pages.open("/")
    said = await page.evaluate(IN_THE_PAGE, cases)
    for case, in_page in zip(cases, said, strict=True):
        assert in_page == in_the_domain(case), case
