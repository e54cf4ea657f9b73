// The turn clock and the endings other than by play, checked from docs/rules.md ("Clocks and
// timeouts", "How a match ends"): each deadline on the seat to decide, its turn time plus its
// bank; each bank less the time taken beyond the turn; each timeout at or after its deadline, counted, followed by the seat's default move
// or, at `timeouts_to_forfeit` in a row, by the forfeit; a seat deciding for itself again
// after a timeout is back; the clock restarted after every move; each ending's winner and
// scores.

import { eventName, show } from "./discrepancy.js";
import { defaultDiscard } from "./rules.js";

/** @typedef {import("./discrepancy.js").Checking} Checking */
/** @typedef {import("./play_check.js").Table} Table */

// The moves a seat makes; a timed-out seat's next one is its default move.
const MOVES = ["dealer_chosen", "upcard_passed", "drew", "discarded", "knocked", "laid_off"];
const DECIDING = ["choose", "offer", "draw", "act", "layoff"];

/** Microseconds since the epoch of an ISO 8601 time in UTC. @param {Checking} c @param {unknown} text */
export function micros(c, text) {
  const parts = typeof text === "string" ? /^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d)(?:\.(\d{1,6}))?(Z|\+00:00)$/.exec(text) : null;
  if (!parts) return c.refuse(`${show(text)} is not a time in UTC`);
  return Date.parse(`${parts[1]}Z`) * 1000 + Number((parts[2] ?? "").padEnd(6, "0"));
}

/**
 * An invited player's time to join: `join_seconds` from when it was set.
 * @param {Checking} c @param {any} options @param {number} at @param {number | null} due
 */
export function checkJoinDeadline(c, options, at, due) {
  if (!options.join_seconds || due !== at + options.join_seconds * 1_000_000) {
    c.refuse(`the join deadline is not ${options.join_seconds} s after ${c.event.at}`);
  }
}

/**
 * Who wins a match ended other than by play (docs/rules.md, "How a match ends"): the side a
 * resignation or forfeit concedes to, an award's seat's side, nobody in a voided or abandoned
 * match, and for a no-show nobody (a casual match, cancelled) or the side it concedes to.
 * @param {Checking} c @param {(seat: number) => number} sideOf
 * @param {(seat: number) => number} concededTo the side that wins a match `seat` gives up
 * @returns {number | null}
 */
export function endingWinner(c, sideOf, concededTo) {
  const { reason, seat } = c.event;
  const conceded = () => concededTo(seat);
  /** @type {Record<string, () => number | null>} */
  const winners = {
    resigned: conceded, forfeited_on_time: conceded, forfeited: conceded, awarded: () => sideOf(seat),
    voided: () => null, abandoned: () => null,
    no_show: () => (c.event.winner === null ? null : conceded()),
  };
  if (!Object.hasOwn(winners, reason)) c.refuse(`${show(reason)} is no reason a match ends`);
  return winners[reason]();
}

export class ClockCheck {
  /** @param {Table} table */
  constructor(table) {
    this.table = table;
    /** @type {{ seat: number | null, at: number, due: number | null, kind: string, banks: number[] } | null} */
    this.deadline = null;
    /** @type {number | null} a seat whose bank its timeout emptied */
    this.emptied = null;
    // Each seat's bank and timeouts in a row as the hand starts: a table of a larger match
    // starts with what its seats carry from their hands before (match_check.js).
    const full = table.options.bank_seconds * 1000;
    this.startBanks = [full, full];
    this.timeouts = [0, 0];
    /** @type {number | null} a seat that timed out, whose default move comes next */
    this.defaulted = null;
    this.forfeits = false;
    /** @type {string | null} a seat's move the turn clock has not restarted after yet */
    this.unstamped = null;
    this.moved = false;
    // A table's clock charged before the move that ends the round: the table's last stamp.
    this.charged = false;
  }

  /** Checks a clock or ending event (true), or what the clock says of a move (false). @param {Checking} c */
  check(c) {
    const e = c.event;
    const table = this.table;
    // The clock stops when the match is over: a last deadline with nobody on it.
    if (table.phase === "over") return e.type === "deadline_set" && e.seat === null;
    switch (e.type) {
      case "deadline_set":
        this.deadlineSet(c);
        return true;
      case "timed_out":
        this.stampedBefore(c);
        this.timedOut(c);
        return true;
      case "seat_returned":
        this.stampedBefore(c);
        if (e.seat !== 0 && e.seat !== 1) c.refuse(`there is no seat ${e.seat}`);
        this.timeouts[e.seat] = 0;
        return true;
      case "seat_joined":
        if (table.phase !== "cut" || (e.seat !== 0 && e.seat !== 1)) c.fail(`a join of seat ${e.seat} outside the wait for the cut`);
        this.moved = true; // the clock is stamped only as its step after a join, as after a move
        return true;
      case "match_ended":
        if (!this.forfeits) this.stampedBefore(c);
        this.ended(c);
        return true;
    }
    if (this.forfeits) c.fail(`the record has ${c.name} where the rules give MatchEnded`);
    if (this.defaulted === null && MOVES.includes(e.type) && this.timeouts[e.seat] > 0) {
      c.fail(`the record has ${c.name} where the rules give SeatReturned`);
    }
    if (MOVES.includes(e.type)) {
      // A seat's own move after one not yet stamped; the layoffs made as the defender
      // finishes follow each other in one decision.
      if (this.defaulted === null && !(e.type === "laid_off" && this.unstamped === "laid_off")) this.stampedBefore(c);
      this.unstamped = e.type;
      this.moved = true;
    }
    // The defender's finish with nothing to lay off is a decision of its own.
    if (e.type === "scored" && this.unstamped === null) this.unstamped = e.type;
    // Layoffs after a timeout are the service's, made as the defender finishes.
    if (this.defaulted !== null && e.type !== "laid_off") this.defaultMove(c, this.defaulted);
    return false;
  }

  /** On a turn clock, every move is followed by the clock's restart before the next decision
   * (docs/audit.md). @param {Checking} c */
  stampedBefore(c) {
    if (this.table.options.turn_seconds && this.unstamped !== null) {
      c.fail(`the record has ${c.name} where the rules give DeadlineSet, the clock's restart after ${eventName(this.unstamped)}`);
    }
  }

  /** @param {Checking} c */
  deadlineSet(c) {
    const e = c.event;
    const { phase, turn, options } = this.table;
    const at = micros(c, e.at);
    const due = e.due_at === null ? null : micros(c, e.due_at);
    if (e.kind === "join") {
      if (phase !== "cut") c.refuse("a join deadline once both seats are in");
      checkJoinDeadline(c, options, at, due);
    } else if (this.spendsTheBank(e, due)) {
      // At a table of a larger match a timeout spends the seat's bank at once, before its
      // default move (which may end the round, and the table's clock with it).
    } else {
      // A stamp no move made due, once a seat has moved: at a table of a larger match, the
      // seat's time charged before the move that ends the round; nowhere else (docs/audit.md).
      if (this.charged || (this.moved && this.unstamped === null && this.table.endsGames)) {
        c.fail(`the record has ${c.name} where no move made one due`);
      }
      this.charged = this.moved && this.unstamped === null;
      c.expect("seat", DECIDING.includes(phase) ? turn : null);
      // The deadline is the decision's start plus the turn's time plus what is left of the bank.
      if (e.seat !== null && (due === null || due - at !== options.turn_seconds * 1_000_000 + e.banks_ms[e.seat] * 1000)) {
        c.refuse(`the deadline is not ${options.turn_seconds} s and seat ${e.seat}'s bank after ${e.at}`);
      }
    }
    if (due !== null && due < at) c.refuse("the deadline is before the decision");
    if (e.kind !== "join") this.checkBanks(c, at);
    this.unstamped = null;
    this.deadline = { seat: e.seat, at, due, kind: e.kind, banks: e.banks_ms };
  }

  /** Whether `e` records the bank a timeout at a table of a larger match spent: nobody on
   * the clock, between the timeout and its default move.
   * @param {any} e @param {number | null} due */
  spendsTheBank(e, due) {
    return !this.table.endsGames && this.defaulted !== null && e.seat === null && due === null;
  }

  /**
   * Each seat's bank: the time its decision took beyond `turn_seconds` comes out of it (to
   * the millisecond, either way: the rules name no rounding); a timeout empties it.
   * @param {Checking} c @param {number} at
   */
  checkBanks(c, at) {
    const banks = c.event.banks_ms;
    const previous = this.deadline?.kind === "turn" ? this.deadline : null;
    const want = [...(previous ? previous.banks : this.startBanks)];
    const seat = previous?.seat;
    if (previous && seat !== null && seat !== undefined) {
      const over = Math.max(0, at - previous.at - this.table.options.turn_seconds * 1_000_000);
      want[seat] = this.emptied === seat ? 0 : Math.max(0, want[seat] - Math.floor(over / 1000));
    }
    this.emptied = null;
    if (!Array.isArray(banks) || banks.length !== 2 || banks.some((bank, i) => typeof bank !== "number" || Math.abs(bank - want[i]) > 1)) {
      c.expect("banks_ms", want);
    }
  }

  /** @param {Checking} c */
  timedOut(c) {
    const e = c.event;
    const deadline = this.deadline;
    // A join deadline naming no seat is every invited seat's (both seats invited).
    const anyInvited = deadline?.kind === "join" && deadline.seat === null && (e.seat === 0 || e.seat === 1);
    if (!deadline || (deadline.seat !== e.seat && !anyInvited) || deadline.due === null) return c.refuse(`seat ${e.seat} was not on the clock`);
    if (micros(c, e.due_at) !== deadline.due) c.refuse(`the deadline ${e.due_at} is not the one set before it`);
    if (micros(c, e.at) < deadline.due) c.refuse(`the timeout at ${e.at} is before the deadline ${e.due_at}`);
    if (deadline.kind === "join") {
      this.forfeits = true;
      return;
    }
    this.timeouts[e.seat] += 1;
    this.emptied = e.seat;
    c.expect("consecutive", this.timeouts[e.seat]);
    this.forfeits = this.timeouts[e.seat] >= this.table.options.timeouts_to_forfeit;
    this.defaulted = this.forfeits ? null : e.seat;
  }

  /** The move the rules make for a seat that timed out. @param {Checking} c @param {number} seat */
  defaultMove(c, seat) {
    this.defaulted = null;
    const { phase, stock, held, taken } = this.table;
    const want =
      phase === "choose" ? { type: "dealer_chosen", seat, dealer: 1 - seat }
      : phase === "offer" ? { type: "upcard_passed", seat }
      : phase === "draw" ? { type: "drew", seat, source: "stock", card: stock[0] }
      : phase === "act" ? { type: "discarded", seat, card: defaultDiscard(held[seat], taken) }
      : null; // laying off: finishing, which the score shows
    if (!want) return;
    if (c.event.type !== want.type) c.fail(`the record has ${c.name} where the rules give ${eventName(want.type)}, seat ${seat}'s default move`);
    for (const [field, value] of Object.entries(want)) c.expect(field, value);
  }

  /** @param {Checking} c */
  ended(c) {
    const e = c.event;
    const reason = String(e.reason);
    const winner = endingWinner(c, (seat) => seat, (seat) => 1 - seat);
    if ((reason === "forfeited_on_time" || reason === "no_show") !== this.forfeits) c.refuse(`nothing made it end ${reason}`);
    if (reason === "resigned" && this.timeouts[e.seat] > 0) c.fail(`the record has ${c.name} where the rules give SeatReturned`);
    c.expect("winner", winner);
    c.expect("match_scores", this.table.matchScores);
    c.expect("games_won", this.table.gamesWon);
    this.table.phase = "over";
  }
}
