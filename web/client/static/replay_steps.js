// A record's match stream stepped through for the replay viewer, for display only (verify.js
// checks; this only shows): the match after each event, every table's hand in it (both hands
// shown: a record holds only what the rules have revealed), and the scores by side. A
// two-player match is one table whose events come as they are; three or four players' come
// wrapped in a table_event, between the rounds that seat them.

import { bestArrangement, cardLabel, sortCards } from "./cards.js";
import { cardRow, el } from "./dom.js";

/**
 * @typedef {object} Frame one table right after one event
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
/**
 * @typedef {object} MatchFrame the match right after one event
 * @property {number} players
 * @property {number} round
 * @property {number} game
 * @property {{ seats: number[], frame: Frame }[]} tables
 * @property {number | null} sittingOut
 * @property {number[]} handPoints by side
 * @property {number[]} matchScores by side
 */
/**
 * One step of the replay: what happened, where a hand (or a round) begins, and the table.
 * @typedef {{ version: number, said: string, jump: string | null, draw: () => (Node | string)[] }} Step
 */

/** @param {number} seat */
const seatName = (seat) => `Seat ${seat}`;

/** @param {number} players @param {number} side */
const sideName = (players, side) => (players === 4 ? `Team ${side} (seats ${side} and ${side + 2})` : seatName(side));

/**
 * @param {{ version: number, event: any }[]} entries the match stream's events, in order
 * @returns {Step[]}
 */
export function steps(entries) {
  /** @type {MatchFrame} */
  let match = { players: 2, round: 0, game: 1, tables: [{ seats: [0, 1], frame: emptyFrame() }], sittingOut: null, handPoints: [0, 0], matchScores: [0, 0] };
  /** @type {Step[]} */
  const found = [];
  for (const { version, event: e } of entries) {
    const next = { ...match };
    const sides = () => Array(next.players === 4 ? 2 : next.players).fill(0);
    let jump = null;
    let said = e.type;
    /** The event of one table's hand. @param {number} index @param {any} event */
    const atTable = (index, event) => {
      const table = next.tables[index];
      if (!table) throw new Error(`version ${version}: no table ${index}`);
      const moved = step(table.frame, version, event, (at) => seatName(table.seats[at] ?? at));
      next.tables = next.tables.map((t, i) => (i === index ? { ...t, frame: moved } : t));
      return moved;
    };
    switch (e.type) {
      case "format_match_created":
        Object.assign(next, { players: e.players, tables: [], handPoints: sides(), matchScores: sides() });
        said = `The match is created: ${e.players} players, games to ${e.options.game_target}`;
        break;
      case "seats_cut":
        said = `The cut: ${e.rounds.map((/** @type {string[]} */ r) => r.map(cardLabel).join(" ")).join(", then ")}; ${seatName(e.dealer)} cut lowest and deals`;
        break;
      case "round_started":
        Object.assign(next, { round: e.round, game: e.game, sittingOut: e.sitting_out });
        next.tables = e.tables.map((/** @type {number[]} */ seats) => ({ seats, frame: emptyFrame() }));
        if (e.game !== match.game) next.handPoints = sides();
        jump = `Round ${e.round} (game ${e.game})`;
        said = `Round ${e.round}: ${e.tables.map((/** @type {number[]} */ s) => s.map(seatName).join(" against ")).join("; ")}${e.sitting_out === null ? "" : `; ${seatName(e.sitting_out)} sits out`}`;
        break;
      case "table_event":
        said = `Table ${e.table}: ${atTable(e.table, e.event).said}`;
        break;
      case "round_scored":
        next.handPoints = [...e.hand_points];
        said = e.winner === null ? `Round ${e.round}: nobody scores` : `Round ${e.round}: ${sideName(next.players, e.winner)} scores ${e.net}`;
        break;
      case "format_game_won":
      case "format_match_won":
        next.matchScores = [...e.match_scores];
        said = `${sideName(next.players, e.winner)} wins ${e.type === "format_game_won" ? `game ${e.game}` : "the match"}`;
        break;
      default: {
        // A two-player match's own events: its one table's, the scores with them.
        if (next.players !== 2) break;
        const moved = atTable(0, e);
        Object.assign(next, { game: moved.game, handPoints: moved.handPoints, matchScores: moved.matchScores });
        said = moved.said;
        if (e.type === "dealt") jump = `Game ${moved.game}, hand ${moved.hand}`;
      }
    }
    match = next;
    found.push({ version, said, jump, draw: () => drawn(next) });
  }
  return found;
}

/** @param {MatchFrame} match */
function drawn(match) {
  const stage = match.players === 2 ? `hand ${match.tables[0]?.frame.hand}` : `round ${match.round}`;
  return [
    el("dl", { class: "scores", "aria-label": "Scores" }, match.handPoints.flatMap((points, side) => [
      el("dt", {}, [sideName(match.players, side)]),
      el("dd", { "data-score": side }, [`${points} (match ${match.matchScores[side]})`]),
    ])),
    el("p", {}, [`Game ${match.game}, ${stage}`, match.sittingOut === null ? "" : ` · ${seatName(match.sittingOut)} sits out`]),
    ...match.tables.map(({ seats, frame: table }, index) =>
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

/** A seat's hand, melds first. @param {string[]} cards @param {number} seat @param {string} name */
function seatHand(cards, seat, name) {
  const arranged = bestArrangement(cards);
  return el("p", { class: "seat", "data-seat": seat }, [
    `${name} (deadwood ${arranged.count}): `,
    ...arranged.melds.map((meld) => el("span", { class: "meld" }, [cardRow(sortCards(meld), `${name} meld`)])),
    " ",
    el("span", { class: "deadwood" }, [cardRow(arranged.deadwood, `${name} deadwood`)]),
  ]);
}

/** @param {Frame} frame @param {string} knocker */
function knockLine(frame, knocker) {
  const knock = frame.knock;
  if (!knock) return "";
  return el("p", {}, [
    `${knocker} knocked: `,
    ...knock.melds.map((meld) => cardRow(meld, "knocker's meld")),
    " deadwood ",
    cardRow(knock.deadwood, "knocker's deadwood"),
  ]);
}

/** A table before anything happened at it. @returns {Frame} */
const emptyFrame = () => ({ version: 0, said: "", game: 1, hand: 0, hands: [[], []], pile: [], stock: 0, handPoints: [0, 0], matchScores: [0, 0], knock: null });

/**
 * The table after one more event of its hand (a two-player match is one table's hands).
 * @param {Frame} frame @param {number} version @param {any} e the event
 * @param {(seat: number) => string} seatName a table seat's name in what is said
 * @returns {Frame}
 */
function step(frame, version, e, seatName) {
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
    case "scored": {
      // The event's hands hold the defender's cards laid off too; those lie on the knocker's
      // melds now, and the deadwood on screen must be the one scored.
      const laidOff = new Set(e.layoffs.map((/** @type {[string, number]} */ [card]) => card));
      next.hands = e.hands.map((/** @type {string[]} */ h) => h.filter((card) => !laidOff.has(card)));
      next.handPoints = [...e.hand_points];
      next.said = e.winner === null ? `A tie: nobody scores` : `${seatName(e.winner)} scores ${e.points} (${e.outcome.replace("_", " ")})`;
      break;
    }
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
