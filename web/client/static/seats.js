// Who sits where, as one seat reads its view: the seats' names, the sides they score for,
// and the tables of the hand in play. A two-player view is read as one table seating both
// seats; a three- or four-player view lists its tables (one, with a seat sitting out, or two
// for partnerships). Everything the page draws goes through this reading, so the parts that
// draw a table, a hand or a score are the same at every table size.

import { t } from "./i18n.js";

/** @typedef {import("./api.js").MatchView} MatchView */
/** @typedef {import("./api.js").FormatMatchView} FormatMatchView */
/** @typedef {MatchView | FormatMatchView} AnyView */
/** @typedef {FormatMatchView["tables"][number]} SeatedTable */
/** One seat's side of its table, in table seats: what the table, the hand and the knock are
 * drawn from.
 * @typedef {Pick<MatchView, "seat" | "hand" | "discard_pile" | "stock_size" | "knock" | "knock_limit">} Side */

export class Seats {
  /** @param {AnyView} view @param {(string | null)[]} bots the bot level of each seat, null for a person */
  constructor(view, bots) {
    this.view = view;
    this.bots = bots;
    this.seat = view.seat;
    /** @type {number | null} */
    this.sittingOut = null;
    if (view.kind === "two_players") {
      this.players = 2;
      /** @type {number[][] | null} */
      this.teams = null;
      /** @type {SeatedTable[]} */
      this.tables = [{ table: 0, seats: [0, 1], view }];
      /** @type {number | null} */
      this.table = 0;
      /** @type {number[]} */
      this.turns = view.turn === null ? [] : [view.turn];
      // A two-player match waits with nobody to move until its second seat joins.
      this.waiting = view.turn === null;
      this.stage = t("stage.hand", { number: view.hand_number });
    } else {
      this.players = view.players;
      this.teams = view.teams;
      this.tables = view.tables;
      this.table = view.table;
      this.turns = view.turns;
      this.sittingOut = view.sitting_out;
      // The cut is made when the last invited seat joins.
      this.waiting = view.phase === "start" || view.phase === "cut";
      this.stage = t("stage.round", { number: view.round });
    }
    /** The seat's own table, none while it sits a hand out. */
    this.own = this.tables.find((t) => t.table === this.table) ?? null;
    this.myTurn = this.turns.includes(this.seat);
  }

  /** @param {number} seat */
  partner(seat) {
    return this.teams?.find((team) => team.includes(seat))?.find((other) => other !== seat) ?? null;
  }

  /** A seat's name as this seat reads it: "You", "Your opponent", "Seat 2 (partner, simple bot)".
   * @param {number} seat */
  name(seat) {
    if (seat === this.seat) return t("seat.you");
    if (this.players === 2) return t("seat.opponent");
    const level = this.bots[seat];
    const notes = [seat === this.partner(this.seat) ? t("seat.partner") : null, level ? t("seat.bot", { level: t(`bot.${level}`) }) : null]
      .filter(Boolean);
    return notes.length ? t("seat.numberNotes", { seat, notes: notes.join(", ") }) : t("seat.number", { seat });
  }

  /** The same name inside a sentence. @param {number} seat */
  who(seat) {
    if (seat === this.seat) return t("seat.youInSentence");
    if (this.players === 2) return t("seat.opponentInSentence");
    return this.name(seat);
  }

  /** Whether a side is the seat's own (a sentence about it says "you"). @param {number} side */
  isMine(side) {
    return side === this.sideOf(this.seat);
  }

  /** The side a seat scores for: itself, or its team with four players. @param {number} seat */
  sideOf(seat) {
    return this.teams ? this.teams.findIndex((team) => team.includes(seat)) : seat;
  }

  /** @param {number} side */
  sideName(side) {
    if (!this.teams) return this.name(side);
    const members = this.teams[side] ?? [];
    return t(side === this.sideOf(this.seat) ? "side.yourTeam" : "side.theirTeam", { a: members[0] ?? 0, b: members[1] ?? 0 });
  }

  /** The seat's side of its own table, in that table's seats. @returns {Side | null} */
  ownSide() {
    const mine = this.own;
    if (!mine) return null;
    const table = mine.view;
    return {
      seat: mine.seats.indexOf(this.seat),
      hand: this.view.hand,
      discard_pile: table.discard_pile,
      stock_size: table.stock_size,
      knock: table.knock,
      knock_limit: table.knock_limit,
    };
  }

  /** Whether people (not bots) hold any of the other seats, as far as is known. */
  hasPeople() {
    return this.bots.length > 0 && this.bots.some((level, seat) => seat !== this.seat && !level);
  }

  /** The other seat at the seat's own table. */
  opponent() {
    return this.own?.seats.find((seat) => seat !== this.seat) ?? null;
  }
}
