// What a hand and a game were worth, laid out so that they add up on screen: a scored hand's
// melds, deadwood and layoffs on both sides and its points from them (with the bonus by
// name and the spades' doubling), and a finished game's hand points, line, game and shutout
// bonuses, totals and what each side scores in the match from it.

import { cardRow, el } from "./dom.js";
import { t } from "./i18n.js";

/** @typedef {import("./seats.js").Seats} Seats */
/** @typedef {import("./api.js").Schemas["Scored"]} Scored */
/** @typedef {import("./api.js").Schemas["RuleOptions"]} RuleOptions */
/** @typedef {import("./api.js").Schemas["GameWon"]} GameWon */
/** @typedef {import("./api.js").Schemas["FormatGameWon"]} FormatGameWon */

/** "1 point", "18 points". @param {number} count */
export const points = (count) => t("points", { count });

/** A sentence about a side, said to "you" when the side is the seat's own (not a team's):
 * "You score 18 points", "Seat 2 scores 18 points".
 * @param {Seats} seats @param {number} side @param {string} yours the key said to you @param {string} theirs
 * @param {Record<string, string | number>} [params] */
export function aboutSide(seats, side, yours, theirs, params = {}) {
  const mine = !seats.teams && seats.isMine(side);
  return t(mine ? yours : theirs, { who: seats.sideName(side), ...params });
}

/** How the points of a scored hand come about, as a sum that reads left to right.
 * @param {Scored} e @param {RuleOptions} options @returns {string} */
export function pointsSum(e, options) {
  const k = e.knocker_deadwood;
  const d = e.defender_deadwood;
  /** @type {Record<Scored["outcome"], string>} */
  const sums = {
    big_gin: `${d} + ${t("sum.bigGinBonus", { bonus: options.big_gin_bonus })}`,
    gin: `${d} + ${t("sum.ginBonus", { bonus: options.gin_bonus })}`,
    knock: `${d} − ${k}`,
    undercut: options.undercut_bonus ? `${k} − ${d} + ${t("sum.undercutBonus", { bonus: options.undercut_bonus })}` : `${k} − ${d}`,
    tie: `${d} − ${k}`,
  };
  const sum = sums[e.outcome];
  const doubled = e.multiplier > 1 ? `(${sum}) × ${e.multiplier}` : sum;
  return `${doubled} = ${points(e.points)}`;
}

/**
 * A scored hand's two sides: the knocker's melds and deadwood, the defender's melds, cards
 * laid off and deadwood, then the points.
 * @param {Scored} e @param {number[]} tableSeats the match seats of the table's seats
 * @param {Seats} seats @param {RuleOptions} options
 */
export function scoredBreakdown(e, tableSeats, seats, options) {
  const knocker = e.knocker;
  const defender = 1 - knocker;
  const name = (/** @type {number} */ at) => seats.name(tableSeats[at] ?? at);
  const inMelds = new Set(e.knocker_melds.flat());
  const knockerDeadwood = (e.hands[knocker] ?? []).filter((card) => !inMelds.has(card));
  const melds = (/** @type {string[][]} */ all, /** @type {string} */ whose) =>
    all.length ? all.map((meld, index) => cardRow(meld, t("meld.whose", { who: whose, number: index + 1 }))) : [t("breakdown.noMelds")];
  return el("div", { class: "breakdown" }, [
    el("p", { "data-side": "knocker" }, [
      `${t("breakdown.melds", { who: name(knocker) })} `, ...melds(e.knocker_melds, name(knocker)),
      ` · ${t("breakdown.deadwood", { count: e.knocker_deadwood })} `, cardRow(knockerDeadwood, t("deadwood.whose", { who: name(knocker) })),
    ]),
    el("p", { "data-side": "defender" }, [
      `${t("breakdown.melds", { who: name(defender) })} `, ...melds(e.defender_melds, name(defender)),
      ...(e.layoffs.length
        ? [` · ${t("breakdown.laidOff")} `, ...e.layoffs.map(([card, meld]) => el("span", { class: "layoff", "data-meld": meld }, [cardRow([card], t("breakdown.laidOffOn", { number: meld + 1 })), ` ${t("breakdown.onMeld", { number: meld + 1 })} `]))]
        : []),
      ` · ${t("breakdown.deadwood", { count: e.defender_deadwood })} `, cardRow(e.defender_deadwood_cards, t("deadwood.whose", { who: name(defender) })),
    ]),
    el("p", { class: "points-sum", "data-points": e.points }, [
      e.winner === null ? t("result.tie") : `${name(e.winner)}: ${pointsSum(e, options)}.`,
    ]),
  ]);
}

/**
 * A finished game, side by side: hand points, line bonus (hands won × the line bonus), the
 * game bonus and the shutout bonus to the winner, the totals, and what is scored in the
 * match. Two players: one settlement; three or four: one between each pair of sides.
 * @param {GameWon | FormatGameWon} game @param {Seats} seats
 */
export function gameTable(game, seats) {
  const sides = game.hand_points.map((_, side) => side);
  const two = !("settlements" in game);
  const shutout = two ? [game.shutout_bonus] : game.settlements.map((s) => s.shutout_bonus);
  // Each row named in English for the page's own use (data-row), and in words for the player.
  /** @type {[string, string, (side: number) => string][]} */
  const rows = [
    ["Hand points", t("game.handPoints"), (side) => String(game.hand_points[side])],
    ["Hands won", t("game.handsWon"), (side) => String(game.hands_won[side])],
    ["Line bonus", t("game.lineBonus"), (side) => String(game.line_bonuses[side])],
    ["Game bonus", t("game.gameBonus"), (side) => String(side === game.winner ? game.game_bonus : 0)],
  ];
  if (two) {
    rows.push(["Shutout bonus", t("game.shutoutBonus"), (side) => String(side === game.winner ? game.shutout_bonus : 0)]);
    rows.push(["Total", t("game.total"), (side) => String(game.totals[side])]);
  }
  const table = el("table", { class: "game-table" }, [
    el("thead", {}, [el("tr", {}, [el("th", {}, [t("game.number", { number: game.game })]), ...sides.map((side) => el("th", { scope: "col" }, [seats.sideName(side)]))])]),
    el("tbody", {}, rows.map(([row, label, cell]) =>
      el("tr", { "data-row": row }, [el("th", { scope: "row" }, [label]), ...sides.map((side) => el("td", { "data-side": side }, [cell(side)]))]),
    )),
  ]);
  const scored = two
    ? [game.scored_by === null
        ? t("game.even")
        : aboutSide(seats, game.scored_by, "game.youScoreInMatch", "game.scoresInMatch", {
            points: points(game.points), a: game.totals[game.scored_by] ?? 0, b: game.totals[1 - game.scored_by] ?? 0,
          })]
    : [];
  return el("div", { class: "game-summary", "data-shutout": shutout.some(Boolean) }, [
    table,
    ...scored.map((line) => el("p", { "data-result": "game" }, [line])),
  ]);
}
