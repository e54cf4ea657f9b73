// What a hand and a game were worth, laid out so that they add up on screen: a scored hand's
// melds, deadwood and layoffs on both sides and its points from them (with the bonus by
// name and the spades' doubling), and a finished game's hand points, line, game and shutout
// bonuses, totals and what each side scores in the match from it.

import { cardRow, el } from "./dom.js";

/** @typedef {import("./seats.js").Seats} Seats */
/** @typedef {import("./api.js").Schemas["Scored"]} Scored */
/** @typedef {import("./api.js").Schemas["RuleOptions"]} RuleOptions */
/** @typedef {import("./api.js").Schemas["GameWon"]} GameWon */
/** @typedef {import("./api.js").Schemas["FormatGameWon"]} FormatGameWon */

/** "1 point", "18 points". @param {number} count */
export const points = (count) => (count === 1 ? "1 point" : `${count} points`);

/** "You score", "Seat 2 scores". @param {string} subject @param {string} base */
export const verb = (subject, base) => (subject === "You" ? base : `${base}s`);

/** How the points of a scored hand come about, as a sum that reads left to right.
 * @param {Scored} e @param {RuleOptions} options @returns {string} */
export function pointsSum(e, options) {
  const k = e.knocker_deadwood;
  const d = e.defender_deadwood;
  /** @type {Record<Scored["outcome"], string>} */
  const sums = {
    big_gin: `${d} + ${options.big_gin_bonus} big gin bonus`,
    gin: `${d} + ${options.gin_bonus} gin bonus`,
    knock: `${d} − ${k}`,
    undercut: options.undercut_bonus ? `${k} − ${d} + ${options.undercut_bonus} undercut bonus` : `${k} − ${d}`,
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
    all.length ? all.map((meld, index) => cardRow(meld, `${whose} meld ${index + 1}`)) : ["no melds"];
  return el("div", { class: "breakdown" }, [
    el("p", { "data-side": "knocker" }, [
      `${name(knocker)}: melds `, ...melds(e.knocker_melds, name(knocker)),
      ` · deadwood ${e.knocker_deadwood} `, cardRow(knockerDeadwood, `${name(knocker)} deadwood`),
    ]),
    el("p", { "data-side": "defender" }, [
      `${name(defender)}: melds `, ...melds(e.defender_melds, name(defender)),
      ...(e.layoffs.length
        ? [" · laid off ", ...e.layoffs.map(([card, meld]) => el("span", { class: "layoff", "data-meld": meld }, [cardRow([card], `laid off on meld ${meld + 1}`), ` on meld ${meld + 1} `]))]
        : []),
      ` · deadwood ${e.defender_deadwood} `, cardRow(e.defender_deadwood_cards, `${name(defender)} deadwood`),
    ]),
    el("p", { class: "points-sum", "data-points": e.points }, [
      e.winner === null ? "A tie: nobody scores." : `${name(e.winner)}: ${pointsSum(e, options)}.`,
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
  /** @type {[string, (side: number) => string][]} */
  const rows = [
    ["Hand points", (side) => String(game.hand_points[side])],
    ["Hands won", (side) => String(game.hands_won[side])],
    ["Line bonus", (side) => String(game.line_bonuses[side])],
    ["Game bonus", (side) => String(side === game.winner ? game.game_bonus : 0)],
  ];
  if (two) {
    rows.push(["Shutout bonus", (side) => String(side === game.winner ? game.shutout_bonus : 0)]);
    rows.push(["Total", (side) => String(game.totals[side])]);
  }
  const table = el("table", { class: "game-table" }, [
    el("thead", {}, [el("tr", {}, [el("th", {}, [`Game ${game.game}`]), ...sides.map((side) => el("th", { scope: "col" }, [seats.sideName(side)]))])]),
    el("tbody", {}, rows.map(([label, cell]) =>
      el("tr", { "data-row": label }, [el("th", { scope: "row" }, [label]), ...sides.map((side) => el("td", { "data-side": side }, [cell(side)]))]),
    )),
  ]);
  const scored = two
    ? [game.scored_by === null ? "The totals are even: nobody scores in the match." : `${seats.sideName(game.scored_by)} ${verb(seats.sideName(game.scored_by), "score")} ${points(game.points)} in the match (${game.totals[game.scored_by]} − ${game.totals[1 - game.scored_by]}).`]
    : [];
  return el("div", { class: "game-summary", "data-shutout": shutout.some(Boolean) }, [
    table,
    ...scored.map((line) => el("p", { "data-result": "game" }, [line])),
  ]);
}
