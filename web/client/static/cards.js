// Cards in the service's notation ("7h": rank then suit), their spoken names, and the melds
// a hand can make (the same rules as docs/rules.md: sets of one rank, runs of one suit, the
// ace always low), so a player sees their hand grouped and its deadwood count.

import { t } from "./i18n.js";

export const RANKS = "A23456789TJQK";
export const SUITS = "cdhs";

const SUIT_SYMBOLS = { c: "♣", d: "♦", h: "♥", s: "♠" };

/** @param {string} card */
export function rankOf(card) {
  return RANKS.indexOf(card[0]);
}

/** @param {string} card @returns {"c" | "d" | "h" | "s"} */
export function suitOf(card) {
  return /** @type {"c" | "d" | "h" | "s"} */ (card[1]);
}

/** "seven of hearts", "sedmica herc": what a screen reader says for a card. @param {string} card */
export function cardName(card) {
  return t("card.name", { rank: t(`rank.${card[0]}`), suit: t(`suit.${suitOf(card)}`) });
}

/** "7♥": what the eye reads. @param {string} card */
export function cardLabel(card) {
  const rank = card[0] === "T" ? "10" : card[0];
  return rank + SUIT_SYMBOLS[suitOf(card)];
}

/** @param {string} card */
export function isRed(card) {
  return card[1] === "d" || card[1] === "h";
}

/** Deadwood value: ace 1, two to nine their face, ten and court cards 10. @param {string} card */
export function value(card) {
  return Math.min(rankOf(card) + 1, 10);
}

/** @param {string[]} cards */
export function deadwoodOf(cards) {
  return cards.reduce((sum, card) => sum + value(card), 0);
}

/** By suit, then rank: how a hand is held. @param {string[]} cards */
export function sortCards(cards) {
  return [...cards].sort(
    (a, b) => SUITS.indexOf(a[1]) - SUITS.indexOf(b[1]) || rankOf(a) - rankOf(b),
  );
}

/** Every meld the cards contain (overlapping). @param {string[]} cards @returns {string[][]} */
export function possibleMelds(cards) {
  /** @type {string[][]} */
  const melds = [];
  for (let rank = 0; rank < RANKS.length; rank++) {
    const same = cards.filter((card) => rankOf(card) === rank);
    if (same.length >= 3) melds.push(same);
    if (same.length === 4) {
      for (const left of same) melds.push(same.filter((card) => card !== left));
    }
  }
  for (const suit of SUITS) {
    const held = new Set(cards.filter((card) => card[1] === suit).map(rankOf));
    for (let start = 0; start < RANKS.length; start++) {
      let end = start;
      while (held.has(end)) {
        end++;
        if (end - start >= 3) {
          const run = [];
          for (let rank = start; rank < end; rank++) run.push(RANKS[rank] + suit);
          melds.push(run);
        }
      }
    }
  }
  return melds;
}

/**
 * @typedef {{ melds: string[][], deadwood: string[], count: number }} Arrangement
 */

/**
 * Every way to lay the cards out in disjoint melds that cannot take one more meld, least
 * deadwood first.
 * @param {string[]} cards
 * @returns {Arrangement[]}
 */
export function arrangements(cards) {
  const candidates = possibleMelds(cards);
  /** @type {Arrangement[]} */
  const found = [];
  /** @param {number} from @param {string[][]} chosen @param {Set<string>} used */
  const search = (from, chosen, used) => {
    let extended = false;
    for (let i = from; i < candidates.length; i++) {
      const meld = candidates[i];
      if (meld.some((card) => used.has(card))) continue;
      extended = true;
      const next = new Set(used);
      for (const card of meld) next.add(card);
      search(i + 1, [...chosen, meld], next);
    }
    if (!extended && !candidates.some((m) => m.every((card) => !used.has(card)))) {
      const deadwood = sortCards(cards.filter((card) => !used.has(card)));
      found.push({ melds: chosen, deadwood, count: deadwoodOf(deadwood) });
    }
  };
  search(0, [], new Set());
  found.sort((a, b) => a.count - b.count);
  /** @type {Set<string>} */
  const seen = new Set();
  return found.filter((arrangement) => {
    const key = arrangement.melds.map((meld) => meld.join(" ")).sort().join("|");
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** The arrangement with the least deadwood. @param {string[]} cards @returns {Arrangement} */
export function bestArrangement(cards) {
  return arrangements(cards)[0] ?? { melds: [], deadwood: sortCards(cards), count: deadwoodOf(cards) };
}
