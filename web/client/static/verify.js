// A game record checked in the browser with WebCrypto, written from docs/audit.md alone: a
// second implementation of the scheme, so a record can be checked without trusting the server
// or installing anything. It checks the format, both hash chains, the fairness stream (every
// revealed seed against its chain's commitment, the secret against every commitment, the
// records due in order), the cut and every deal against the decks their seeds give, every
// draw from the stock against the deal's stock, the moves and scores through the rules
// (match_check.js, at every table size, every table's deck its own),
// and the summary against the streams.

import { RANKS, SUITS } from "./cards.js";
import { concat, number } from "./bytes.js";
import { Discrepancy, fail, show } from "./discrepancy.js";
import { t } from "./i18n.js";
import { checkMatch } from "./match_check.js";
import { checkShape } from "./record_shape.js";

/** @typedef {import("./api.js").GameRecord} GameRecord */
/** @typedef {GameRecord["match_stream"]["events"][number]} Entry */
/** @typedef {{ ok: boolean, problem: string | null, lines: string[] }} Verdict */
/** @typedef {Uint8Array<ArrayBuffer>} Bytes */

const SCHEME = "gin-fair-1";
// The service's chains have 1,024 links; a record claiming far longer ones would have the
// secret's check hash for as long as it claims, so they are refused (as `gin verify` does).
const MAX_LINKS = 2 ** 16;
const encoder = new TextEncoder();

/** lp(s): its length in 4 bytes big-endian, then its UTF-8 bytes. @param {string | Bytes} s */
function lp(s) {
  const bytes = typeof s === "string" ? encoder.encode(s) : s;
  return concat(number(bytes.length, 4), bytes);
}

/** @param {Bytes} bytes */
async function sha256(bytes) {
  return new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
}

/** @param {Bytes} key @param {Bytes} message */
async function hmac(key, message) {
  const imported = await crypto.subtle.importKey("raw", key, { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  return new Uint8Array(await crypto.subtle.sign("HMAC", imported, message));
}

/** @param {Bytes} bytes */
export function hex(bytes) {
  return [...bytes].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** @param {string} text */
function fromHex(text) {
  if (typeof text !== "string" || !/^([0-9a-f]{2})*$/.test(text)) fail(`${JSON.stringify(text)} is not hexadecimal`);
  return new Uint8Array((text.match(/../g) ?? []).map((pair) => parseInt(pair, 16)));
}

/** The 52 cards in the order of a seed's shuffle. @param {Bytes} seed */
export async function deckFrom(seed) {
  const deck = Array.from({ length: 52 }, (_, i) => RANKS[i % 13] + SUITS[Math.floor(i / 13)]);
  /** @type {number[]} */
  let words = [];
  let counter = 0;
  const word = async () => {
    if (words.length === 0) {
      const block = await sha256(concat(seed, number(counter++, 8)));
      const view = new DataView(block.buffer);
      words = Array.from({ length: 8 }, (_, i) => view.getUint32(i * 4));
    }
    return /** @type {number} */ (words.shift());
  };
  for (let i = 51; i >= 1; i--) {
    const n = i + 1;
    const limit = 2 ** 32 - (2 ** 32 % n);
    let w = await word();
    while (w >= limit) w = await word();
    const j = w % n;
    [deck[i], deck[j]] = [deck[j], deck[i]];
  }
  return deck;
}

/** @param {Bytes} link @param {string} matchId @param {string} step @param {string[]} entropy each seat's */
async function shuffleSeed(link, matchId, step, entropy) {
  const message = concat(lp(SCHEME), lp(matchId), lp(step), ...entropy.map(lp));
  return hmac(link, message);
}

/** @param {string} card */
const rank = (card) => RANKS.indexOf(card[0]);

/** The cut's pairs and its winner. @param {Bytes} seed */
async function cutFrom(seed) {
  let deck = await deckFrom(seed);
  const pairs = [];
  for (;;) {
    for (let i = 0; i + 1 < 52; i += 2) {
      pairs.push([deck[i], deck[i + 1]]);
      if (rank(deck[i]) !== rank(deck[i + 1])) {
        return { pairs, winner: rank(deck[i]) > rank(deck[i + 1]) ? 0 : 1 };
      }
    }
    seed = await sha256(seed);
    deck = await deckFrom(seed);
  }
}

/** The cut of three or four players: each seat a card in turn, until one alone cuts the
 * lowest rank; the rounds, and the seat that deals. @param {Bytes} seed @param {number} players */
async function seatsCutFrom(seed, players) {
  /** @type {string[][]} */
  const rounds = [];
  for (;;) {
    const deck = await deckFrom(seed);
    for (let start = 0; start + players <= 52; start += players) {
      const cards = deck.slice(start, start + players);
      rounds.push(cards);
      const ranks = cards.map(rank);
      const lowest = Math.min(...ranks);
      if (ranks.filter((r) => r === lowest).length === 1) return { rounds, dealer: ranks.indexOf(lowest) };
    }
    seed = await sha256(seed);
  }
}

/** @param {string[]} cards */
const sorted = (cards) => [...cards].sort((a, b) => cardIndex(a) - cardIndex(b));
/** @param {string} card */
const cardIndex = (card) => SUITS.indexOf(card[1]) * 13 + rank(card);

/** @param {GameRecord} record @param {"match_stream" | "fairness_stream"} which @param {string} prefix */
async function checkChain(record, which, prefix) {
  const stream = record[which];
  const name = which === "match_stream" ? "match stream" : "fairness stream";
  if (stream.stream_id !== `${prefix}-${record.match_id}`) fail(`${name}: its id is ${stream.stream_id}, not ${prefix}-${record.match_id}`);
  let previous = new Uint8Array(32);
  let expected = 1;
  for (const entry of stream.events) {
    if (entry.version !== expected) {
      fail(`${name}: version ${expected} is missing (the record goes on with version ${entry.version})`);
    }
    if (entry.previous_hash !== hex(previous)) {
      fail(`${name} version ${entry.version}: its previous hash is not the hash of version ${entry.version - 1}`);
    }
    const hash = await sha256(concat(
      previous, lp(stream.stream_id), number(entry.version, 8), lp(entry.type),
      number(entry.schema_version, 4), lp(entry.data),
    ));
    if (hex(hash) !== entry.hash) {
      fail(`${name} version ${entry.version}: the hash does not match the event's content chained to version ${entry.version - 1} (the event was changed after it was recorded)`);
    }
    previous = hash;
    expected++;
  }
}

/** @param {Entry} entry @returns {any} */
function parsed(entry) {
  try {
    return JSON.parse(entry.data);
  } catch {
    return fail(`version ${entry.version}: its data is not JSON`);
  }
}

/** @param {Bytes} link @param {number} times */
async function hashed(link, times) {
  let value = link;
  for (let i = 0; i < times; i++) value = await sha256(value);
  return value;
}

/**
 * The fairness stream: its records, in the order due; every revealed link hashing to its
 * chain's commitment; the secret giving every commitment. The links, by link number. A
 * match that ended before its cut reveals nothing (docs/audit.md, "The fairness stream").
 * @param {GameRecord} record @param {boolean} cut @param {number} deals @param {boolean} over
 */
async function checkFairness(record, cut, deals, over) {
  const events = record.fairness_stream.events.map((entry) => ({ entry, data: parsed(entry) }));
  /** @type {Map<number, string>} */
  const commitments = new Map();
  /** @type {Map<number, Bytes>} */
  const links = new Map();
  let chainLinks = 0;
  /** @type {string[] | null} */
  let entropy = null;
  let secret = null;
  const steps = cut ? ["cut", ...Array.from({ length: deals }, (_, d) => `deal ${d + 1}`)] : [];
  let revealed = 0;
  for (const { entry, data } of events) {
    const where = `fairness stream version ${entry.version}`;
    if (entry.type === "seeds_committed") {
      if (data.scheme !== SCHEME) fail(`${where}: the scheme is ${data.scheme}, not ${SCHEME}`);
      if (chainLinks === 0 && !(Number.isSafeInteger(data.links) && data.links >= 1 && data.links <= MAX_LINKS)) {
        fail(`${where}: chains of ${show(data.links)} links; this verifier checks chains of 1 to ${MAX_LINKS} links`);
      }
      if (chainLinks !== 0 && data.links !== chainLinks) fail(`${where}: chain ${show(data.chain)} has ${show(data.links)} links, chain 1 ${chainLinks}`);
      chainLinks = data.links;
      commitments.set(data.chain, data.commitment);
    } else if (entry.type === "entropy_fixed") {
      if (!Array.isArray(data.entropy) || !data.entropy.every((/** @type {unknown} */ e) => typeof e === "string")) {
        fail(`${where}: the entropy is not a list of texts`);
      }
      entropy = data.entropy;
    } else if (entry.type === "seed_revealed") {
      const step = steps[revealed];
      if (step === undefined || data.step !== step || data.link !== revealed + 1) {
        fail(`${where}: ${data.step} is revealed where ${step ?? "nothing"} is due`);
      }
      if (revealed === 0 && entropy === null) fail(`${where}: the cut's seed is revealed before the entropy was fixed`);
      const chain = Math.floor((data.link - 1) / chainLinks) + 1;
      const index = ((data.link - 1) % chainLinks) + 1;
      const commitment = commitments.get(chain);
      if (commitment === undefined) fail(`${where}: chain ${chain} was never committed to`);
      const link = fromHex(data.seed);
      if (hex(await hashed(link, index)) !== commitment) {
        fail(`${label(step)}: the revealed seed does not hash to the commitment`);
      }
      links.set(data.link, link);
      revealed++;
    } else if (entry.type === "secret_revealed") {
      secret = fromHex(data.secret);
      for (const [chain, commitment] of commitments) {
        const top = await hmac(secret, encoder.encode(`${SCHEME} chain ${chain}`));
        if (hex(await hashed(top, chainLinks)) !== commitment) {
          fail(`${where}: the secret does not give the commitment of chain ${chain}`);
        }
      }
    } else {
      fail(`${where}: ${entry.type} is no fairness record`);
    }
  }
  if (!cut && entropy !== null) fail("fairness stream: the entropy is fixed, where no cut was made");
  if (revealed !== steps.length) fail(`fairness stream: ${steps[revealed] ?? "a step"}'s seed is not revealed`);
  if (cut && over && secret === null) fail("fairness stream: the match is over but its secret is not revealed");
  if (!cut && secret !== null) fail("fairness stream: the secret is revealed, where no cut was made");
  if (!over && secret !== null) fail("fairness stream: the secret is revealed before the match is over");
  return { links, entropy: entropy ?? [] };
}

/** @param {string} step */
const label = (step) => (step === "cut" ? "the cut" : step.replace("deal", "hand"));

/**
 * A match stream's events, each with its table: a three- or four-player match's
 * ``table_event`` unwrapped to the two-player event of its table (in table seats).
 * @typedef {{ version: number, type: string, data: any, table: number }} Move
 * @param {GameRecord} record @returns {Move[]}
 */
function moves(record) {
  return record.match_stream.events.map((entry) => {
    const data = parsed(entry);
    if (entry.type !== "table_event") return { version: entry.version, type: entry.type, data, table: 0 };
    return { version: entry.version, type: String(data.event?.type), data: data.event, table: Number(data.table) };
  });
}

/**
 * The match stream against the seeds: the cut, every deal card by card (deals numbered in the
 * order made, at every table), and every draw from its table's stock.
 * @param {GameRecord} record @param {Move[]} played @param {number} players
 * @param {Map<number, Bytes>} links @param {string[]} entropy
 */
async function checkDeals(record, played, players, links, entropy) {
  let deal = 0;
  /** @type {Map<number, string[]>} */
  const stocks = new Map();
  const cutSeed = () => shuffleSeed(/** @type {Bytes} */ (links.get(1)), record.match_id, "cut", entropy);
  for (const { version, type, data, table } of played) {
    if (type === "cards_cut") {
      const cut = await cutFrom(await cutSeed());
      if (JSON.stringify(cut.pairs) !== JSON.stringify(data.pairs) || cut.winner !== data.winner) {
        fail(`version ${version}: the cut does not match the deck from the revealed seed`);
      }
    } else if (type === "seats_cut") {
      const cut = await seatsCutFrom(await cutSeed(), players);
      if (JSON.stringify(cut.rounds) !== JSON.stringify(data.rounds) || cut.dealer !== data.dealer) {
        fail(`version ${version}: the cut does not match the deck from the revealed seed`);
      }
    } else if (type === "dealt") {
      deal++;
      const at = players > 2 ? ` at table ${table}` : "";
      const where = `game ${data.game} hand ${deal}${at}, version ${version}`;
      const link = links.get(deal + 1);
      if (!link) fail(`${where}: the seed of deal ${deal} is not revealed`);
      const deck = await deckFrom(await shuffleSeed(link, record.match_id, `deal ${deal}`, entropy));
      const dealer = data.dealer;
      /** @type {string[][]} */
      const hands = [[], []];
      for (let i = 0; i < 20; i++) hands[i % 2 === 0 ? 1 - dealer : dealer].push(deck[i]);
      for (const seat of [0, 1]) {
        const given = sorted(hands[seat]);
        const said = sorted(data.hands[seat]);
        const at = given.findIndex((card, i) => card !== said[i]);
        if (at >= 0 || said.length !== 10) {
          fail(`${where}: Dealt does not match the deck from the revealed seed: seat ${seat}'s hand has ${said[at] ?? "another card"} where the seed gives ${given[at] ?? "none"}`);
        }
      }
      if (data.upcard !== deck[20]) fail(`${where}: the upcard is ${data.upcard} where the seed gives ${deck[20]}`);
      const stock = deck.slice(21);
      if (JSON.stringify(stock) !== JSON.stringify(data.stock)) fail(`${where}: the stock is not the one the seed gives`);
      stocks.set(table, stock);
    } else if (type === "drew" && data.source === "stock") {
      const next = stocks.get(table)?.shift();
      const at = players > 2 ? ` at table ${table}` : "";
      if (data.card !== next) fail(`version ${version}${at}: seat ${data.seat} drew ${data.card} from the stock, whose next card is ${next}`);
    }
  }
  return deal;
}

/**
 * Every check, stopping at the first discrepancy.
 * @param {unknown} document a parsed game-record file
 * @returns {Promise<Verdict>}
 */
export async function verifyRecord(document) {
  /** @type {string[]} */
  const lines = [];
  try {
    const record = /** @type {GameRecord} */ (document);
    if (typeof record !== "object" || record === null || record.format !== "gin-rummy-record" || record.format_version !== 1) {
      fail("this is not a gin-rummy-record, version 1");
    }
    checkShape(record);
    // A three- or four-player match's record: its stream begins with format_match_created.
    const first = record.match_stream.events[0];
    const formatMatch = first?.type === "format_match_created";
    await checkChain(record, "match_stream", formatMatch ? "format-match" : "match");
    await checkChain(record, "fairness_stream", "fairness");
    lines.push(t("verified.chains"));
    const played = moves(record);
    const players = formatMatch ? Number(played[0].data.players) : 2;
    if (formatMatch && players !== 3 && players !== 4) fail(`version 1: a match of ${players} players is no format`);
    const deals = played.filter((move) => move.type === "dealt").length;
    const types = played.map((move) => move.type);
    const over = types.includes("match_won") || types.includes("match_ended") || types.includes("format_match_won");
    const cut = types.includes("cards_cut") || types.includes("seats_cut");
    const { links, entropy } = await checkFairness(record, cut, deals, over);
    lines.push(t("verified.seeds", { count: links.size }));
    if (cut && entropy.length !== players) fail(`fairness stream: the entropy is not one per seat (${players} seats)`);
    await checkDeals(record, played, players, links, entropy);
    lines.push(t("verified.deals", { count: deals }));
    lines.push(checkMatch(record.match_stream.events.map((entry) => ({ version: entry.version, data: parsed(entry) }))));
    const created = record.match_stream.events[0];
    const createdType = formatMatch ? "format_match_created" : "match_created";
    if (!created || created.type !== createdType) fail(`match stream: it does not begin with ${createdType}`);
    if (JSON.stringify(canonical(parsed(created).options)) !== JSON.stringify(canonical(record.options))) {
      fail("the record's options are not those the match was created with");
    }
    if ((record.status === "finished") !== over) fail(`the record says the match is ${record.status}, its events say otherwise`);
    lines.push(t("verified.summary"));
    return { ok: true, problem: null, lines };
  } catch (error) {
    if (error instanceof Discrepancy) return { ok: false, problem: error.message, lines };
    return { ok: false, problem: `the record cannot be read: ${error instanceof Error ? error.message : String(error)}`, lines };
  }
}

/** The same value with its object keys in order, to compare JSON from two writers. @param {unknown} value @returns {unknown} */
function canonical(value) {
  if (Array.isArray(value)) return value.map(canonical);
  if (value && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).sort(([a], [b]) => a.localeCompare(b)).map(([k, v]) => [k, canonical(v)]));
  }
  return value;
}
