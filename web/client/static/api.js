// The service's HTTP API, typed by the OpenAPI document (types/api.d.ts is generated from it
// by openapi-typescript; `tsc --checkJs` holds this file to it).

import { has, t } from "./i18n.js";

/** @typedef {import("../types/api").components["schemas"]} Schemas */
/** @typedef {Schemas["MatchView"]} MatchView */
/** @typedef {Schemas["FormatMatchView"]} FormatMatchView */
/** @typedef {Schemas["FormatMatchSummary"]} FormatMatchSummary */
/** @typedef {Schemas["MatchSummary"]} MatchSummary */
/** @typedef {Schemas["NewMatch"]} NewMatch */
/** @typedef {Schemas["Joined"]} Joined */
/** @typedef {Schemas["StreamTicket"]} StreamTicket */
/** @typedef {Schemas["Problem"]} Problem */
/** @typedef {Schemas["GameRecord"]} GameRecord */
/** @typedef {Schemas["EventEnvelope"]} EventEnvelope */
/** @typedef {MatchView["legal_actions"][number]} Action */
/** @typedef {"random" | "simple" | "strong"} BotLevel */
/** @typedef {2 | 3 | 4} Players */

// The server answers a read within its database timeout (2 s by default, twice over at most) or
// answers that it cannot: a read unanswered for longer than this is not coming.
const READ_GIVEN_UP_MS = 10_000;

/** A refusal from the service, with its problem details (RFC 9457). */
export class ApiError extends Error {
  /** @param {number} status @param {Partial<Problem>} problem */
  constructor(status, problem) {
    super(problem.detail ?? problem.title ?? `HTTP ${status}`);
    this.status = status;
    this.problem = problem;
  }
}

/** What went wrong, in the player's words: a problem type the page knows in its own, any other
 * as the server put it. @param {unknown} error */
export function problemText(error) {
  if (error instanceof ApiError) {
    const known = `problem.${String(error.problem.type ?? "").replace(/^\/problems\//, "")}`;
    return has(known) ? t(known) : error.message;
  }
  return error instanceof Error ? error.message : String(error);
}

/**
 * @param {string} path
 * @param {{ method?: string, token?: string, body?: unknown }} [options]
 * @returns {Promise<unknown>}
 */
async function call(path, options = {}) {
  /** @type {Record<string, string>} */
  const headers = { Accept: "application/json" };
  if (options.token) headers.Authorization = `Bearer ${options.token}`;
  if (options.body !== undefined) headers["Content-Type"] = "application/json";
  const method = options.method ?? "GET";
  // A read the server has not begun to answer in time is given up, to be read again: the
  // server answers within seconds or says it cannot, so the wait is a connection that went
  // dead on the way. A command is never given up: it may have been made.
  const unanswered = new AbortController();
  const giveUp = method === "GET" ? setTimeout(() => unanswered.abort(), READ_GIVEN_UP_MS) : undefined;
  const response = await fetch(path, {
    method,
    headers,
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
    signal: unanswered.signal,
  }).finally(() => clearTimeout(giveUp));
  const body = await response.json().catch(() => ({}));
  if (!response.ok) throw new ApiError(response.status, body);
  return body;
}

/** @typedef {{ game_target: number, match_target: number, turn_seconds?: number, bank_seconds?: number }} NewMatchOptions */

/** A match with the server's bots in every seat but the first.
 * @param {NewMatchOptions} options @param {BotLevel} level @param {Players} [players] */
export async function createBotMatch(options, level, players = 2) {
  const bots = [null, ...Array(players - 1).fill(level)];
  const body = { options, bots, players };
  return /** @type {NewMatch} */ (await call("/matches", { method: "POST", body }));
}

/** A match whose other seats are invited, each with its own invite code (``invites``).
 * @param {NewMatchOptions} options @param {Players} [players] */
export async function createInviteMatch(options, players = 2) {
  const body = { options, players, invite: true, seat: 0 };
  return /** @type {NewMatch} */ (await call("/matches", { method: "POST", body }));
}

/** @param {string} inviteCode */
export async function join(inviteCode) {
  const body = { invite_code: inviteCode };
  return /** @type {Joined} */ (await call("/matches/join", { method: "POST", body }));
}

/** @param {string} matchId @param {string} token */
export async function view(matchId, token) {
  return /** @type {MatchView | FormatMatchView} */ (await call(`/matches/${matchId}/view`, { token }));
}

/** @param {string} matchId */
export async function summary(matchId) {
  return /** @type {MatchSummary | FormatMatchSummary} */ (await call(`/matches/${matchId}`));
}

/** @param {string} matchId @param {string} token @param {Action} command */
export async function send(matchId, token, command) {
  const path = `/matches/${matchId}/commands`;
  return /** @type {MatchView | FormatMatchView} */ (await call(path, { method: "POST", token, body: command }));
}

/** A rematch of a finished match, offered by a player with an account to the other players
 * of it (bots where bots played); ``credential`` is the player's.
 * @param {string} matchId @param {string} credential */
export async function rematch(matchId, credential) {
  const path = `/players/me/matches/${matchId}/rematch`;
  return /** @type {Schemas["NewInvite"]} */ (await call(path, { method: "POST", token: credential }));
}

/** @param {string} matchId @param {string} token */
export async function streamTicket(matchId, token) {
  const path = `/matches/${matchId}/stream-tickets`;
  return /** @type {StreamTicket} */ (await call(path, { method: "POST", token }));
}

/** @param {string} matchId */
export async function record(matchId) {
  return /** @type {GameRecord} */ (await call(`/matches/${matchId}/record`));
}

/** The service's latest signed log checkpoint (a C2SP signed note, as text). */
export async function logCheckpoint() {
  const response = await fetch("/log/checkpoint");
  if (!response.ok) throw new ApiError(response.status, await response.json().catch(() => ({})));
  return response.text();
}

/** @param {number} position @param {number} size */
export async function inclusionProof(position, size) {
  const query = new URLSearchParams({ position: String(position), size: String(size) });
  return /** @type {Schemas["InclusionProof"]} */ (await call(`/log/proofs/inclusion?${query}`));
}
