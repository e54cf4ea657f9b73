// The rules a record is checked against, written from docs/rules.md: what a meld is, the
// least deadwood a hand can be arranged with, what may be laid off where, what a hand and a
// game score. Pure functions of cards and options; the verifier (play_check.js) applies them.

import { RANKS, SUITS, deadwoodOf, possibleMelds, rankOf, value } from "./cards.js";

/**
 * The options a record's match was created with (docs/rules.md, "Rule options"); those the
 * checks read.
 * @typedef {object} Options
 * @property {number} knock_limit
 * @property {number} gin_bonus
 * @property {number} big_gin_bonus
 * @property {number} undercut_bonus
 * @property {boolean} undercut_on_tie
 * @property {number} game_target
 * @property {number} game_bonus
 * @property {number} line_bonus
 * @property {number} shutout_bonus
 * @property {number} match_target
 * @property {boolean} oklahoma
 * @property {boolean} oklahoma_spades_double
 * @property {"winner" | "alternate"} next_dealer
 * @property {number} turn_seconds
 * @property {number} bank_seconds
 * @property {number} timeouts_to_forfeit
 */

/** @param {string} card */
export const isCard = (card) => typeof card === "string" && card.length === 2 && RANKS.includes(card[0]) && SUITS.includes(card[1]);

/** Card order: by suit (c d h s), then rank. @param {string} card */
export const cardOrder = (card) => SUITS.indexOf(card[1]) * 13 + rankOf(card);

/** @param {string[]} cards */
export const inOrder = (cards) => [...cards].sort((a, b) => cardOrder(a) - cardOrder(b));

/** Whether two lists hold the same cards, in any order. @param {string[]} a @param {string[]} b */
export const sameCards = (a, b) => a.length === b.length && inOrder(a).join() === inOrder(b).join();

/** A set (3 or 4 of one rank) or a run (3 or more of one suit in a row, the ace low, no wrap). @param {string[]} meld */
export function isMeld(meld) {
  if (!Array.isArray(meld) || meld.length < 3 || !meld.every(isCard) || new Set(meld).size !== meld.length) return false;
  if (meld.every((card) => card[0] === meld[0][0])) return meld.length <= 4;
  if (!meld.every((card) => card[1] === meld[0][1])) return false;
  const ranks = meld.map(rankOf).sort((a, b) => a - b);
  return ranks.every((rank, i) => i === 0 || rank === ranks[i - 1] + 1);
}

/** The least deadwood count the cards can be arranged with. @param {string[]} cards */
export function leastDeadwood(cards) {
  const melds = possibleMelds(cards);
  let best = deadwoodOf(cards);
  /** @param {number} from @param {Set<string>} used @param {number} melded */
  const search = (from, used, melded) => {
    best = Math.min(best, deadwoodOf(cards) - melded);
    for (let i = from; i < melds.length; i++) {
      const meld = melds[i];
      if (meld.some((card) => used.has(card))) continue;
      const next = new Set(used);
      for (const card of meld) next.add(card);
      search(i + 1, next, melded + deadwoodOf(meld));
    }
  };
  search(0, new Set(), 0);
  return best;
}

/** Whether all the cards can be melded at once. @param {string[]} cards */
export const allMeld = (cards) => leastDeadwood(cards) === 0;

/**
 * Whether `card` may be laid off onto `meld` as it stands: a fourth card of a three-card
 * set, or the card next to either end of a run (never past the ace or the king).
 * @param {string} card @param {string[]} meld
 */
export function fits(card, meld) {
  if (meld.includes(card)) return false;
  // A meld's cards share a rank only in a set; a run's ranks all differ.
  if (meld.every((c) => c[0] === meld[0][0])) return meld.length === 3 && card[0] === meld[0][0];
  if (card[1] !== meld[0][1]) return false;
  const ranks = meld.map(rankOf);
  const rank = rankOf(card);
  return rank === Math.min(...ranks) - 1 || rank === Math.max(...ranks) + 1;
}

/**
 * The least deadwood the defender can be left with from here, laying off any of `cards`
 * onto `melds` (one at a time, each onto the meld as it then stands) and arranging the rest.
 * @param {string[]} cards @param {string[][]} melds
 */
export function leastAfterLayoffs(cards, melds) {
  /** @type {Map<string, number>} */
  const seen = new Map();
  /** @param {string[]} held @param {string[][]} onto @returns {number} */
  const search = (held, onto) => {
    const key = `${inOrder(held).join()}/${onto.map((meld) => inOrder(meld).join()).join("|")}`;
    const known = seen.get(key);
    if (known !== undefined) return known;
    let best = leastDeadwood(held);
    for (const card of held) {
      for (let m = 0; m < onto.length; m++) {
        if (!fits(card, onto[m])) continue;
        const extended = onto.map((meld, i) => (i === m ? [...meld, card] : meld));
        best = Math.min(best, search(held.filter((c) => c !== card), extended));
      }
    }
    seen.set(key, best);
    return best;
  };
  return search(cards, melds);
}

/**
 * A hand's knock limit and multiplier: with Oklahoma the upcard sets them (an ace: gin only;
 * a spade doubles, unless that option is off).
 * @param {Options} options @param {string} upcard
 */
export function handTerms(options, upcard) {
  if (!options.oklahoma) return { knockLimit: options.knock_limit, multiplier: 1 };
  const knockLimit = rankOf(upcard) === 0 ? 0 : value(upcard);
  return { knockLimit, multiplier: options.oklahoma_spades_double && upcard[1] === "s" ? 2 : 1 };
}

/**
 * The outcome of a hand, who wins it and its points (docs/rules.md, "Scoring a hand").
 * @param {Options} options
 * @param {{ gin: boolean, bigGin: boolean, knocker: number, knockerDeadwood: number, defenderDeadwood: number, multiplier: number }} hand
 * @returns {{ outcome: "knock" | "undercut" | "gin" | "big_gin" | "tie", winner: number | null, points: number }}
 */
export function handScore(options, hand) {
  const { knocker, multiplier } = hand;
  const K = hand.knockerDeadwood;
  const D = hand.defenderDeadwood;
  if (hand.bigGin) return { outcome: "big_gin", winner: knocker, points: (D + options.big_gin_bonus) * multiplier };
  if (hand.gin) return { outcome: "gin", winner: knocker, points: (D + options.gin_bonus) * multiplier };
  if (D > K) return { outcome: "knock", winner: knocker, points: (D - K) * multiplier };
  if (D === K && !options.undercut_on_tie) return { outcome: "tie", winner: null, points: 0 };
  return { outcome: "undercut", winner: 1 - knocker, points: (K - D + options.undercut_bonus) * multiplier };
}

/**
 * A game's settlement between every two sides (docs/rules.md, "A game", and "Three and four
 * players"): each side's total is its hand points and a line bonus per hand (or round) won;
 * the game's winner adds the game bonus, and the shutout bonus against a side that won
 * nothing; the higher total scores the difference.
 * @param {Options} options @param {number} winner @param {number[]} handPoints @param {number[]} handsWon
 */
export function settleGame(options, winner, handPoints, handsWon) {
  const settlements = [];
  for (let first = 0; first < handPoints.length; first++) {
    for (let second = first + 1; second < handPoints.length; second++) {
      const sides = [first, second];
      const totals = sides.map((side) => handPoints[side] + handsWon[side] * options.line_bonus);
      const at = sides.indexOf(winner);
      const shutout = at >= 0 && handsWon[sides[1 - at]] === 0 ? options.shutout_bonus : 0;
      if (at >= 0) totals[at] += options.game_bonus + shutout;
      const difference = totals[0] - totals[1];
      const scoredBy = difference > 0 ? first : difference < 0 ? second : null;
      settlements.push({ sides, totals, shutout_bonus: shutout, scored_by: scoredBy, points: Math.abs(difference) });
    }
  }
  return settlements;
}

/**
 * A two-player game's bonuses, totals and what is scored into the match: its one settlement.
 * @param {Options} options @param {number} winner @param {number[]} handPoints @param {number[]} handsWon
 */
export function gameScore(options, winner, handPoints, handsWon) {
  const [{ totals, shutout_bonus, scored_by, points }] = settleGame(options, winner, handPoints, handsWon);
  const lineBonuses = handsWon.map((won) => won * options.line_bonus);
  return { game_bonus: options.game_bonus, line_bonuses: lineBonuses, shutout_bonus, totals, scored_by, points };
}

/** The side whose hand points reached the game target, if any. @param {Options} options @param {number[]} handPoints */
export const gameWinner = (options, handPoints) => {
  const side = handPoints.findIndex((points) => points >= options.game_target);
  return side < 0 ? null : side;
};

/**
 * The match's winner once a game is won: the side with the highest match score once it
 * reaches the target (a target of 0: after one game); equal highest go to the game's winner
 * if among them, else to the lowest side.
 * @param {Options} options @param {number[]} matchScores @param {number} winner the game's
 * @returns {number | null}
 */
export function matchWinner(options, matchScores, winner) {
  let best = 0;
  matchScores.forEach((score, side) => {
    if (score > matchScores[best] || (score === matchScores[best] && side === winner)) best = side;
  });
  return options.match_target === 0 || matchScores[best] >= options.match_target ? best : null;
}

/**
 * The discard a timed-out seat is given: the card leaving the least deadwood; of those the
 * highest value, then the highest rank, then the last in card order.
 * @param {string[]} hand eleven cards @param {string | null} taken the card just taken from the pile, which may not go
 */
export function defaultDiscard(hand, taken) {
  const choices = hand.filter((card) => card !== taken);
  /** @param {string} card */
  const key = (card) => [leastDeadwood(hand.filter((c) => c !== card)), -value(card), -rankOf(card), -cardOrder(card)];
  return choices.reduce((best, card) => {
    const a = key(card);
    const b = key(best);
    for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i] < b[i] ? card : best;
    return best;
  });
}
