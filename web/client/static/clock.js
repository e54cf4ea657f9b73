// The turn clock of a match that has one (the view's `clock`, docs/rules.md "Clocks and
// timeouts"), in words a screen reader can read: whose time runs, what is left of the turn,
// then of that seat's time bank. The deadline is the turn's start plus `turn_seconds` plus
// the bank, so the bank is the last part of the time left.

import { t } from "./i18n.js";

/** @typedef {import("./api.js").MatchView} MatchView */

/** "1:05" @param {number} ms */
function minutes(ms) {
  const seconds = Math.ceil(ms / 1000);
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, "0")}`;
}

/**
 * What the clock says at `now` (ms since the epoch), or null when nobody is on the clock.
 * @param {MatchView} view @param {number} now
 * @returns {{ text: string, whose: "me" | "them", up: boolean } | null}
 */
export function clockReading(view, now) {
  const clock = view.clock;
  if (!clock || clock.seat === null || clock.due_at === null || view.phase === "match_over") return null;
  const whose = clock.seat === view.seat ? "me" : "them";
  const left = Math.max(0, Date.parse(clock.due_at) - now);
  if (view.turn === null) {
    return { text: left ? t("clock.join", { time: minutes(left) }) : t("clock.joinUp"), whose, up: left === 0 };
  }
  const mine = whose === "me";
  if (left === 0) return { text: t(mine ? "clock.yourTimeUp" : "clock.opponentTimeUp"), whose, up: true };
  const bank = Math.min(clock.banks_ms[clock.seat] ?? 0, left);
  const params = { turn: minutes(left - bank), bank: minutes(bank) };
  return { text: t(mine ? "clock.yourTime" : "clock.opponentTime", params), whose, up: false };
}
