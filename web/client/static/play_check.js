// One table's hands re-run through the rules (docs/audit.md, step 4), written from
// docs/rules.md alone: every move made by the seat whose turn it was, from cards it held;
// every knock's melds, knock card and deadwood within the hand's limit; every layoff onto a
// meld as it then stood; every hand's deadwood, outcome, points and bonuses; every game's
// bonuses and totals; the match's winner; who deals each hand. The clock, timeouts and
// endings other than by play are clock_check.js's; match_check.js runs a match's tables.

import { deadwoodOf } from "./cards.js";
import { ClockCheck } from "./clock_check.js";
import { Checking, show } from "./discrepancy.js";
import { allMeld, fits, gameScore, gameWinner, handScore, handTerms, inOrder, isMeld, leastAfterLayoffs, leastDeadwood, matchWinner, sameCards } from "./rules.js";

/** @typedef {import("./rules.js").Options} Options */
/** @typedef {"cut" | "choose" | "deal" | "offer" | "draw" | "act" | "layoff" | "score" | "wall" | "game_over" | "match_over" | "over"} Phase */
/** @typedef {{ seat: number, card: string | null, shown: string[][], melds: string[][], count: number, gin: boolean, bigGin: boolean }} Knock */

/** The match as the rules have it after each event checked. */
export class Table {
  /**
   * @param {Options} options
   * @param {boolean} endsGames false at a table of a larger match, whose round ends the game
   */
  constructor(options, endsGames = true) {
    this.options = options;
    this.endsGames = endsGames;
    /** @type {Phase} */
    this.phase = "cut";
    /** @type {number | null} whose decision it is */
    this.turn = null;
    this.dealer = 0;
    this.nextDealer = 0;
    this.game = 1;
    this.handInGame = 0;
    this.hands = 0;
    /** @type {string[][]} */
    this.held = [[], []];
    /** @type {string[]} */
    this.stock = [];
    /** @type {string[]} */
    this.pile = [];
    this.passes = 0;
    this.stockOnly = false;
    /** @type {string | null} the card just taken from the pile */
    this.taken = null;
    this.terms = { knockLimit: 10, multiplier: 1 };
    /** @type {Knock | null} */
    this.knock = null;
    /** @type {[string, number][]} */
    this.layoffs = [];
    this.handPoints = [0, 0];
    this.handsWon = [0, 0];
    this.matchScores = [0, 0];
    this.gamesWon = [0, 0];
    /** @type {number | null} */
    this.matchWinner = null;
    this.clock = new ClockCheck(this);
  }

  /** @param {any} e @param {number} version */
  check(e, version) {
    const inHand = ["offer", "draw", "act", "layoff", "score", "wall", "game_over", "match_over"].includes(this.phase);
    const dealing = e?.type === "dealt" && this.phase === "deal";
    const hand = `game ${this.game} hand ${dealing ? this.handInGame + 1 : this.handInGame}, `;
    const c = new Checking(e, `${inHand || dealing ? hand : ""}version ${version}`);
    if (this.clock.check(c)) return;
    const checks = {
      cut: () => this.cut(c),
      choose: () => this.choose(c),
      deal: () => this.deal(c),
      offer: () => this.offer(c),
      draw: () => this.draw(c),
      act: () => this.act(c),
      layoff: () => this.layOff(c),
      score: () => this.layOff(c),
      wall: () => this.wall(c),
      game_over: () => this.gameOver(c),
      match_over: () => this.matchOver(c),
      over: () => c.fail(`the record has ${c.name} after the match is over`),
    };
    checks[this.phase]();
  }

  /** @param {Checking} c @param {number} seat */
  onTurn(c, seat) {
    if (seat !== this.turn) c.refuse(`it is not seat ${seat}'s turn`);
  }

  /** @param {Checking} c @param {number} seat @param {string} card */
  holds(c, seat, card) {
    if (!this.held[seat].includes(card)) c.refuse(`seat ${seat} does not hold ${show(card)}`);
  }

  /** @param {number} seat @param {string} card */
  drop(seat, card) {
    this.held[seat] = this.held[seat].filter((held) => held !== card);
  }

  /** @param {Checking} c */
  cut(c) {
    c.only("cards_cut");
    this.phase = "choose";
    this.turn = c.event.winner;
  }

  /** @param {Checking} c */
  choose(c) {
    const e = c.event;
    c.only("dealer_chosen");
    this.onTurn(c, e.seat);
    if (e.dealer !== 0 && e.dealer !== 1) c.refuse(`there is no seat ${e.dealer}`);
    this.nextDealer = e.dealer;
    this.phase = "deal";
    this.turn = null;
  }

  /** @param {Checking} c */
  deal(c) {
    const e = c.event;
    c.only("dealt");
    c.expect("dealer", this.nextDealer);
    c.expect("game", this.game);
    c.expect("hand", this.handInGame + 1);
    this.terms = handTerms(this.options, e.upcard);
    c.expect("knock_limit", this.terms.knockLimit);
    c.expect("multiplier", this.terms.multiplier);
    const cards = [...e.hands[0], ...e.hands[1], e.upcard, ...e.stock];
    if (e.hands[0].length !== 10 || e.hands[1].length !== 10 || cards.length !== 52 || new Set(cards).size !== 52) {
      c.refuse("a deal is 10 cards each, an upcard and 31 in the stock, of one deck");
    }
    this.dealer = e.dealer;
    this.handInGame += 1;
    this.hands += 1;
    this.held = [[...e.hands[0]], [...e.hands[1]]];
    this.stock = [...e.stock];
    this.pile = [e.upcard];
    this.phase = "offer";
    this.turn = 1 - this.dealer;
    this.passes = 0;
    this.stockOnly = false;
    this.taken = null;
    this.knock = null;
    this.layoffs = [];
  }

  /** The upcard offer: the non-dealer, then the dealer, take it or pass. @param {Checking} c */
  offer(c) {
    const e = c.event;
    c.only("upcard_passed", "drew");
    this.onTurn(c, e.seat);
    if (e.type === "upcard_passed") {
      this.passes += 1;
      this.turn = 1 - e.seat;
      if (this.passes === 2) [this.phase, this.stockOnly] = ["draw", true];
      return;
    }
    if (e.source !== "discard") c.refuse("the upcard is offered: take it or pass");
    this.takeFromPile(c);
  }

  /** @param {Checking} c */
  takeFromPile(c) {
    c.expect("card", this.pile.at(-1));
    this.held[c.event.seat].push(/** @type {string} */ (this.pile.pop()));
    this.taken = c.event.card;
    this.stockOnly = false;
    this.phase = "act";
  }

  /** @param {Checking} c */
  draw(c) {
    const e = c.event;
    c.only("drew");
    this.onTurn(c, e.seat);
    if (e.source === "discard") {
      if (this.stockOnly) c.refuse("both passed the upcard: the non-dealer draws from the stock");
      if (this.pile.length === 0) c.refuse("the discard pile is empty");
      this.takeFromPile(c);
      return;
    }
    if (e.source !== "stock") c.refuse(`there is no ${show(e.source)} to draw from`);
    if (this.stock.length <= 2) c.refuse("the last two cards of the stock are never drawn");
    c.expect("card", this.stock[0]);
    this.held[e.seat].push(/** @type {string} */ (this.stock.shift()));
    this.taken = null;
    this.stockOnly = false;
    this.phase = "act";
  }

  /** After the draw: a discard, a knock or big gin. @param {Checking} c */
  act(c) {
    const e = c.event;
    c.only("discarded", "knocked");
    this.onTurn(c, e.seat);
    if (e.type === "knocked") {
      const knock = checkKnock(c, this.held[e.seat], this.taken, this.terms.knockLimit, this.options);
      if (knock.card) this.drop(e.seat, knock.card);
      const out = knock.gin || knock.bigGin;
      this.knock = knock;
      this.phase = out ? "score" : "layoff";
      this.turn = out ? null : 1 - e.seat;
      return;
    }
    this.holds(c, e.seat, e.card);
    if (e.card === this.taken) c.refuse(`${e.card} was just taken from the discard pile`);
    this.drop(e.seat, e.card);
    this.pile.push(e.card);
    this.taken = null;
    // The wall: a discard that leaves two cards in the stock ends the hand.
    if (this.stock.length <= 2) {
      this.phase = "wall";
    } else {
      this.phase = "draw";
      this.turn = 1 - e.seat;
    }
  }

  /** After a knock: the defender's layoffs, one card at a time, then the score. @param {Checking} c */
  layOff(c) {
    const e = c.event;
    const knock = /** @type {Knock} */ (this.knock);
    if (this.phase === "score" || e.type !== "laid_off") return this.score(c, knock);
    this.onTurn(c, e.seat);
    this.holds(c, e.seat, e.card);
    const meld = Number.isInteger(e.meld) ? knock.melds[e.meld] : undefined;
    if (!meld) return c.refuse(`the knocker has no meld ${show(e.meld)}: the melds are numbered 0 to ${knock.melds.length - 1}`);
    if (!fits(e.card, meld)) c.refuse(`${e.card} does not fit the knocker's meld ${e.meld} (${inOrder(meld).join(" ")})`);
    knock.melds[e.meld] = [...meld, e.card];
    this.drop(e.seat, e.card);
    this.layoffs.push([e.card, e.meld]);
  }

  /** @param {Checking} c @param {Knock} knock */
  score(c, knock) {
    const e = c.event;
    c.only("scored");
    const defender = this.held[1 - knock.seat];
    c.expect("knocker", knock.seat);
    c.expect("knock_card", knock.card);
    const shown = e.knocker_melds;
    if (!Array.isArray(shown) || shown.length !== knock.shown.length || !knock.shown.every((meld, i) => sameCards(shown[i], meld))) {
      c.expect("knocker_melds", knock.shown);
    }
    c.expect("knocker_deadwood", knock.count);
    c.expect("layoffs", this.layoffs);
    for (const seat of [0, 1]) {
      const laid = seat === knock.seat ? [] : this.layoffs.map(([card]) => card);
      expectHand(c, seat, [...this.held[seat], ...laid]);
    }
    const melded = checkMelds(c, e.defender_melds, defender, "the defender's melds");
    const deadwood = defender.filter((card) => !melded.has(card));
    if (!Array.isArray(e.defender_deadwood_cards) || !sameCards(e.defender_deadwood_cards, deadwood)) c.expect("defender_deadwood_cards", inOrder(deadwood));
    // The defender is left the least deadwood the best layoffs and arrangement give.
    const least = knock.gin || knock.bigGin ? leastDeadwood(defender) : leastAfterLayoffs(defender, knock.melds);
    c.expect("defender_deadwood", least);
    if (deadwoodOf(deadwood) !== least) c.refuse(`the defender's melds leave ${deadwoodOf(deadwood)} deadwood, where ${least} is the least`);
    const { multiplier } = this.terms;
    const scored = handScore(this.options, { gin: knock.gin, bigGin: knock.bigGin, knocker: knock.seat, knockerDeadwood: knock.count, defenderDeadwood: least, multiplier });
    c.expect("outcome", scored.outcome);
    c.expect("winner", scored.winner);
    c.expect("multiplier", multiplier);
    c.expect("points", scored.points);
    const winner = scored.winner;
    if (winner !== null) {
      this.handPoints[winner] += scored.points;
      this.handsWon[winner] += 1;
    }
    c.expect("hand_points", this.handPoints);
    // A tie that scores nothing is a drawn hand: the same dealer deals again.
    this.nextDealer = winner === null ? this.dealer : this.options.next_dealer === "alternate" ? 1 - this.dealer : winner;
    this.phase = this.endsGames && winner !== null && this.handPoints[winner] >= this.options.game_target ? "game_over" : "deal";
    this.turn = null;
  }

  /** @param {Checking} c */
  wall(c) {
    c.only("hand_drawn");
    c.expect("dealer", this.dealer);
    for (const seat of [0, 1]) expectHand(c, seat, this.held[seat]);
    this.nextDealer = this.dealer;
    this.phase = "deal";
    this.turn = null;
  }

  /** @param {Checking} c */
  gameOver(c) {
    c.only("game_won");
    const { options, handPoints, handsWon, matchScores } = this;
    const winner = gameWinner(options, handPoints) ?? 1;
    c.expect("game", this.game);
    c.expect("winner", winner);
    c.expect("hand_points", handPoints);
    c.expect("hands_won", handsWon);
    const scored = gameScore(options, winner, handPoints, handsWon);
    for (const [field, want] of Object.entries(scored)) c.expect(field, want);
    if (scored.scored_by !== null) matchScores[scored.scored_by] += scored.points;
    c.expect("match_scores", matchScores);
    this.gamesWon[winner] += 1;
    this.matchWinner = matchWinner(options, matchScores, winner);
    if (this.matchWinner !== null) {
      this.phase = "match_over";
      return;
    }
    this.phase = "deal";
    this.game += 1;
    this.handInGame = 0;
    this.handPoints = [0, 0];
    this.handsWon = [0, 0];
  }

  /** @param {Checking} c */
  matchOver(c) {
    c.only("match_won");
    c.expect("winner", this.matchWinner);
    c.expect("match_scores", this.matchScores);
    c.expect("games_won", this.gamesWon);
    this.phase = "over";
  }
}

/** A hand shown at the end of a hand holds the cards the rules give, in any order. @param {Checking} c @param {number} seat @param {string[]} want */
function expectHand(c, seat, want) {
  const shown = c.event.hands?.[seat];
  if (!Array.isArray(shown) || !sameCards(shown, want)) c.fail(`${c.name} says seat ${seat} held ${show(shown)}, the rules give ${show(inOrder(want))}`);
}

/**
 * Melds shown from `cards`: each a valid set or run of cards held, no card in two. The cards
 * melded. @param {Checking} c @param {unknown} melds @param {string[]} cards @param {string} whose
 */
function checkMelds(c, melds, cards, whose) {
  if (!Array.isArray(melds)) return c.refuse(`${whose} are not a list of melds`);
  /** @type {Set<string>} */
  const melded = new Set();
  for (const meld of melds) {
    if (!isMeld(meld)) c.refuse(`${whose}: ${show(meld)} is not a set or a run`);
    for (const card of meld) {
      if (!cards.includes(card)) c.refuse(`${whose}: ${card} is not among the cards shown`);
      if (melded.has(card)) c.refuse(`${whose}: ${card} is in two melds`);
      melded.add(card);
    }
  }
  return melded;
}

/**
 * A knock (or big gin) against the knocker's eleven cards: the knock card held and not just
 * taken from the pile, the melds valid, the deadwood what the melds leave and within the
 * hand's limit, gin when there is no deadwood and whenever the ten cards can all be melded.
 * @param {Checking} c @param {string[]} hand @param {string | null} taken @param {number} limit @param {Options} options
 * @returns {Knock}
 */
function checkKnock(c, hand, taken, limit, options) {
  const e = c.event;
  /** @param {string | null} card @param {number} count @param {boolean} bigGin @returns {Knock} */
  const knock = (card, count, bigGin) => ({ seat: e.seat, card, shown: e.melds, melds: e.melds.map((/** @type {string[]} */ m) => [...m]), count, gin: count === 0, bigGin });
  if (e.big_gin) {
    if (options.big_gin_bonus <= 0) c.refuse("big gin is not played with big_gin_bonus 0");
    c.expect("card", null);
    const melded = checkMelds(c, e.melds, hand, "the knocker's melds");
    if (melded.size !== 11) c.refuse("big gin shows all eleven cards in melds");
    c.expect("deadwood", []);
    c.expect("deadwood_count", 0);
    return knock(null, 0, true);
  }
  if (!hand.includes(e.card)) c.refuse(`seat ${e.seat} does not hold the knock card ${show(e.card)}`);
  if (e.card === taken) c.refuse(`${e.card} was just taken from the discard pile`);
  const ten = hand.filter((card) => card !== e.card);
  const melded = checkMelds(c, e.melds, ten, "the knocker's melds");
  const deadwood = ten.filter((card) => !melded.has(card));
  if (!Array.isArray(e.deadwood) || !sameCards(e.deadwood, deadwood)) c.expect("deadwood", inOrder(deadwood));
  const count = deadwoodOf(deadwood);
  c.expect("deadwood_count", count);
  if (count > limit) c.refuse(`a knock with ${count} deadwood, over the knock limit ${limit}`);
  if (count > 0 && allMeld(ten)) c.refuse("the ten cards all meld: gin cannot be declined");
  c.expect("gin", count === 0);
  c.expect("big_gin", false);
  return knock(e.card, count, false);
}
