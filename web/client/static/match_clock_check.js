// The clock of a match of three or four players as a whole (docs/rules.md, "Clocks and
// timeouts" and "Join deadlines, no-shows, abandonment and adjudication"): before the cut one
// join deadline for every invited seat, `join_seconds` after it was set, and a no-show only at
// or after it, which ends the match next; once play starts, the match's next deadline, the
// earliest of its tables' clocks (clock_check.js), with every seat's bank as its table's
// clock leaves it, recorded after the tables' clocks restart where it changed and only there;
// once the match is over, nobody's.

import { checkJoinDeadline, micros } from "./clock_check.js";
import { show } from "./discrepancy.js";

/** @typedef {import("./discrepancy.js").Checking} Checking */
/** @typedef {import("./play_check.js").Table} Table */
/** @typedef {{ seats: number[], table: Table }[]} Tables */
/** @typedef {{ cut: boolean, over: boolean, tables: Tables, banks: number[] }} MatchNow */

/**
 * The match's next deadline as its tables' clocks stand: the earliest, and every seat's bank.
 * @param {Tables} tables @param {number[]} banks the seats' banks as the round started
 */
function nextDeadline(tables, banks) {
  const want = [...banks];
  /** @type {{ seat: number, at: number, due: number } | null} */
  let earliest = null;
  for (const { seats, table } of tables) {
    const deadline = table.clock.deadline;
    if (!deadline) continue;
    seats.forEach((seat, tableSeat) => {
      want[seat] = deadline.banks[tableSeat];
    });
    if (deadline.seat === null || deadline.due === null) continue;
    if (!earliest || deadline.due < earliest.due) earliest = { seat: seats[deadline.seat], at: deadline.at, due: deadline.due };
  }
  return { earliest, banks: want };
}

export class MatchClock {
  /** @param {number} players @param {any} options */
  constructor(players, options) {
    this.players = players;
    this.options = options;
    /** @type {number | null} the invited players' join deadline, in microseconds */
    this.joinDue = null;
    // A no-show's timeout was recorded: the match ends next.
    this.noShow = false;
    /** @type {{ seat: number | null, due: number | null } | null} the last deadline recorded */
    this.last = null;
  }

  /**
   * Whether the match's next deadline as the tables' clocks stand differs from the last one
   * recorded: it is recorded then, and only then.
   * @param {Tables} tables @param {number[]} banks
   */
  changed(tables, banks) {
    const { earliest } = nextDeadline(tables, banks);
    const last = this.last;
    return earliest ? !(last && last.seat === earliest.seat && last.due === earliest.due) : last !== null && last.due !== null;
  }

  /** The match's own `deadline_set`. @param {Checking} c @param {MatchNow} match */
  deadlineSet(c, { cut, over, tables, banks }) {
    const e = c.event;
    const at = micros(c, e.at);
    const due = e.due_at === null ? null : micros(c, e.due_at);
    if (e.kind === "join") {
      if (cut || this.joinDue !== null) c.refuse("a join deadline is set once, before the cut");
      c.expect("seat", null);
      checkJoinDeadline(c, this.options, at, due);
      c.expect("banks_ms", banks);
      this.joinDue = due;
      this.last = { seat: null, due };
      return;
    }
    // Recorded only where it changed: in play, where the tables' clocks moved it; once the
    // match is over, to clear one still running.
    const madeDue = over ? this.last !== null && this.last.due !== null : this.changed(tables, banks);
    if (!madeDue) c.fail(`the record has ${c.name} where no move made one due`);
    this.last = { seat: e.seat, due };
    if (!cut) c.refuse("a turn's deadline before the cut");
    if (over) {
      c.expect("seat", null);
      c.expect("due_at", null);
      return;
    }
    const { earliest, banks: want } = nextDeadline(tables, banks);
    c.expect("seat", earliest?.seat ?? null);
    if (earliest ? at !== earliest.at || due !== earliest.due : due !== null) {
      c.fail(`${c.name} says due_at ${show(e.due_at)}, where the earliest of the tables' clocks is ${earliest ? `seat ${earliest.seat}'s` : "nobody's"}`);
    }
    c.expect("banks_ms", want);
  }

  /** A no-show: an invited seat's join deadline passed. @param {Checking} c @param {boolean} cut */
  timedOut(c, cut) {
    const e = c.event;
    if (cut || this.joinDue === null) c.refuse(`seat ${show(e.seat)} has no join deadline`);
    if (!Number.isInteger(e.seat) || e.seat < 0 || e.seat >= this.players) c.refuse(`there is no seat ${show(e.seat)}`);
    if (micros(c, e.due_at) !== this.joinDue) c.refuse(`the deadline ${e.due_at} is not the one set before it`);
    if (micros(c, e.at) < this.joinDue) c.refuse(`the timeout at ${e.at} is before the deadline ${e.due_at}`);
    c.expect("consecutive", 1);
    this.noShow = true;
  }
}
