// Following a match live: Server-Sent Events opened with a single-use stream ticket (a
// browser's EventSource cannot send the seat's token, and the token must not go in a URL).
// When the connection drops (the network, a server restart) the browser would retry with
// the same, now used, ticket; so this closes it and opens a new one with a fresh ticket,
// resuming after the last version it saw: nothing is missed, nothing is seen twice. When the
// browser says its network went away, a stream may still look open (the browser does not
// always fail a connection it already has), so the stream is closed then, and opened again
// as soon as the browser is back online.

import { streamTicket } from "./api.js";

/** @typedef {import("./api.js").EventEnvelope} EventEnvelope */

// Every event type the service sends (the SSE `event` field): EventSource delivers a named
// event only to a listener for that name.
/** @type {EventEnvelope["event"]["type"][]} */
export const EVENT_TYPES = [
  "match_created", "cards_cut", "dealer_chosen", "dealt", "upcard_passed", "drew",
  "discarded", "knocked", "laid_off", "scored", "hand_drawn", "game_won", "match_won",
  "deadline_set", "timed_out", "seat_returned", "seat_joined", "match_ended",
  // Three and four players: each table's moves come wrapped in a table_event.
  "seats_cut", "round_started", "table_event", "round_scored", "format_game_won", "format_match_won",
];

/** The events after which a match's stream ends. */
const ENDINGS = new Set(["match_won", "match_ended", "format_match_won"]);

const FIRST_RETRY_MS = 250;
const LONGEST_RETRY_MS = 4000;

/**
 * @typedef {object} Follower
 * @property {() => void} stop
 */

/**
 * Calls ``onEvent`` with each event after version ``after``, in order, once each, until the
 * match is over or ``stop`` is called; ``onStatus`` hears "live" and "reconnecting".
 * @param {string} matchId
 * @param {string} token
 * @param {number} after
 * @param {(entry: EventEnvelope) => void} onEvent
 * @param {(status: "live" | "reconnecting") => void} onStatus
 * @returns {Follower}
 */
export function follow(matchId, token, after, onEvent, onStatus) {
  let last = after;
  let stopped = false;
  let retry = FIRST_RETRY_MS;
  /** @type {EventSource | null} */
  let source = null;
  /** @type {ReturnType<typeof setTimeout> | null} */
  let timer = null;
  // Each opening counts; one overtaken by a later one (the network back) gives up.
  let attempt = 0;

  const reopenLater = () => {
    if (stopped) return;
    onStatus("reconnecting");
    timer = setTimeout(open, retry);
    retry = Math.min(retry * 2, LONGEST_RETRY_MS);
  };

  /** @param {MessageEvent<string>} message */
  const deliver = (message) => {
    /** @type {EventEnvelope} */
    const entry = JSON.parse(message.data);
    if (entry.version <= last) return;
    last = entry.version;
    retry = FIRST_RETRY_MS;
    onEvent(entry);
    if (ENDINGS.has(entry.event.type)) stop();
  };

  async function open() {
    if (stopped) return;
    const mine = ++attempt;
    let ticket;
    try {
      ticket = (await streamTicket(matchId, token)).ticket;
    } catch {
      if (mine === attempt) reopenLater();
      return;
    }
    if (stopped || mine !== attempt) return;
    const query = new URLSearchParams({ ticket, after: String(last) });
    const opened = new EventSource(`/matches/${matchId}/stream?${query}`);
    source = opened;
    opened.onopen = () => onStatus("live");
    for (const type of EVENT_TYPES) opened.addEventListener(type, deliver);
    opened.onerror = () => {
      // The ticket is spent: never let EventSource retry with it.
      opened.close();
      if (source !== opened) return;
      source = null;
      reopenLater();
    };
  }

  const offline = () => {
    attempt++;
    if (timer !== null) clearTimeout(timer);
    timer = null;
    source?.close();
    source = null;
    if (!stopped) onStatus("reconnecting");
  };

  const online = () => {
    if (stopped) return;
    if (timer !== null) clearTimeout(timer);
    timer = null;
    retry = FIRST_RETRY_MS;
    source?.close();
    source = null;
    open();
  };

  function stop() {
    stopped = true;
    removeEventListener("offline", offline);
    removeEventListener("online", online);
    if (timer !== null) clearTimeout(timer);
    source?.close();
    source = null;
  }

  addEventListener("offline", offline);
  addEventListener("online", online);
  open();
  return { stop };
}
