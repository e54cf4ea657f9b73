// The replay of a three- or four-player match: every table's hand after each event, every
// seat's cards shown (a record holds only finished rounds, whose cards the rules reveal), and
// the scores by side. Each table is a two-player hand, stepped as replay.js steps one.

import { cardLabel } from "./cards.js";
import { cardRow, el } from "./dom.js";
import { emptyFrame, knockLine, seatHand, step } from "./replay.js";

/** @typedef {import("./replay.js").Frame} Frame */
/** @typedef {import("./replay.js").Step} Step */
/**
 * @typedef {object} FormatFrame the match right after one event
 * @property {number} version
 * @property {string} said
 * @property {number} players
 * @property {number} round
 * @property {number} game
 * @property {{ seats: number[], frame: Frame }[]} tables
 * @property {number | null} sittingOut
 * @property {number[]} handPoints by side
 * @property {number[]} matchScores by side
 */

/** @param {number} seat */
const seatName = (seat) => `Seat ${seat}`;

/** @param {number} players @param {number} side */
const sideName = (players, side) => (players === 4 ? `Team ${side} (seats ${side} and ${side + 2})` : seatName(side));

/**
 * @param {{ version: number, event: any }[]} entries the match stream's events, in order
 * @returns {Step[]}
 */
export function formatSteps(entries) {
  /** @type {FormatFrame} */
  let frame = { version: 0, said: "", players: 3, round: 0, game: 1, tables: [], sittingOut: null, handPoints: [], matchScores: [] };
  /** @type {Step[]} */
  const steps = [];
  for (const { version, event: e } of entries) {
    const next = { ...frame, version };
    const sides = () => Array(next.players === 4 ? 2 : next.players).fill(0);
    let jump = null;
    switch (e.type) {
      case "format_match_created":
        next.players = e.players;
        next.handPoints = sides();
        next.matchScores = sides();
        next.said = `The match is created: ${e.players} players, games to ${e.options.game_target}`;
        break;
      case "seats_cut":
        next.said = `The cut: ${e.rounds.map((/** @type {string[]} */ r) => r.map(cardLabel).join(" ")).join(", then ")}; ${seatName(e.dealer)} cut lowest and deals`;
        break;
      case "round_started":
        Object.assign(next, { round: e.round, game: e.game, sittingOut: e.sitting_out });
        next.tables = e.tables.map((/** @type {number[]} */ seats) => ({ seats, frame: emptyFrame() }));
        if (e.game !== frame.game) next.handPoints = sides();
        jump = `Round ${e.round} (game ${e.game})`;
        next.said = `Round ${e.round}: ${e.tables.map((/** @type {number[]} */ s) => s.map(seatName).join(" against ")).join("; ")}${e.sitting_out === null ? "" : `; ${seatName(e.sitting_out)} sits out`}`;
        break;
      case "table_event": {
        const table = next.tables[e.table];
        if (!table) throw new Error(`version ${version}: no table ${e.table}`);
        const moved = step(table.frame, version, e.event, (at) => seatName(table.seats[at] ?? at));
        next.tables = next.tables.map((t, index) => (index === e.table ? { ...t, frame: moved } : t));
        next.said = `Table ${e.table}: ${moved.said}`;
        break;
      }
      case "round_scored":
        next.handPoints = [...e.hand_points];
        next.said = e.winner === null ? `Round ${e.round}: nobody scores` : `Round ${e.round}: ${sideName(next.players, e.winner)} scores ${e.net}`;
        break;
      case "format_game_won":
        next.matchScores = [...e.match_scores];
        next.said = `${sideName(next.players, e.winner)} wins game ${e.game}`;
        break;
      case "format_match_won":
        next.matchScores = [...e.match_scores];
        next.said = `${sideName(next.players, e.winner)} wins the match`;
        break;
      default:
        next.said = e.type;
    }
    frame = next;
    const shown = next;
    steps.push({ version, said: next.said, jump, draw: () => drawn(shown) });
  }
  return steps;
}

/** @param {FormatFrame} frame */
function drawn(frame) {
  return [
    el("dl", { class: "scores", "aria-label": "Scores" }, frame.handPoints.flatMap((points, side) => [
      el("dt", {}, [sideName(frame.players, side)]),
      el("dd", { "data-score": side }, [`${points} (match ${frame.matchScores[side]})`]),
    ])),
    el("p", {}, [`Game ${frame.game}, round ${frame.round}`, frame.sittingOut === null ? "" : ` · ${seatName(frame.sittingOut)} sits out`]),
    ...frame.tables.map(({ seats, frame: table }, index) =>
      el("section", { class: "replay-table", "data-table": index, "aria-label": `Table ${index}` }, [
        el("p", {}, [
          `Table ${index} · stock ${table.stock} · discard pile: `,
          table.pile.length ? cardRow([/** @type {string} */ (table.pile.at(-1))], `top of table ${index}'s discard pile`) : "empty",
        ]),
        ...seats.map((seat, at) => seatHand(table.hands[at] ?? [], seat, seatName(seat))),
        knockLine(table, seatName(seats[table.knock?.seat ?? 0] ?? 0)),
      ]),
    ),
  ];
}
