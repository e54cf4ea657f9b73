// The moves a seat can make at its table, drawn from the only moves the service lists for it
// (``legal_actions``): the stock and the discard pile, the knock being laid off on, the hand
// (a card is a button when discarding it is legal) and the ways to knock. Nothing here decides
// what is legal, and the same controls serve every table size.

import { arrangements, bestArrangement, cardLabel, cardName, sortCards } from "./cards.js";
import { cardFace, cardRow, el, heading } from "./dom.js";
import { t } from "./i18n.js";

/** @typedef {import("./api.js").Action} Action */
/** @typedef {import("./seats.js").Side} Side */

const ARRANGEMENTS_PER_KNOCK = 3;

/** The keys of the moves that need no card. */
export const KEYS = { s: "draw_from_stock", d: "draw_from_discard", t: "take_upcard", p: "pass_upcard", f: "finish_layoff", g: "big_gin" };

/** @param {string} card */
const spoken = (card) => `${cardName(card)} (${cardLabel(card)})`;

/** @param {Action[]} actions @param {string} type */
const find = (actions, type) => actions.find((action) => action.type === type);

/**
 * @param {string} label
 * @param {Action | undefined} action
 * @param {(action: Action) => void} act
 * @param {string} [keyHint]
 */
function actionButton(label, action, act, keyHint) {
  if (!action) return null;
  return el("button", { type: "button", "data-action": action.type, "aria-keyshortcuts": keyHint, onclick: () => act(action) }, [label]);
}

/** @param {Side} view @param {Action[]} actions @param {(action: Action) => void} act */
export function table(view, actions, act) {
  const top = view.discard_pile.at(-1);
  const dealerChoices = actions.filter((a) => a.type === "choose_dealer");
  return el("section", { class: "table", "aria-label": t("table.label") }, [
    el("div", { class: "stock" }, [
      el("span", { class: "card back", role: "img", "aria-label": t("table.stockLabel", { count: view.stock_size }) }, [String(view.stock_size)]),
      actionButton(t("action.drawStock"), find(actions, "draw_from_stock"), act, "s"),
    ]),
    el("div", { class: "pile" }, [
      top ? cardFace(top) : el("span", { class: "card empty" }, ["—"]),
      el("span", { class: "count" }, [t("table.pileCount", { count: view.discard_pile.length })]),
      actionButton(top ? t("action.takeCard", { card: cardLabel(top) }) : t("action.take"), find(actions, "draw_from_discard"), act, "d"),
      actionButton(top ? t("action.takeUpcardCard", { card: cardLabel(top) }) : t("action.takeUpcard"), find(actions, "take_upcard"), act, "t"),
      actionButton(t("action.pass"), find(actions, "pass_upcard"), act, "p"),
    ]),
    dealerChoices.length
      ? el("div", { class: "choices" }, dealerChoices.map((a) =>
          actionButton(a.type === "choose_dealer" && a.dealer === view.seat ? t("action.iDeal") : t("action.opponentDeals"), a, act),
        ))
      : null,
  ]);
}

/** The knocker's melds during layoff, with each layoff the service lists. */
export function knockOnTable(/** @type {Side} */ view, /** @type {Action[]} */ actions, /** @type {(action: Action) => void} */ act) {
  const knock = view.knock;
  if (!knock) return null;
  // A card of one of the defender's own melds may be laid off too, but then that meld is
  // broken and its other cards may count as deadwood: the button says so.
  const inMyMelds = new Set(bestArrangement(view.hand).melds.flat());
  /** @param {Action} a */
  const layOff = (a) => {
    if (a.type !== "lay_off") return null;
    const breaks = inMyMelds.has(a.card);
    const label = t(breaks ? "action.layOffBreaks" : "action.layOff", { card: cardLabel(a.card) });
    const button = actionButton(label, a, act);
    if (button && breaks) {
      button.dataset.breaksMeld = "true";
      button.setAttribute("aria-label", t("action.layOffBreaksSpoken", { card: cardName(a.card) }));
      button.classList.add("warn");
    }
    return button;
  };
  return el("section", { class: "knock", "aria-label": t("knock.label") }, [
    heading(knock.knocker === view.seat ? t(knock.gin ? "knock.youGin" : "knock.you") : t(knock.gin ? "knock.opponentGin" : "knock.opponent")),
    el("ol", { class: "melds" }, knock.melds.map((meld, index) =>
      el("li", { "data-meld": index }, [
        cardRow(meld, t("meld.number", { number: index + 1 })),
        ...actions.flatMap((a) =>
          a.type === "lay_off" && a.meld === index ? [layOff(a)] : [],
        ),
      ]),
    )),
    el("p", {}, [t("knock.deadwood", { count: knock.deadwood_count }), " ", cardRow(knock.deadwood, t("knock.deadwoodLabel"))]),
    actionButton(t("action.finishLayoff"), find(actions, "finish_layoff"), act, "f"),
  ]);
}

/**
 * Your hand, melds grouped and deadwood last; a card is a button when discarding it is legal.
 * @param {Side} view @param {Action[]} actions @param {(action: Action) => void} act
 * @param {() => void} toggleKnock
 */
export function hand(view, actions, act, toggleKnock) {
  const arranged = bestArrangement(view.hand);
  /** @param {string} card */
  const face = (card) => {
    const discard = actions.find((a) => a.type === "discard" && a.card === card);
    return discard ? cardFace(card, () => act(discard), t("hand.discardHint")) : cardFace(card);
  };
  return el("section", { class: "hand", "aria-label": t("hand.label") }, [
    heading(t("hand.heading", { count: arranged.count })),
    el("div", { class: "groups" }, [
      ...arranged.melds.map((meld) => el("span", { class: "meld", role: "group", "aria-label": t("meld.label") }, sortCards(meld).map(face))),
      arranged.deadwood.length
        ? el("span", { class: "deadwood", role: "group", "aria-label": t("deadwood.label") }, arranged.deadwood.map(face))
        : null,
    ]),
    el("div", { class: "actions" }, [
      actions.some((a) => a.type === "knock")
        ? el("button", { type: "button", "data-action": "knock-menu", "aria-keyshortcuts": "k", onclick: toggleKnock }, [t("action.knockMenu")])
        : null,
      actionButton(t("action.bigGin"), find(actions, "big_gin"), act, "g"),
    ]),
  ]);
}

/**
 * Each knock the service lists, with the ways to lay out the other ten cards within the
 * knock limit, least deadwood first whatever the card put face down (what a player looks for
 * first): the player picks the arrangement shown to the opponent.
 * @param {Side} view @param {Action[]} actions @param {(action: Action) => void} act
 */
export function knockChoices(view, actions, act) {
  const ways = actions.flatMap((action) => {
    if (action.type !== "knock") return [];
    const rest = view.hand.filter((card) => card !== action.card);
    return arrangements(rest)
      .filter((a) => a.count <= view.knock_limit)
      .slice(0, ARRANGEMENTS_PER_KNOCK)
      .map((arrangement) => ({ action, arrangement }));
  });
  ways.sort((a, b) => a.arrangement.count - b.arrangement.count);
  const rows = ways.map(({ action, arrangement }) => {
    const melds = arrangement.melds.map((meld) => sortCards(meld));
    const gin = arrangement.count === 0;
    const params = { card: cardLabel(action.card), melds: melds.map((m) => m.map(cardLabel).join(" ")).join(" | "), count: arrangement.count };
    const text = t(gin ? "knock.choiceGin" : "knock.choice", params);
    return el("li", {}, [
      el("button", {
        type: "button",
        "data-action": gin ? "gin" : "knock",
        "data-card": action.card,
        "aria-label": t(gin ? "knock.choiceGinSpoken" : "knock.choiceSpoken", { card: spoken(action.card), count: arrangement.count }),
        onclick: () => act({ ...action, melds }),
      }, [text]),
    ]);
  });
  return el("section", { class: "knock-choices", "aria-label": t("knock.waysLabel") }, [heading(t("knock.ways")), el("ul", {}, rows)]);
}

/** @param {number} step */
export function moveFocus(step) {
  const cards = /** @type {HTMLElement[]} */ ([...document.querySelectorAll(".hand .card")]);
  const at = cards.indexOf(/** @type {HTMLElement} */ (document.activeElement));
  const next = cards[(at + step + cards.length) % cards.length];
  next?.focus();
}

/**
 * Focus where it was before the board was drawn again, so a keyboard player never has to tab
 * back in after a move: the same control, else the same card, else the first move offered,
 * else the first card of the hand, else the board itself.
 * @param {HTMLElement} board @param {HTMLElement} was the element focused before
 */
export function keepFocus(board, was) {
  const action = was.dataset.action;
  const card = was.dataset.card;
  const same = [
    action && !card ? `button[data-action="${action}"]` : null,
    card ? `button[data-card="${card}"]` : null,
    "button[data-action]",
    ".hand button.card",
    ".hand .card",
    "button",
  ];
  for (const selector of same) {
    const found = selector ? /** @type {HTMLElement | null} */ (board.querySelector(selector)) : null;
    if (found) {
      if (!found.matches("button")) found.tabIndex = -1;
      found.focus();
      return;
    }
  }
  board.tabIndex = -1;
  board.focus();
}
