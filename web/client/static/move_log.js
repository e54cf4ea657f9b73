// The moves of every seat as they happen, read from the live stream: a bot's moves come back
// in the same answer as the person's own move, so the view alone never shows them. Each move
// is said in words (drew from the stock, took 7♥ from the discard pile, discarded 7♥, knocked
// with 4 deadwood, laid off 7♥ on meld 2), shown for a moment, kept in the move log and said
// to screen readers with the card names spoken. The stream a seat hears holds only what that
// seat may know (a card drawn from the stock by another seat comes without its card), and
// nothing here says more than the event does.

import { cardLabel, cardName } from "./cards.js";
import { el } from "./dom.js";
import { t } from "./i18n.js";

/** @typedef {import("./api.js").EventEnvelope} EventEnvelope */
/** @typedef {import("./seats.js").Seats} Seats */
/** @typedef {{ text: string, spoken: string, mine: boolean }} Said */

const KEPT = 40;
const SHOWN_MS = 4000;

/**
 * One move in words, or null for what is no move (a deal, a deadline).
 * @param {EventEnvelope["event"]} event
 * @param {Seats} seats
 * @returns {Said | null}
 */
export function describe(event, seats) {
  /** @type {number[]} */
  let atTable = [0, 1];
  let inner = /** @type {any} */ (event);
  if (event.type === "table_event") {
    atTable = event.seats;
    inner = event.event;
  }
  const seatOf = (/** @type {number} */ at) => atTable[at] ?? at;
  /** @param {(card: string) => string} card */
  const words = (card) => sentence(inner, seatOf, seats, card);
  const text = words(cardLabel);
  if (text === null) return null;
  const mover = "seat" in inner && typeof inner.seat === "number" ? seatOf(inner.seat) : null;
  return { text, spoken: words(cardName) ?? text, mine: mover === seats.seat };
}

/**
 * @param {any} e a table's event
 * @param {(at: number) => number} seatOf the match seat of a table seat
 * @param {Seats} seats
 * @param {(card: string) => string} card how a card is written
 * @returns {string | null}
 */
function sentence(e, seatOf, seats, card) {
  // Said of the seat itself in the second person ("You discarded"), of any other by name.
  /** @param {string} key @param {Record<string, string | number>} [params] @param {number} [seat] */
  const said = (key, params = {}, seat = seatOf(e.seat)) =>
    t(seat === seats.seat ? `${key}You` : key, { who: seats.name(seat), ...params });
  switch (e.type) {
    case "upcard_passed":
      return said("move.passed");
    case "drew":
      if (e.source === "stock") return said("move.drewStock");
      return e.card ? said("move.tookCard", { card: card(e.card) }) : said("move.tookTop");
    case "discarded":
      return said("move.discarded", { card: card(e.card) });
    case "knocked":
      if (e.big_gin) return said("move.bigGin");
      if (e.gin) return said("move.gin");
      return said("move.knocked", { count: e.deadwood_count });
    case "laid_off":
      return said("move.laidOff", { card: card(e.card), number: e.meld + 1 });
    case "scored":
      if (e.winner === null) return t("result.tie");
      return said("move.scored", { points: t("points", { count: e.points }) }, seatOf(e.winner));
    case "hand_drawn":
      return t("result.drawn");
    default:
      return null;
  }
}

/**
 * The move log and the line that shows the latest move for a moment; ``hear`` takes each
 * event the live stream brings.
 */
export function moveLog() {
  const list = el("ol", { class: "move-log-list" });
  const log = el("section", { class: "move-log", "aria-label": t("log.title") }, [el("h2", {}, [t("log.title")]), list]);
  log.hidden = true;
  const latest = el("p", { class: "last-move", hidden: true });
  // Said to screen readers once each: the other seats' moves (a player knows their own).
  const spoken = el("p", { class: "spoken-moves visually-hidden", "aria-live": "polite", "aria-atomic": "false" });
  /** @type {ReturnType<typeof setTimeout> | null} */
  let fading = null;

  /** @param {EventEnvelope} entry @param {Seats} seats */
  const hear = (entry, seats) => {
    const said = describe(entry.event, seats);
    if (!said) return;
    log.hidden = false;
    list.append(el("li", { "data-version": entry.version, "data-mine": String(said.mine) }, [said.text]));
    while (list.children.length > KEPT) list.firstElementChild?.remove();
    if (said.mine) return;
    latest.textContent = said.text;
    latest.hidden = false;
    spoken.append(el("span", {}, [said.spoken, " "]));
    while (spoken.children.length > 3) spoken.firstElementChild?.remove();
    if (fading !== null) clearTimeout(fading);
    fading = setTimeout(() => (latest.hidden = true), SHOWN_MS);
  };
  return { log, latest, spoken, hear };
}
