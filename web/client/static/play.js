// The table as one seat sees it, at any table size, kept up to date by the live stream: the
// view read through seats.js, drawn by tables.js (the other seats), moves.js (the seat's own
// moves) and results.js (scores and results). Nothing shows more than the seat's view holds.

import * as api from "./api.js";
import { clockReading } from "./clock.js";
import { el, redraw } from "./dom.js";
import { t } from "./i18n.js";
import { follow } from "./live.js";
import { moveLog } from "./move_log.js";
import { KEYS, hand, keepFocus, knockChoices, knockOnTable, moveFocus, table } from "./moves.js";
import { describeTurn, lastGame, lastResult, over, scores } from "./results.js";
import { Seats } from "./seats.js";
import { cutShown, invites, opponent, otherTables } from "./tables.js";

const FIRST_RETRY_MS = 250;
const LONGEST_RETRY_MS = 4000;
// Moves after which the turn passes on: an answer that gives the turn straight back holds the
// other seats' moves too (a bot answers within the command), and the page says so for a
// moment, while their moves are shown, before offering the seat its next move.
const PASSES_TURN = new Set(["discard", "pass_upcard", "finish_layoff", "choose_dealer", "knock", "big_gin"]);
const OTHERS_SHOWN_MS = 500;

/** What tells two moves apart: their kind, card and meld (a knock's arrangement aside).
 * @param {Action} action */
const moveKey = (action) => {
  const { type, card, meld } = /** @type {{ type: string, card?: string | null, meld?: number | null }} */ (action);
  return JSON.stringify([type, card ?? null, meld ?? null]);
};
// Holding the board still is a transition: a player who asks for less motion gets the next
// move at once (the move log and the live region still tell the other seats' moves).
const holdsStill = () => !matchMedia("(prefers-reduced-motion: reduce)").matches;

/** @typedef {import("./seats.js").AnyView} AnyView */
/** @typedef {import("./api.js").Action} Action */
/** @typedef {import("./tables.js").SeatKey} SeatKey */

/**
 * @param {HTMLElement} root
 * @param {string} matchId
 * @param {SeatKey} key
 */
export async function playScreen(root, matchId, key) {
  /** @type {AnyView | null} */
  let view = null;
  // Each seat's bot level (null for a person), and with three or four players the last round's
  // ended hands, read from the public summary (a two-player view holds its last hand itself).
  /** @type {(string | null)[]} */
  let bots = [];
  /** @type {import("./results.js").EndedHand[]} */
  let ended = [];
  let endedRound = -1;
  let busy = false;
  let knocking = false;
  let othersMoving = false;
  /** @type {string | null} */
  let problem = null;
  let connection = "connecting";

  const status = el("p", { class: "status", role: "status", "aria-live": "polite" });
  // A timer is not read out on every tick (its live region is off); a screen reader reads it when asked.
  const clock = el("p", { class: "clock", role: "timer", "aria-live": "off", hidden: true });
  const board = el("div", { class: "board" });
  const moves = moveLog();
  root.replaceChildren(
    el("section", { class: "play", "aria-label": t("play.label") }, [status, clock, moves.latest, board, moves.log, moves.spoken]),
  );

  const tick = () => {
    const reading = view ? clockReading(view, Date.now()) : null;
    clock.hidden = !reading;
    clock.textContent = reading ? reading.text : "";
    clock.dataset.whose = reading ? reading.whose : "";
    clock.dataset.up = String(Boolean(reading?.up));
  };
  const ticking = setInterval(() => (clock.isConnected ? tick() : clearInterval(ticking)), 250);

  /** @param {AnyView} next */
  const show = (next) => {
    if (view && next.version < view.version) return;
    view = next;
    if (next.kind !== "two_players" && ((next.last_round?.round ?? 0) !== endedRound || !bots.length)) {
      endedRound = next.last_round?.round ?? 0;
      // Read again with the next view should this read fail.
      readSummary(next).catch(() => (endedRound = -1));
    } else if (next.kind === "two_players" && next.phase === "match_over" && key.account && !bots.length) {
      // Whether a person holds the other seat (a rematch is offered to people only).
      api.summary(matchId).then((summary) => {
        bots = summary.players.map((player) => player.bot ?? null);
        render();
      }).catch(() => {});
    }
    render();
  };

  /** Which seats bots play, and the hands that ended the last round: both public.
   * @param {import("./api.js").FormatMatchView} at */
  const readSummary = async (at) => {
    const summary = await api.summary(matchId);
    if (summary.kind === "two_players") return;
    bots = summary.players.map((player) => player.bot ?? null);
    const round = at.last_round?.round ?? 0;
    // Each round ends one hand at every table, and no hand of a round ends before the round
    // ahead of it is scored: round r's hands come after those of the rounds before it.
    const tables = Math.max(1, at.tables.length);
    ended = summary.rounds.length >= round && round > 0 ? summary.hands.slice((round - 1) * tables, round * tables) : [];
    render();
  };

  // The server could not be reached (a fetch that failed with no answer, not a refusal): the
  // page says it is reconnecting and reads the view again until the server answers.
  let unreachable = false;
  let retryMs = FIRST_RETRY_MS;
  /** @type {ReturnType<typeof setTimeout> | null} */
  let retrying = null;
  /** @param {unknown} error */
  const failed = (error) => {
    if (error instanceof api.ApiError) {
      problem = api.problemText(error);
    } else {
      unreachable = true;
      problem = null;
      if (retrying === null && status.isConnected) {
        retrying = setTimeout(() => {
          retrying = null;
          refresh();
        }, retryMs);
        retryMs = Math.min(retryMs * 2, LONGEST_RETRY_MS);
      }
    }
    render();
  };

  const refresh = async () => {
    try {
      const next = await api.view(matchId, key.token);
      unreachable = false;
      retryMs = FIRST_RETRY_MS;
      show(next);
    } catch (error) {
      failed(error);
    }
  };

  // A move made on a view newer than the one the move in flight was made on (the stream can
  // show the person's next turn before that move's answer is back): sent once the answer is,
  // if still offered then.
  /** @type {Action | null} */
  let pending = null;
  let sentAt = -1;

  /** @param {Action} action */
  const act = async (action) => {
    if (busy) {
      // Otherwise it was made on the view the move in flight was: that click or key again.
      if (view && view.version > sentAt) pending = action;
      return;
    }
    busy = true;
    // The board is about to change: assistive technology waits for the answer to read it.
    board.setAttribute("aria-busy", "true");
    sentAt = view?.version ?? -1;
    problem = null;
    knocking = false;
    try {
      const answer = await api.send(matchId, key.token, action);
      const back = PASSES_TURN.has(action.type) && answer.phase !== "match_over" && new Seats(answer, bots).myTurn;
      othersMoving = back;
      show(answer);
      if (back && holdsStill()) await new Promise((resolve) => setTimeout(resolve, OTHERS_SHOWN_MS));
    } catch (error) {
      failed(error);
      if (error instanceof api.ApiError) await refresh();
    } finally {
      busy = false;
      board.removeAttribute("aria-busy");
      othersMoving = false;
      render();
    }
    const waiting = pending;
    pending = null;
    if (waiting && stillOffered(waiting)) await act(waiting);
  };

  /** Whether the view drawn now offers ``action``. @param {Action} action */
  const stillOffered = (action) => view?.legal_actions.some((offered) => moveKey(offered) === moveKey(action)) ?? false;

  // Another match like this one: the same options, players and bots (or invites).
  const playAgain = async () => {
    if (!view) return;
    try {
      const summary = await api.summary(matchId);
      const level = summary.players.map((player) => player.bot).find(Boolean);
      const players = /** @type {api.Players} */ (summary.kind === "two_players" ? 2 : summary.players.length);
      const created = level
        ? await api.createBotMatch(view.options, /** @type {api.BotLevel} */ (level), players)
        : await api.createInviteMatch(view.options, players);
      /** @type {SeatKey} */
      const seat = { token: created.seats[0].token, seat: 0, inviteCode: created.invite_code, invites: created.invites ?? [] };
      localStorage.setItem(`gin:seat:${created.match_id}`, JSON.stringify(seat));
      location.hash = `#/play/${created.match_id}`;
    } catch (error) {
      problem = api.problemText(error);
      render();
    }
  };

  // A player with an account offers the other players a rematch (their inboxes are told); the
  // page keeps the credential as the new match's key, as it opens seat 0 there too.
  const rematch = async () => {
    try {
      const created = await api.rematch(matchId, key.token);
      /** @type {SeatKey} */
      const seat = { token: key.token, seat: 0, inviteCode: created.invite_code, invites: created.invites, account: true };
      localStorage.setItem(`gin:seat:${created.match_id}`, JSON.stringify(seat));
      location.hash = `#/play/${created.match_id}`;
    } catch (error) {
      problem = api.problemText(error);
      render();
    }
  };

  const toggleKnock = () => {
    knocking = !knocking;
    render();
  };

  function render() {
    // An answer that arrives after the person left the table draws nothing on the next screen.
    if (!view || !status.isConnected) return;
    const current = view;
    // While the other seats' moves are shown, the seat's next move waits.
    const actions = othersMoving ? [] : current.legal_actions;
    const seats = new Seats(current, bots);
    root.dataset.version = String(current.version);
    root.dataset.phase = current.phase;
    root.dataset.players = String(seats.players);
    root.dataset.turn = seats.myTurn && !othersMoving ? "me" : "them";
    const side = seats.ownSide();
    const matchOver = current.phase === "match_over";
    const parts = [
      scores(current, seats),
      cutShown(seats),
      invites(seats, key),
      opponent(seats),
      ...(side
        ? [table(side, actions, act), knockOnTable(side, actions, act), hand(side, actions, act, toggleKnock), knocking ? knockChoices(side, actions, act) : null]
        : []),
      otherTables(seats, matchOver),
      lastResult(current, seats, current.kind !== "two_players" && current.last_round?.round === endedRound ? ended : []),
      lastGame(current, seats),
      // A rematch needs people in other seats: against bots only, "Play again".
      over(current, seats, matchId, key.account && seats.hasPeople() ? { rematch } : { playAgain }),
    ];
    const turn = othersMoving
      ? seats.players === 2 ? t("status.opponentsTurn") : t("status.seatsTurn", { who: seats.name(seats.opponent() ?? 0) })
      : describeTurn(current, seats);
    status.textContent = [turn, problem, connection === "reconnecting" || unreachable ? t("status.reconnecting") : null]
      .filter(Boolean)
      .join(" · ");
    const focused = document.activeElement;
    const hadFocus = focused instanceof HTMLElement && board.contains(focused) ? focused : null;
    redraw(board, parts.filter((part) => part !== null));
    if (hadFocus && !hadFocus.isConnected) keepFocus(board, hadFocus);
    tick();
  }

  document.onkeydown = (event) => {
    if (!view || othersMoving || event.altKey || event.ctrlKey || event.metaKey) return;
    if (event.target instanceof HTMLInputElement) return;
    const type = KEYS[/** @type {keyof typeof KEYS} */ (event.key)];
    const action = type && view.legal_actions.find((a) => a.type === type);
    if (action) {
      event.preventDefault();
      act(action);
    } else if (event.key === "k" && view.legal_actions.some((a) => a.type === "knock")) {
      toggleKnock();
    } else if (event.key === "ArrowLeft" || event.key === "ArrowRight") {
      moveFocus(event.key === "ArrowLeft" ? -1 : 1);
    }
  };

  await refresh();
  const follower = follow(
    matchId,
    key.token,
    view ? /** @type {AnyView} */ (view).version : 0,
    (entry) => {
      // The person left this table for another screen: stop listening for it.
      if (!status.isConnected) return follower.stop();
      if (view) moves.hear(entry, new Seats(view, bots));
      if (!view || entry.version > view.version) refresh();
    },
    (now) => {
      // A stream opened after the match's end closes at once: nothing is left to hear.
      if (!status.isConnected || view?.phase === "match_over") return follower.stop();
      const wasDown = connection === "reconnecting";
      connection = now;
      if (wasDown && now === "live") refresh();
      render();
    },
  );
}
