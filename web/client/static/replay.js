// The replay viewer: a finished match's record (fetched by its link, or loaded from a file),
// stepped through event by event with both hands shown, the scores at each step, and the
// browser's own verdict on the record (verify.js).

import * as api from "./api.js";
import { bestArrangement, cardLabel, sortCards } from "./cards.js";
import { cardRow, el, heading } from "./dom.js";
import { verifyRecord } from "./verify.js";

/** @typedef {import("./api.js").GameRecord} GameRecord */
/**
 * @typedef {object} Frame the table right after one event
 * @property {number} version
 * @property {string} said what the event was, in words
 * @property {number} game
 * @property {number} hand
 * @property {string[][]} hands
 * @property {string[]} pile
 * @property {number} stock
 * @property {number[]} handPoints
 * @property {number[]} matchScores
 * @property {{ seat: number, melds: string[][], deadwood: string[] } | null} knock
 */

/** @param {HTMLElement} root @param {string | null} matchId */
export async function replayScreen(root, matchId) {
  const viewer = el("div", { class: "viewer" });
  const fileInput = /** @type {HTMLInputElement} */ (
    el("input", { id: "record-file", type: "file", accept: "application/json,.json" })
  );
  fileInput.addEventListener("change", async () => {
    const file = fileInput.files?.[0];
    if (!file) return;
    /** @type {unknown} */
    let loaded;
    try {
      loaded = JSON.parse(await file.text());
    } catch (error) {
      // Not even JSON: no record, which is a verdict too.
      const line = verdictLine();
      viewer.replaceChildren(line);
      say(line, false, `Discrepancy: the file is not JSON: ${error instanceof Error ? error.message : String(error)}`);
      return;
    }
    await show(viewer, /** @type {GameRecord} */ (loaded));
  });
  root.replaceChildren(
    el("section", { class: "replay", "aria-label": "Replay" }, [
      heading("Replay"),
      el("p", {}, [el("label", { for: "record-file" }, ["Load a game record file: "]), fileInput]),
      viewer,
    ]),
  );
  if (matchId) {
    try {
      await show(viewer, await api.record(matchId));
    } catch (error) {
      viewer.replaceChildren(el("p", { class: "problem", role: "alert" }, [error instanceof Error ? error.message : String(error)]));
    }
  }
}

/** The line that will say a record's verdict. */
const verdictLine = () => el("p", { class: "verdict", role: "status", "aria-live": "polite" }, ["Checking the record…"]);

/** @param {HTMLElement} line @param {boolean} ok @param {string} said */
function say(line, ok, said) {
  line.dataset.verdict = ok ? "verified" : "discrepancy";
  line.className = `verdict ${ok ? "verified" : "tampered"}`;
  line.textContent = said;
}

/** @param {HTMLElement} viewer @param {GameRecord} record */
async function show(viewer, record) {
  const line = verdictLine();
  viewer.replaceChildren(line);
  const verdict = await verifyRecord(record);
  say(line, verdict.ok, verdict.ok
    ? `Verified in this browser: ${verdict.lines.join("; ")}.`
    : `Discrepancy: ${verdict.problem}`);
  /** @type {Step[]} */
  let frames;
  try {
    const entries = record.match_stream.events.map((entry) => ({ version: entry.version, event: JSON.parse(entry.data) }));
    // Three or four players: their tables are drawn by a module of their own, loaded for them.
    frames = entries[0]?.event.type === "format_match_created"
      ? (await import("./format_replay.js")).formatSteps(entries)
      : twoPlayerSteps(fold(entries));
  } catch {
    return;
  }
  if (frames.length === 0) return;
  let at = frames.length - 1;
  const stage = el("div", { class: "stage" });
  const position = el("span", { class: "position", "aria-live": "polite" });
  const jump = /** @type {HTMLSelectElement} */ (
    el("select", { id: "jump-to-hand", "aria-label": "Jump to hand" }, [
      el("option", { value: "" }, ["Jump to hand…"]),
      ...frames.flatMap((frame, index) => (frame.jump ? [el("option", { value: index }, [frame.jump])] : [])),
    ])
  );
  /** @param {number} to */
  const go = (to) => {
    at = Math.max(0, Math.min(frames.length - 1, to));
    draw();
  };
  jump.addEventListener("change", () => jump.value && go(Number(jump.value)));
  const controls = el("div", { class: "controls" }, [
    el("button", { type: "button", "data-step": "first", onclick: () => go(0) }, ["First"]),
    el("button", { type: "button", "data-step": "back", "aria-keyshortcuts": "ArrowLeft", onclick: () => go(at - 1) }, ["◀ Back"]),
    el("button", { type: "button", "data-step": "forward", "aria-keyshortcuts": "ArrowRight", onclick: () => go(at + 1) }, ["Forward ▶"]),
    el("button", { type: "button", "data-step": "last", onclick: () => go(frames.length - 1) }, ["Last"]),
    jump,
    position,
  ]);
  document.onkeydown = (event) => {
    if (event.target instanceof HTMLSelectElement || event.target instanceof HTMLInputElement) return;
    if (event.key === "ArrowLeft") go(at - 1);
    if (event.key === "ArrowRight") go(at + 1);
  };

  function draw() {
    const frame = frames[at];
    position.textContent = `Event ${frame.version} of ${frames[frames.length - 1].version}: ${frame.said}`;
    viewer.dataset.version = String(frame.version);
    try {
      stage.replaceChildren(...frame.draw());
    } catch (error) {
      // A mangled record's step may hold what no table can show; its verdict says so.
      stage.replaceChildren(el("p", { class: "problem", role: "alert" }, [`This step cannot be drawn: ${error instanceof Error ? error.message : String(error)}`]));
    }
  }
  viewer.append(controls, stage);
  draw();
}

/**
 * One step of the replay: what happened, where a hand (or a round) begins, and the table.
 * @typedef {{ version: number, said: string, jump: string | null, draw: () => (Node | string)[] }} Step
 */

/** @param {Frame[]} frames @returns {Step[]} */
function twoPlayerSteps(frames) {
  return frames.map((frame, index) => ({
    version: frame.version,
    said: frame.said,
    jump: index > 0 && frame.hand !== frames[index - 1].hand ? `Game ${frame.game}, hand ${frame.hand}` : null,
    draw: () => [
      el("dl", { class: "scores", "aria-label": "Scores" }, [0, 1].flatMap((seat) => [
        el("dt", {}, [`Seat ${seat}`]),
        el("dd", { "data-score": seat }, [`${frame.handPoints[seat]} (match ${frame.matchScores[seat]})`]),
      ])),
      el("p", {}, [`Game ${frame.game}, hand ${frame.hand} · stock ${frame.stock} · discard pile: `, frame.pile.length ? cardRow([/** @type {string} */ (frame.pile.at(-1))], "top of the discard pile") : "empty"]),
      ...[0, 1].map((seat) => seatHand(frame.hands[seat], seat, `Seat ${seat}`)),
      knockLine(frame, `Seat ${frame.knock?.seat}`),
    ],
  }));
}

/** A seat's hand, melds first. @param {string[]} cards @param {number} seat @param {string} name */
export function seatHand(cards, seat, name) {
  const arranged = bestArrangement(cards);
  return el("p", { class: "seat", "data-seat": seat }, [
    `${name} (deadwood ${arranged.count}): `,
    ...arranged.melds.map((meld) => el("span", { class: "meld" }, [cardRow(sortCards(meld), `${name} meld`)])),
    " ",
    el("span", { class: "deadwood" }, [cardRow(arranged.deadwood, `${name} deadwood`)]),
  ]);
}

/** @param {Frame} frame @param {string} knocker */
export function knockLine(frame, knocker) {
  const knock = frame.knock;
  if (!knock) return "";
  return el("p", {}, [
    `${knocker} knocked: `,
    ...knock.melds.map((meld) => cardRow(meld, "knocker's meld")),
    " deadwood ",
    cardRow(knock.deadwood, "knocker's deadwood"),
  ]);
}

/**
 * The table after each event, for display only (verify.js checks; this only shows).
 * @param {{ version: number, event: any }[]} entries
 * @returns {Frame[]}
 */
export function fold(entries) {
  let frame = emptyFrame();
  /** @type {Frame[]} */
  const frames = [];
  for (const { version, event } of entries) {
    frame = step(frame, version, event, (seat) => `Seat ${seat}`);
    frames.push(frame);
  }
  return frames;
}

/** A two-player table before anything happened at it. @returns {Frame} */
export const emptyFrame = () => ({ version: 0, said: "", game: 1, hand: 0, hands: [[], []], pile: [], stock: 0, handPoints: [0, 0], matchScores: [0, 0], knock: null });

/**
 * The table after one more event of a two-player hand.
 * @param {Frame} frame @param {number} version @param {any} e the event
 * @param {(seat: number) => string} seatName a table seat's name in what is said
 * @returns {Frame}
 */
export function step(frame, version, e, seatName) {
  const hands = [[...frame.hands[0]], [...frame.hands[1]]];
  const next = { ...frame, version, hands, pile: [...frame.pile] };
  /** @param {number} seat @param {string} card */
  const drop = (seat, card) => {
    next.hands[seat] = next.hands[seat].filter((c) => c !== card);
  };
  switch (e.type) {
    case "match_created":
      next.said = `The match is created: games to ${e.options.game_target}`;
      break;
    case "cards_cut":
      next.said = `The cut: ${e.pairs.map((/** @type {string[]} */ p) => p.map(cardLabel).join(" against ")).join(", ")}; ${seatName(e.winner)} wins it`;
      break;
    case "dealer_chosen":
      next.said = `${seatName(e.seat)} has ${seatName(e.dealer)} deal`;
      break;
    case "dealt":
      Object.assign(next, { game: e.game, hand: frame.hand + 1, hands: e.hands.map((/** @type {string[]} */ h) => [...h]), pile: [e.upcard], stock: e.stock.length, knock: null });
      if (e.game !== frame.game) next.handPoints = [0, 0];
      next.said = `${seatName(e.dealer)} deals; the upcard is ${cardLabel(e.upcard)}`;
      break;
    case "upcard_passed":
      next.said = `${seatName(e.seat)} passes the upcard`;
      break;
    case "drew":
      if (e.source === "stock") next.stock = frame.stock - 1;
      else next.pile.pop();
      if (e.card) next.hands[e.seat].push(e.card);
      next.said = `${seatName(e.seat)} draws ${e.card ? cardLabel(e.card) : "a card"} from the ${e.source === "stock" ? "stock" : "discard pile"}`;
      break;
    case "discarded":
      drop(e.seat, e.card);
      next.pile.push(e.card);
      next.said = `${seatName(e.seat)} discards ${cardLabel(e.card)}`;
      break;
    case "knocked":
      if (e.card) drop(e.seat, e.card);
      next.knock = { seat: e.seat, melds: e.melds, deadwood: e.deadwood };
      next.said = `${seatName(e.seat)} ${e.big_gin ? "goes big gin" : e.gin ? "goes gin" : `knocks with ${e.deadwood_count} deadwood`}`;
      break;
    case "laid_off":
      drop(e.seat, e.card);
      if (next.knock) next.knock = { ...next.knock, melds: next.knock.melds.map((m, i) => (i === e.meld ? [...m, e.card] : m)) };
      next.said = `${seatName(e.seat)} lays off ${cardLabel(e.card)}`;
      break;
    case "scored":
      next.hands = e.hands.map((/** @type {string[]} */ h) => [...h]);
      next.handPoints = [...e.hand_points];
      next.said = e.winner === null ? `A tie: nobody scores` : `${seatName(e.winner)} scores ${e.points} (${e.outcome.replace("_", " ")})`;
      break;
    case "hand_drawn":
      next.hands = e.hands.map((/** @type {string[]} */ h) => [...h]);
      next.said = "The hand is drawn at the wall";
      break;
    case "game_won":
      next.matchScores = [...e.match_scores];
      next.said = `${seatName(e.winner)} wins game ${e.game}; ${e.scored_by === null ? "nobody" : seatName(e.scored_by)} scores ${e.points}`;
      break;
    case "match_won":
      next.matchScores = [...e.match_scores];
      next.said = `${seatName(e.winner)} wins the match`;
      break;
    default:
      next.said = e.type;
  }
  return next;
}
