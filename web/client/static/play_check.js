// The match stream re-run through the rules (docs/audit.md, step 4), written from
// docs/rules.md alone: every move made by the seat whose turn it was, from cards it held;
// every knock's melds, knock card and deadwood within the hand's limit; every layoff onto a
// meld as it then stood; every hand's deadwood, outcome, points and bonuses; every game's
// bonuses and totals; the match's winner; who deals each hand; and every clock, timeout and
// default move. Events the rules do not give are named like `gin verify` names them:
// "game 2 hand 4, version 140: Scored says 23 points, the rules give 21".

import { deadwoodOf } from "./cards.js";
import { allMeld, defaultDiscard, fits, gameScore, handScore, handTerms, inOrder, isMeld, leastAfterLayoffs, leastDeadwood, sameCards } from "./rules.js";

/** @typedef {import("./rules.js").Options} Options */

export class Discrepancy extends Error {}

/** @param {string} message @returns {never} */
export function fail(message) {
  throw new Discrepancy(message);
}

/** "scored" → "Scored", "laid_off" → "LaidOff": the names `gin verify` gives events. @param {string} type */
const eventName = (type) => type.replace(/(^|_)([a-z])/g, (_, __, letter) => letter.toUpperCase());

/** @param {unknown} value */
const show = (value) => JSON.stringify(value);

/** Microseconds since the epoch of an ISO 8601 time in UTC. @param {unknown} text */
function micros(text) {
  const parts = typeof text === "string" ? /^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d)(?:\.(\d{1,6}))?(Z|\+00:00)$/.exec(text) : null;
  if (!parts) return fail(`${show(text)} is not a time in UTC`);
  return Date.parse(`${parts[1]}Z`) * 1000 + Number((parts[2] ?? "").padEnd(6, "0"));
}

/** @typedef {{ seat: number, card: string | null, shown: string[][], melds: string[][], count: number, gin: boolean, bigGin: boolean }} Knock */

/**
 * Checks every event of the match stream; the number of hands, games and whether the match
 * ended, for the verdict.
 * @param {{ version: number, data: any }[]} events the match stream's events, parsed
 */
export function checkPlay(events) {
  /** @type {Options} */
  let options = /** @type {any} */ (null);
  /** @type {"cut" | "choose" | "deal" | "offer" | "draw" | "act" | "layoff" | "score" | "wall" | "game_over" | "match_over" | "over"} */
  let phase = "cut";
  /** @type {number | null} */
  let turn = null;
  let dealer = 0;
  let nextDealer = 0;
  let game = 1;
  let handInGame = 0;
  let hands = 0;
  /** @type {string[][]} */
  let held = [[], []];
  /** @type {string[]} */
  let stock = [];
  /** @type {string[]} */
  let pile = [];
  let passes = 0;
  let stockOnly = false;
  /** @type {string | null} */
  let taken = null;
  let terms = { knockLimit: 10, multiplier: 1 };
  /** @type {Knock | null} */
  let knock = null;
  /** @type {[string, number][]} */
  let layoffs = [];
  let handPoints = [0, 0];
  let handsWon = [0, 0];
  const matchScores = [0, 0];
  const gamesWon = [0, 0];
  /** @type {number | null} */
  let matchWinner = null;
  /** @type {{ seat: number | null, due: number | null, kind: string } | null} */
  let clock = null;
  const timeouts = [0, 0];
  /** @type {number | null} a seat that timed out, whose default move comes next */
  let defaulted = null;
  let forfeits = false;

  for (const [index, { version, data: e }] of events.entries()) {
    const inHand = ["offer", "draw", "act", "layoff", "score", "wall", "game_over"].includes(phase);
    const where = `${inHand || (e.type === "dealt" && phase === "deal") ? `game ${game} hand ${e.type === "dealt" ? handInGame + 1 : handInGame}, ` : ""}version ${version}`;
    const name = eventName(String(e?.type));
    /** @param {string} why @returns {never} */
    const refuse = (why) => fail(`${where}: ${name} breaks the rules: ${why}`);
    /** @param {string} field @param {unknown} want */
    const expectField = (field, want) => {
      if (show(e[field]) !== show(want)) {
        fail(field === "points" && e.type === "scored"
          ? `${where}: Scored says ${show(e.points)} points, the rules give ${want}`
          : `${where}: ${name} says ${field} ${show(e[field])}, the rules give ${show(want)}`);
      }
    };
    /** @param {string} field @param {string[]} want */
    const expectCards = (field, want) => {
      if (!Array.isArray(e[field]) || !sameCards(e[field], want)) expectField(field, inOrder(want));
    };
    /** @param {...string} types */
    const only = (...types) => {
      if (!types.includes(e.type)) fail(`${where}: the record has ${name} where the rules give ${types.map(eventName).join(" or ")}`);
    };
    /** @param {number} seat */
    const onTurn = (seat) => {
      if (seat !== turn) refuse(`it is not seat ${seat}'s turn`);
    };
    /** @param {number} seat @param {string} card */
    const holds = (seat, card) => {
      if (!held[seat].includes(card)) refuse(`seat ${seat} does not hold ${show(card)}`);
    };
    /** @param {number} seat @param {string} card */
    const drop = (seat, card) => {
      held[seat] = held[seat].filter((c) => c !== card);
    };

    if (index === 0) {
      if (e.type !== "match_created") fail(`match stream version ${version}: it does not begin with match_created`);
      options = e.options;
      continue;
    }
    // The clock stops when the match is over: a last deadline with nobody on it.
    if (phase === "over" && e.type === "deadline_set" && e.seat === null) continue;
    if (phase === "over") fail(`${where}: the record has ${name} after the match is over`);

    // The clock and the endings can come between any two moves.
    if (e.type === "deadline_set") {
      const due = e.due_at === null ? null : micros(e.due_at);
      const at = micros(e.at);
      if (e.kind === "join") {
        if (phase !== "cut") refuse("a join deadline once both seats are in");
      } else {
        expectField("seat", ["choose", "offer", "draw", "act", "layoff"].includes(phase) ? turn : null);
        if (e.seat !== null) {
          const allowed = options.turn_seconds * 1_000_000 + e.banks_ms[e.seat] * 1000;
          if (due === null || due - at !== allowed) refuse(`the deadline is not ${options.turn_seconds} s and the bank after ${e.at}`);
        }
      }
      if (due !== null && due < at) refuse("the deadline is before the decision");
      clock = { seat: e.seat, due, kind: e.kind };
      continue;
    }
    if (e.type === "timed_out") {
      if (!clock || clock.seat !== e.seat || clock.due === null) refuse(`seat ${e.seat} was not on the clock`);
      if (micros(e.due_at) !== clock.due) expectField("due_at", "the deadline set before it");
      if (micros(e.at) < clock.due) refuse(`the timeout at ${e.at} is before the deadline ${e.due_at}`);
      if (clock.kind === "join") {
        forfeits = true;
      } else {
        timeouts[e.seat] += 1;
        expectField("consecutive", timeouts[e.seat]);
        forfeits = timeouts[e.seat] >= options.timeouts_to_forfeit;
        defaulted = forfeits ? null : e.seat;
      }
      continue;
    }
    if (e.type === "seat_returned") {
      if (e.seat !== 0 && e.seat !== 1) refuse(`there is no seat ${e.seat}`);
      timeouts[e.seat] = 0;
      continue;
    }
    if (e.type === "seat_joined") {
      if (phase !== "cut" || (e.seat !== 0 && e.seat !== 1)) fail(`version ${version}: a join of seat ${e.seat} outside the wait for the cut`);
      continue;
    }
    if (e.type === "match_ended") {
      const winners = {
        resigned: 1 - e.seat, forfeited_on_time: 1 - e.seat, forfeited: 1 - e.seat, awarded: e.seat,
        voided: null, abandoned: null, no_show: e.winner === null ? null : 1 - e.seat,
      };
      if (!(e.reason in winners)) refuse(`${show(e.reason)} is no reason a match ends`);
      if ((e.reason === "forfeited_on_time" || e.reason === "no_show") !== forfeits) refuse(`nothing made it end ${e.reason}`);
      if (e.reason === "resigned" && timeouts[e.seat] > 0) fail(`${where}: the record has ${name} where the rules give SeatReturned`);
      expectField("winner", winners[/** @type {keyof typeof winners} */ (e.reason)]);
      expectField("match_scores", matchScores);
      expectField("games_won", gamesWon);
      phase = "over";
      continue;
    }
    if (forfeits) fail(`${where}: the record has ${name} where the rules give MatchEnded`);

    // A seat that timed out and then decides for itself is back: its count starts over.
    const moves = ["dealer_chosen", "upcard_passed", "drew", "discarded", "knocked", "laid_off"];
    if (defaulted === null && moves.includes(e.type) && timeouts[e.seat] > 0) {
      fail(`${where}: the record has ${name} where the rules give SeatReturned`);
    }
    // A timed-out seat's move is the default one (docs/rules.md, "Clocks and timeouts").
    if (defaulted !== null && e.type !== "laid_off") {
      const seat = defaulted;
      defaulted = null;
      const want =
        phase === "choose" ? { type: "dealer_chosen", seat, dealer: 1 - seat }
        : phase === "offer" ? { type: "upcard_passed", seat }
        : phase === "draw" ? { type: "drew", seat, source: "stock", card: stock[0] }
        : phase === "act" ? { type: "discarded", seat, card: defaultDiscard(held[seat], taken) }
        : null;
      if (want && e.type !== want.type) fail(`${where}: the record has ${name} where the rules give ${eventName(want.type)}, seat ${seat}'s default move`);
      if (want) for (const [field, value] of Object.entries(want)) expectField(field, value);
    }

    switch (phase) {
      case "cut":
        only("cards_cut");
        phase = "choose";
        turn = e.winner;
        break;
      case "choose":
        only("dealer_chosen");
        onTurn(e.seat);
        if (e.dealer !== 0 && e.dealer !== 1) refuse(`there is no seat ${e.dealer}`);
        nextDealer = e.dealer;
        phase = "deal";
        turn = null;
        break;
      case "deal": {
        only("dealt");
        expectField("dealer", nextDealer);
        expectField("game", game);
        expectField("hand", handInGame + 1);
        terms = handTerms(options, e.upcard);
        expectField("knock_limit", terms.knockLimit);
        expectField("multiplier", terms.multiplier);
        const cards = [...e.hands[0], ...e.hands[1], e.upcard, ...e.stock];
        if (e.hands[0].length !== 10 || e.hands[1].length !== 10 || new Set(cards).size !== 52 || cards.length !== 52) refuse("a deal is 10 cards each, an upcard and 31 in the stock, of one deck");
        dealer = e.dealer;
        handInGame += 1;
        hands += 1;
        held = [[...e.hands[0]], [...e.hands[1]]];
        stock = [...e.stock];
        pile = [e.upcard];
        phase = "offer";
        turn = 1 - dealer;
        passes = 0;
        stockOnly = false;
        taken = null;
        knock = null;
        layoffs = [];
        break;
      }
      case "offer":
        only("upcard_passed", "drew");
        onTurn(e.seat);
        if (e.type === "upcard_passed") {
          passes += 1;
          turn = 1 - /** @type {number} */ (turn);
          if (passes === 2) [phase, stockOnly] = ["draw", true];
          break;
        }
        if (e.source !== "discard") refuse("the upcard is offered: take it or pass");
        expectField("card", pile.at(-1));
        held[e.seat].push(/** @type {string} */ (pile.pop()));
        taken = e.card;
        phase = "act";
        break;
      case "draw":
        only("drew");
        onTurn(e.seat);
        if (e.source === "stock") {
          if (stock.length <= 2) refuse("the last two cards of the stock are never drawn");
          expectField("card", stock[0]);
          held[e.seat].push(/** @type {string} */ (stock.shift()));
          taken = null;
        } else {
          if (stockOnly) refuse("both passed the upcard: the non-dealer draws from the stock");
          if (e.source !== "discard" || pile.length === 0) refuse(`nothing to draw from the ${e.source}`);
          expectField("card", pile.at(-1));
          held[e.seat].push(/** @type {string} */ (pile.pop()));
          taken = e.card;
        }
        stockOnly = false;
        phase = "act";
        break;
      case "act":
        only("discarded", "knocked");
        onTurn(e.seat);
        if (e.type === "discarded") {
          holds(e.seat, e.card);
          if (e.card === taken) refuse(`${e.card} was just taken from the discard pile`);
          drop(e.seat, e.card);
          pile.push(e.card);
          taken = null;
          if (stock.length <= 2) {
            phase = "wall";
          } else {
            phase = "draw";
            turn = 1 - e.seat;
          }
          break;
        }
        knock = checkKnock(e, held[e.seat], taken, terms.knockLimit, options, refuse, expectField);
        if (knock.card) drop(e.seat, knock.card);
        phase = knock.gin || knock.bigGin ? "score" : "layoff";
        turn = knock.gin || knock.bigGin ? null : 1 - e.seat;
        break;
      case "layoff":
      case "score": {
        const k = /** @type {Knock} */ (knock);
        if (phase === "layoff" && e.type === "laid_off") {
          onTurn(e.seat);
          holds(e.seat, e.card);
          const meld = k.melds[e.meld];
          if (!Number.isInteger(e.meld) || !meld) refuse(`the knocker has no meld ${show(e.meld)}`);
          if (!fits(e.card, meld)) refuse(`${e.card} does not fit the knocker's meld ${e.meld} (${meld.join(" ")})`);
          k.melds[e.meld] = [...meld, e.card];
          drop(e.seat, e.card);
          layoffs.push([e.card, e.meld]);
          break;
        }
        only("scored");
        const defender = 1 - k.seat;
        const defenderCards = held[defender];
        expectField("knocker", k.seat);
        expectField("knock_card", k.card);
        if (e.knocker_melds?.length !== k.shown.length || !k.shown.every((meld, i) => sameCards(e.knocker_melds[i], meld))) expectField("knocker_melds", k.shown);
        expectField("knocker_deadwood", k.count);
        expectField("layoffs", layoffs);
        for (const seat of [0, 1]) {
          const want = seat === k.seat ? held[seat] : [...held[seat], ...layoffs.map(([card]) => card)];
          if (!Array.isArray(e.hands[seat]) || !sameCards(e.hands[seat], want)) fail(`${where}: Scored says seat ${seat} held ${show(e.hands[seat])}, the rules give ${show(inOrder(want))}`);
        }
        const melded = checkMelds(e.defender_melds, defenderCards, "the defender's melds", refuse);
        expectCards("defender_deadwood_cards", defenderCards.filter((card) => !melded.has(card)));
        const least = k.gin || k.bigGin ? leastDeadwood(defenderCards) : leastAfterLayoffs(defenderCards, k.melds);
        expectField("defender_deadwood", least);
        if (deadwoodOf(e.defender_deadwood_cards) !== least) refuse(`the defender's cards left out of melds count ${deadwoodOf(e.defender_deadwood_cards)}, not ${least}`);
        const score = handScore(options, { gin: k.gin, bigGin: k.bigGin, knocker: k.seat, knockerDeadwood: k.count, defenderDeadwood: least, multiplier: terms.multiplier });
        expectField("outcome", score.outcome);
        expectField("winner", score.winner);
        expectField("multiplier", terms.multiplier);
        expectField("points", score.points);
        if (score.winner !== null) {
          handPoints[score.winner] += score.points;
          handsWon[score.winner] += 1;
        }
        expectField("hand_points", handPoints);
        nextDealer = score.winner === null ? dealer : options.next_dealer === "alternate" ? 1 - dealer : score.winner;
        phase = score.winner !== null && handPoints[score.winner] >= options.game_target ? "game_over" : "deal";
        turn = null;
        break;
      }
      case "wall":
        only("hand_drawn");
        expectField("dealer", dealer);
        for (const seat of [0, 1]) {
          if (!sameCards(e.hands[seat] ?? [], held[seat])) fail(`${where}: HandDrawn says seat ${seat} held ${show(e.hands[seat])}, the rules give ${show(inOrder(held[seat]))}`);
        }
        nextDealer = dealer;
        phase = "deal";
        turn = null;
        break;
      case "game_over": {
        only("game_won");
        const winner = handPoints[0] >= options.game_target ? 0 : 1;
        expectField("game", game);
        expectField("winner", winner);
        expectField("hand_points", handPoints);
        expectField("hands_won", handsWon);
        const scored = gameScore(options, winner, handPoints, handsWon);
        for (const [field, want] of Object.entries(scored)) expectField(field, want);
        if (scored.scored_by !== null) matchScores[scored.scored_by] += scored.points;
        expectField("match_scores", matchScores);
        gamesWon[winner] += 1;
        const reached = [0, 1].filter((seat) => matchScores[seat] >= options.match_target);
        if (options.match_target === 0) {
          matchWinner = matchScores[0] === matchScores[1] ? winner : matchScores[0] > matchScores[1] ? 0 : 1;
        } else if (reached.length) {
          matchWinner = reached.length === 1 ? reached[0] : matchScores[0] > matchScores[1] ? 0 : 1;
        }
        phase = matchWinner === null ? "deal" : "match_over";
        game += 1;
        handInGame = 0;
        handPoints = [0, 0];
        handsWon = [0, 0];
        break;
      }
      case "match_over":
        only("match_won");
        expectField("winner", matchWinner);
        expectField("match_scores", matchScores);
        expectField("games_won", gamesWon);
        phase = "over";
        break;
    }
  }
  if (phase === "wall" || phase === "score" || phase === "game_over" || phase === "match_over") {
    fail(`the record ends at version ${events.at(-1)?.version}, where the rules go on with ${eventName({ wall: "hand_drawn", score: "scored", game_over: "game_won", match_over: "match_won" }[phase])}`);
  }
  return { hands, games: gamesWon[0] + gamesWon[1], over: phase === "over" };
}

/**
 * Melds shown from `cards`: each a valid set or run of cards held, no card in two. The cards
 * melded. @param {unknown} melds @param {string[]} cards @param {string} whose
 * @param {(why: string) => never} refuse
 */
function checkMelds(melds, cards, whose, refuse) {
  if (!Array.isArray(melds)) return refuse(`${whose} are not a list of melds`);
  /** @type {Set<string>} */
  const melded = new Set();
  for (const meld of melds) {
    if (!isMeld(meld)) refuse(`${whose}: ${show(meld)} is not a set or a run`);
    for (const card of meld) {
      if (!cards.includes(card)) refuse(`${whose}: ${card} is not among the cards shown`);
      if (melded.has(card)) refuse(`${whose}: ${card} is in two melds`);
      melded.add(card);
    }
  }
  return melded;
}

/**
 * A knock (or big gin) against the knocker's eleven cards: the knock card held and not just
 * taken from the pile, the melds valid, the deadwood what the melds leave and within the
 * hand's limit, gin when there is no deadwood and whenever the ten cards can all be melded.
 * @param {any} e @param {string[]} hand @param {string | null} taken @param {number} limit
 * @param {Options} options @param {(why: string) => never} refuse
 * @param {(field: string, want: unknown) => void} expectField
 * @returns {Knock}
 */
function checkKnock(e, hand, taken, limit, options, refuse, expectField) {
  if (e.big_gin) {
    if (options.big_gin_bonus <= 0) refuse("big gin is not played with big_gin_bonus 0");
    expectField("card", null);
    checkMelds(e.melds, hand, "the knocker's melds", refuse);
    if (!allMeld(hand)) refuse("big gin needs all eleven cards melded");
    if (e.melds.flat().length !== 11) refuse("big gin shows all eleven cards in melds");
    expectField("deadwood", []);
    expectField("deadwood_count", 0);
    return { seat: e.seat, card: null, shown: e.melds, melds: e.melds.map((/** @type {string[]} */ m) => [...m]), count: 0, gin: true, bigGin: true };
  }
  if (!hand.includes(e.card)) refuse(`seat ${e.seat} does not hold the knock card ${show(e.card)}`);
  if (e.card === taken) refuse(`${e.card} was just taken from the discard pile`);
  const ten = hand.filter((card) => card !== e.card);
  const melded = checkMelds(e.melds, ten, "the knocker's melds", refuse);
  const deadwood = ten.filter((card) => !melded.has(card));
  if (!Array.isArray(e.deadwood) || !sameCards(e.deadwood, deadwood)) expectField("deadwood", inOrder(deadwood));
  const count = deadwoodOf(deadwood);
  expectField("deadwood_count", count);
  if (count > limit) refuse(`a knock with ${count} deadwood, over the knock limit ${limit}`);
  if (count > 0 && allMeld(ten)) refuse("the ten cards all meld: gin cannot be declined");
  expectField("gin", count === 0);
  expectField("big_gin", false);
  return { seat: e.seat, card: e.card, shown: e.melds, melds: e.melds.map((/** @type {string[]} */ m) => [...m]), count, gin: count === 0, bigGin: false };
}
