// The turn clock of a match that has one (the view's `clock`, docs/rules.md "Clocks and
// timeouts"), in words a screen reader can read: whose time runs, what is left of the turn,
// then of that seat's time bank. The deadline is the turn's start plus `turn_seconds` plus
// the bank, so the bank is the last part of the time left.

import { t } from "./i18n.js";

/** @typedef {import("./seats.js").AnyView} AnyView */

/** "1:05" @param {number} ms */
function minutes(ms) {
  const seconds = Math.ceil(ms / 1000);
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, "0")}`;
}

/**
 * The clock the seat watches: a two-player match's own; at three or four seats, the clock of
 * the seat's table, or of the table in play while the seat sits the hand out, or before the
 * cut the time the invited seats have to join. `seat` is the match seat on the clock (a
 * table's clock names its table seats), `bankMs` its bank; `joining` says whose join it is.
 * @param {AnyView} view
 * @returns {{ dueAt: string, seat: number | null, bankMs: number, joining: "" | "one" | "all" } | null}
 */
function watched(view) {
  if (view.kind === "two_players") {
    const clock = view.clock;
    // Both seats invited: one join deadline before the cut, naming neither.
    if (clock && clock.seat === null && clock.due_at !== null && view.turn === null) return { dueAt: clock.due_at, seat: null, bankMs: 0, joining: "all" };
    if (!clock || clock.seat === null || clock.due_at === null) return null;
    const joining = view.turn === null ? "one" : "";
    return { dueAt: clock.due_at, seat: clock.seat, bankMs: clock.banks_ms[clock.seat] ?? 0, joining };
  }
  if (view.join_due_at) return { dueAt: view.join_due_at, seat: null, bankMs: 0, joining: "all" };
  const own = view.tables.find((table) => table.table === view.table);
  const at = own ?? view.tables.find((table) => table.view.clock?.seat != null);
  const clock = at?.view.clock;
  if (!at || !clock || clock.seat === null || clock.due_at === null || at.view.turn === null) return null;
  return { dueAt: clock.due_at, seat: at.seats[clock.seat] ?? null, bankMs: clock.banks_ms[clock.seat] ?? 0, joining: "" };
}

/**
 * What the clock says at `now` (ms since the epoch), or null when nobody is on the clock.
 * @param {AnyView} view @param {number} now
 * @returns {{ text: string, whose: "me" | "them", up: boolean } | null}
 */
export function clockReading(view, now) {
  const on = view.phase === "match_over" ? null : watched(view);
  if (!on) return null;
  const whose = on.seat !== null && on.seat === view.seat ? "me" : "them";
  const left = Math.max(0, Date.parse(on.dueAt) - now);
  if (on.joining) {
    const [time, up] = on.joining === "one" ? ["clock.join", "clock.joinUp"] : ["clock.othersJoin", "clock.othersJoinUp"];
    return { text: left ? t(time, { time: minutes(left) }) : t(up), whose, up: left === 0 };
  }
  const mine = whose === "me";
  if (left === 0) return { text: t(mine ? "clock.yourTimeUp" : "clock.opponentTimeUp"), whose, up: true };
  const bank = Math.min(on.bankMs, left);
  const params = { turn: minutes(left - bank), bank: minutes(bank) };
  return { text: t(mine ? "clock.yourTime" : "clock.opponentTime", params), whose, up: false };
}
