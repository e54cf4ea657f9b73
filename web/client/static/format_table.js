// A three-player (round robin) or four-player (partnership) match as one seat sees it: the
// parts of the page that differ from a two-player table. The seat's own table is drawn by the
// two-player parts (play.js), from its side of that table (``ownSide``); everything else here is
// public: the other table, the seat sitting out, the scores by side, the last round's hands
// (from the public summary, once the rules reveal them) and the games.
// Loaded only when a page opens such a match.

import { cardLabel, sortCards } from "./cards.js";
import { cardFace, cardRow, el, heading } from "./dom.js";

/** @typedef {import("./api.js").FormatMatchView} FormatMatchView */
/** @typedef {import("./api.js").FormatMatchSummary} FormatMatchSummary */
/** @typedef {FormatMatchView["tables"][number]} SeatedTable */
/** @typedef {FormatMatchSummary["hands"][number]} EndedHand */
/** @typedef {import("./play.js").Side} Side */

/** What the page knows of a match's seats beyond the view: which the server's bots play. */
export class Seats {
  /** @param {FormatMatchView} view @param {(string | null)[]} bots the bot level of each seat, null for a person */
  constructor(view, bots) {
    this.view = view;
    this.bots = bots;
  }

  /** @param {number} seat */
  partner(seat) {
    return this.view.teams?.find((team) => team.includes(seat))?.find((other) => other !== seat) ?? null;
  }

  /** A seat's name as this seat reads it: "You", "Seat 2 (partner, simple bot)". @param {number} seat */
  name(seat) {
    if (seat === this.view.seat) return "You";
    const notes = [seat === this.partner(this.view.seat) ? "partner" : null, this.bots[seat] ? `${this.bots[seat]} bot` : null]
      .filter(Boolean);
    return notes.length ? `Seat ${seat} (${notes.join(", ")})` : `Seat ${seat}`;
  }

  /** The side a seat scores for: itself with three players, its team with four. @param {number} seat */
  sideOf(seat) {
    const teams = this.view.teams;
    return teams ? teams.findIndex((team) => team.includes(seat)) : seat;
  }

  /** @param {number} side */
  sideName(side) {
    const teams = this.view.teams;
    if (!teams) return this.name(side);
    const members = teams[side] ?? [];
    return `${side === this.sideOf(this.view.seat) ? "Your team" : "Their team"} (seats ${members.join(" and ")})`;
  }
}

/** Whether the match waits for invited seats: the cut is made when the last one joins.
 * @param {FormatMatchView} view */
export const waiting = (view) => view.phase === "start" || view.phase === "cut";

/** @param {FormatMatchView} view */
export const ownTable = (view) => (view.table === null ? null : view.tables.find((t) => t.table === view.table) ?? null);

/** The seat's side of its own table, in that table's seats, for the two-player parts of the page.
 * @param {FormatMatchView} view @returns {Side | null} */
export function ownSide(view) {
  const mine = ownTable(view);
  if (!mine) return null;
  const table = mine.view;
  return {
    seat: mine.seats.indexOf(view.seat),
    hand: view.hand,
    discard_pile: table.discard_pile,
    stock_size: table.stock_size,
    knock: table.knock,
    knock_limit: table.knock_limit,
  };
}

/** @param {FormatMatchView} view @param {Seats} seats */
export function outcome(view, seats) {
  if (view.winner === null) return "Nobody won the match";
  if (view.teams) return view.winner === seats.sideOf(view.seat) ? "Your team won the match" : "The other team won the match";
  return view.winner === view.seat ? "You won the match" : `${seats.name(view.winner)} won the match`;
}

/** The status line. @param {FormatMatchView} view @param {Seats} seats */
export function describeTurn(view, seats) {
  if (view.phase === "match_over") return `${outcome(view, seats)}.`;
  if (waiting(view)) return "Waiting for every seat to join…";
  const mine = ownTable(view);
  if (!mine) {
    const players = view.tables.flatMap((t) => t.seats).map((seat) => seats.name(seat));
    return `You sit this hand out: ${players.join(" and ")} play it.`;
  }
  const table = mine.view;
  const opponent = mine.seats.find((seat) => seat !== view.seat) ?? view.seat;
  if (view.turns.includes(view.seat)) {
    const what = {
      offer: "Your turn: take the upcard or pass.",
      draw: "Your turn: draw from the stock or the discard pile.",
      discard: "Your turn: discard a card, or knock.",
      layoff: `${seats.name(opponent)} knocked: lay off cards, then finish.`,
    };
    return what[/** @type {keyof typeof what} */ (table.phase)] ?? "Your turn.";
  }
  if (table.turn !== null) return `${seats.name(opponent)}'s turn.`;
  return "Your hand is over: waiting for the other table.";
}

/** The scores by side: the game's points so far and the match's. @param {FormatMatchView} view @param {Seats} seats */
export function scores(view, seats) {
  const s = view.scores;
  const mySide = seats.sideOf(view.seat);
  return el("dl", { class: "scores", "aria-label": "Scores" }, [
    ...s.hand_points.flatMap((points, side) => [
      el("dt", {}, [seats.sideName(side)]),
      el("dd", { "data-score": side === mySide ? "you" : `side-${side}` }, [`${points} (match ${s.match_scores[side]})`]),
    ]),
    el("dt", {}, ["Game to"]),
    el("dd", {}, [`${view.options.game_target}, round ${view.round}`]),
  ]);
}

/** The other seat at the seat's own table. @param {FormatMatchView} view @param {Seats} seats */
export function opponent(view, seats) {
  const mine = ownTable(view);
  if (!mine) return null;
  const at = mine.seats.indexOf(view.seat);
  const them = 1 - at;
  const took = mine.view.took_from_pile[them] ?? [];
  return el("section", { class: "opponent", "aria-label": "Your opponent" }, [
    heading(seats.name(mine.seats[them] ?? 0)),
    el("p", {}, [`${mine.view.card_counts[them]} cards`]),
    took.length ? el("p", {}, ["Took from the pile: ", cardRow(sortCards(took), "Cards your opponent took")]) : null,
  ]);
}

/** Every table but the seat's own, as anybody may see it; and who sits out. @param {FormatMatchView} view @param {Seats} seats */
export function otherTables(view, seats) {
  // At the match's end the last round's hands are shown, every table's (``lastRound``).
  if (view.phase === "match_over") return null;
  const others = view.tables.filter((t) => t.table !== view.table);
  const out = view.sitting_out;
  const sitting = out !== null && out !== view.seat ? el("p", { "data-sitting-out": out }, [`${seats.name(out)} sits this hand out.`]) : null;
  if (!others.length && !sitting) return null;
  return el("section", { class: "others", "aria-label": "Other tables" }, [
    heading(!others.length ? "Sitting out" : view.table === null ? "The table" : "The other table"),
    sitting,
    ...others.map((t) => otherTable(t, seats)),
  ]);
}

/** @param {SeatedTable} seated @param {Seats} seats */
function otherTable(seated, seats) {
  const table = seated.view;
  const top = table.discard_pile.at(-1);
  const turn = table.turn === null ? "hand over" : `${seats.name(seated.seats[table.turn] ?? 0)} to play`;
  return el("div", { class: "other-table", "data-table": seated.table }, [
    el("p", {}, [`${seated.seats.map((seat) => seats.name(seat)).join(" against ")}: ${turn}.`]),
    el("p", {}, [
      ...seated.seats.map((seat, at) => `${seats.name(seat)}: ${table.card_counts[at]} cards. `),
      `Stock ${table.stock_size}, discard pile ${table.discard_pile.length}`,
      top ? ": " : ".",
      top ? cardFace(top) : null,
    ]),
    // Once the hand is over both hands are shown, as the rules show them to everybody.
    table.last_hand
      ? endedHand({ type: "table_event", table: seated.table, seats: seated.seats, event: table.last_hand }, seats)
      : table.knock
      ? el("p", {}, [
          `${seats.name(seated.seats[table.knock.knocker] ?? 0)} knocked${table.knock.gin ? " (gin)" : ""}: `,
          ...table.knock.melds.map((meld, index) => cardRow(meld, `meld ${index + 1}`)),
        ])
      : null,
  ]);
}

/** The last round: each table's hand (both hands shown, as the rules reveal them at its end)
 * and what each side scored.
 * @param {FormatMatchView} view @param {Seats} seats @param {EndedHand[]} ended the round's hands, once read */
export function lastRound(view, seats, ended) {
  const round = view.last_round;
  if (!round) return null;
  const winner = round.winner === null ? "Nobody scores" : `${seats.sideName(round.winner)} scores ${round.net}`;
  return el("section", { class: "result", "aria-label": "Last round" }, [
    heading(`Round ${round.round}`),
    el("p", { "data-result": "round" }, [`${winner}.`]),
    ...ended.map((hand) => endedHand(hand, seats)),
  ]);
}

/** @param {EndedHand} ended @param {Seats} seats */
function endedHand(ended, seats) {
  const event = ended.event;
  const name = (/** @type {number | null} */ at) => (at === null ? "Nobody" : seats.name(ended.seats[at] ?? 0));
  let summary = "The hand was drawn: nobody scores.";
  if (event.type === "scored") {
    summary = event.winner === null
      ? `A tie (${event.outcome}): nobody scores.`
      : `${name(event.winner)}: ${event.points} points (${event.outcome.replace("_", " ")}${event.knock_card ? `, knocked with ${cardLabel(event.knock_card)}` : ""}).`;
  }
  const hands = event.type === "scored" || event.type === "hand_drawn" ? event.hands : [];
  return el("div", { class: "ended-hand", "data-result": event.type }, [
    el("p", {}, [summary]),
    ...ended.seats.map((seat, at) => el("p", {}, [`${name(at)}: `, cardRow(sortCards(hands[at] ?? []), `${name(at)}'s hand`)])),
  ]);
}

/** The last game's end and its settlements. @param {FormatMatchView} view @param {Seats} seats */
export function lastGame(view, seats) {
  const game = view.last_game;
  if (!game) return null;
  return el("section", { class: "game", "aria-label": "Last game" }, [
    heading(`Game ${game.game}: ${seats.sideName(game.winner)} won`),
    el("ul", {}, game.settlements.map((s) => {
      const [a, b] = s.sides;
      const who = s.scored_by === null ? "even" : `${seats.sideName(s.scored_by)} scores ${s.points}`;
      return el("li", {}, [`${seats.sideName(a ?? 0)} ${s.totals[0]}, ${seats.sideName(b ?? 0)} ${s.totals[1]}: ${who}`]);
    })),
  ]);
}
