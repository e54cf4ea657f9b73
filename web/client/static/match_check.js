// A match stream re-run through the rules (docs/audit.md, step 4). A two-player match is one
// table (play_check.js) from its cut to its end. At three and four players (docs/rules.md,
// "Three and four players") every table's hand is a two-player hand, so each is checked move
// by move and scored by the same table (its own deck, table seat 1 dealing, the match's game
// and hand numbers, a target no hand reaches); the seats of every table are those its round
// seated; a round is scored only once every table's hand is over, and its points, net,
// winner, hand points and hands won are recomputed from the hands' results, by the rules
// version the match recorded (docs/rules.md, "Rules versions"). Who deals, plays whom and sits
// out each round follows from the cut and the rounds' winners (formats.js); each game won is
// settled between every two sides, and the match won where the rules say; a match ended
// other than by play goes to the side the rules name, the scores standing.

import { endingWinner } from "./clock_check.js";
import { Checking, eventName, fail, show } from "./discrepancy.js";
import { FORMATS } from "./formats.js";
import { t } from "./i18n.js";
import { MatchClock } from "./match_clock_check.js";
import { Table } from "./play_check.js";
import { gameWinner, matchWinner, settleGame } from "./rules.js";

/**
 * Every event of the match stream checked; the verdict's line.
 * @param {{ version: number, data: any }[]} events the match stream's events, parsed
 */
export function checkMatch(events) {
  return events[0]?.data?.type === "format_match_created" ? checkRounds(events) : checkOneTable(events);
}

/** @typedef {import("./play_check.js").Phase} Phase */


// What must come next when a record stops here.
/** @type {Partial<Record<Phase, string>>} */
const UNFINISHED = { wall: "hand_drawn", score: "scored", game_over: "game_won", match_over: "match_won" };

/**
 * A two-player match: one table, its hands, games and match.
 * @param {{ version: number, data: any }[]} events the match stream's events, parsed
 * @returns {string} the verdict's line
 */
function checkOneTable(events) {
  const [created, ...rest] = events;
  if (created?.data?.type !== "match_created") fail(`match stream version ${created?.version ?? 1}: it does not begin with match_created`);
  const table = new Table(created.data.options);
  for (const { version, data } of rest) table.check(data, version);
  const unfinished = UNFINISHED[table.phase];
  if (unfinished) fail(`the record ends at version ${events.at(-1)?.version}, where the rules go on with ${eventName(unfinished)}`);
  return t("verified.twoPlayers", { hands: t("verified.hands", { count: table.hands }), games: t("verified.games", { count: table.gamesWon[0] + table.gamesWon[1] }) });
}

// What a record without a rules version was played by, and the versions this page knows.
const UNVERSIONED = 1;
const RULES_VERSIONS = [1, 2];

/**
 * A match ended other than by play (docs/rules.md, "Resigning, clocks and forfeits"): a seat
 * that resigns or forfeits concedes it to the side the format names, an award goes to the
 * seat's side, nobody wins a voided or abandoned match; the scores stand. A forfeit on time
 * comes only at the seat's `timeouts_to_forfeit`-th timeout in a row, a no-show only right
 * after the seat's timeout at its join deadline.
 * @param {Checking} c @param {import("./formats.js").Format} format
 * @param {{ forfeits: boolean, noShow: boolean }} timedOut
 * @param {{ matchScores: number[], gamesWon: number[], handPoints: number[] }} scores
 */
function checkEnding(c, format, { forfeits, noShow }, { matchScores, gamesWon, handPoints }) {
  const { reason } = c.event;
  const winner = endingWinner(c, format.sideOf, (seat) => format.concededTo(seat, matchScores, handPoints));
  if (reason === "forfeited_on_time" && !forfeits) c.refuse("nothing made it end forfeited_on_time");
  if ((reason === "no_show") !== noShow) c.refuse(`nothing made it end ${reason}`);
  c.expect("winner", winner);
  c.expect("match_scores", matchScores);
  c.expect("games_won", gamesWon);
}

// The steps of a match between its rounds' play, each only where the rules give it.
const ROUND_STEPS = ["round_started", "format_game_won", "format_match_won"];

/**
 * @param {{ version: number, data: any }[]} events the match stream's events, parsed
 * @returns {string} the verdict's line
 */
function checkRounds(events) {
  const [created, ...rest] = events;
  const { players, options } = created.data;
  const rulesVersion = created.data.rules_version ?? UNVERSIONED;
  if (!RULES_VERSIONS.includes(rulesVersion)) fail(`match stream version ${created.version}: rules version ${show(rulesVersion)} is not one of ${show(RULES_VERSIONS)}`);
  const format = FORMATS[players];
  if (!format) fail(`match stream version ${created.version}: a match of ${show(players)} players`);
  const { sides, sideOf } = format;
  /** @type {{ seats: number[], table: Table }[]} */
  let tables = [];
  let round = 0;
  let game = 1;
  let hand = 0;
  let scored = true;
  let hands = 0;
  let handPoints = Array(sides).fill(0);
  let handsWon = Array(sides).fill(0);
  const matchScores = Array(sides).fill(0);
  const gamesWon = Array(sides).fill(0);
  /** @type {number | null} who deals the next round: the cut's dealer's side, then the rules' */
  let dealerSide = null;
  /** @type {number | null} */
  let champion = null;
  /** @type {string | null} the step the rules give next, between rounds */
  let due = null;
  // Each seat's bank and timeouts in a row, carried from its table's hand to its next.
  const banks = Array(players).fill((options?.bank_seconds ?? 0) * 1000);
  const timeouts = Array(players).fill(0);
  let over = false;
  const clock = new MatchClock(players, options);
  // The time of the tables' clocks restarted together just before (not a timeout's spent
  // bank), after which the match's next deadline must be recorded where it changed (where it
  // did not, `MatchClock.deadlineSet` refuses it).
  /** @type {string | null} */
  let restartedAt = null;
  /** @type {string | null} the type of the event before, a table's event's own */
  let before = null;
  const carry = () => {
    for (const { seats, table } of tables) {
      const deadline = table.clock.deadline;
      seats.forEach((seat, tableSeat) => {
        timeouts[seat] = table.clock.timeouts[tableSeat];
        if (deadline?.kind === "turn") banks[seat] = deadline.banks[tableSeat];
      });
    }
  };
  for (const { version, data } of rest) {
    const where = `${round ? `round ${round}, ` : ""}version ${version}`;
    const c = new Checking(data, where);
    const inner = data.type === "table_event" ? data.event?.type : data.type;
    const restarts = inner === "deadline_set" && data.type === "table_event" && before !== "timed_out" && !over;
    if (restartedAt !== null && !(restarts && data.event.at === restartedAt)) {
      if (data.type !== "deadline_set" && clock.changed(tables, banks)) {
        c.fail(`the record has ${c.name} where the rules give DeadlineSet, the match's next deadline`);
      }
      restartedAt = null;
    }
    if (restarts) restartedAt = data.event.at;
    before = inner;
    if (clock.noShow && data.type !== "match_ended") c.fail(`the record has ${c.name} where the rules give MatchEnded`);
    if (ROUND_STEPS.includes(data.type) && data.type !== due) {
      c.fail(`the record has ${c.name} where the rules give ${due ? eventName(due) : "the round's play"}`);
    }
    if (data.type === "seats_cut") {
      if (dealerSide !== null) c.fail("the seats are cut twice");
      dealerSide = sideOf(data.dealer);
      due = "round_started";
    } else if (data.type === "round_started") {
      // Who deals, plays whom and sits out, by the format's rules; the game's next hand.
      const dealer = /** @type {number} */ (dealerSide);
      round += 1;
      hand += 1;
      for (const [field, want] of Object.entries({ round, game, hand, dealer_side: dealer })) c.expect(field, want);
      c.expect("tables", format.roundTables(dealer, round));
      c.expect("sitting_out", format.sittingOut(dealer));
      due = null;
      carry();
      tables = data.tables.map((/** @type {number[]} */ seats) => {
        const table = new Table(options, false); // the round ends the game
        Object.assign(table, { phase: "deal", nextDealer: 1, game, handInGame: hand - 1 });
        table.clock.startBanks = seats.map((seat) => banks[seat]);
        table.clock.timeouts = seats.map((seat) => timeouts[seat]);
        return { seats, table };
      });
      scored = false;
    } else if (data.type === "table_event") {
      const at = tables[data.table];
      const stopped = data.event?.type === "deadline_set" && data.event.seat === null && data.event.due_at === null;
      if (over && at && stopped) continue; // the match is over: its tables' clocks stop
      if (!at || scored) fail(`${where}: there is no table ${show(data.table)} in play`);
      if (show(data.seats) !== show(at.seats)) fail(`${where}: TableEvent seats ${show(data.seats)} at table ${data.table}, where the round seated ${show(at.seats)}`);
      try {
        at.table.check(data.event, version);
      } catch (error) {
        if (error instanceof Error) error.message = `round ${round}, at table ${data.table}: ${error.message}`;
        throw error;
      }
      if (data.event?.type === "scored" || data.event?.type === "hand_drawn") hands++;
    } else if (data.type === "round_scored") {
      if (scored || tables.some(({ table }) => table.phase !== "deal" || table.hands !== 1)) c.fail("the round is scored before every table's hand is over");
      const points = Array(sides).fill(0);
      /** @type {number | null} */
      let scorer = null;
      for (const { seats, table } of tables) {
        // The table's own score: its winner's points (a hand at the wall counts zero).
        const winner = table.handsWon[0] ? 0 : table.handsWon[1] ? 1 : null;
        if (winner !== null) {
          scorer = sideOf(/** @type {number} */ (seats[winner]));
          points[scorer] += table.handPoints[winner];
        }
      }
      /** @type {number | null} */
      let ahead = null;
      let net = 0;
      if (tables.length === 1 && scorer !== null && rulesVersion >= 2) {
        // One hand makes the round: whoever scored it has won it, even for 0 points.
        ahead = scorer;
        net = points[scorer];
      } else {
        // Partnerships score the net difference (and nobody without a lead); under rules
        // version 1 a round of one hand worth 0 was won by nobody too.
        const top = Math.max(...points);
        ahead = points.filter((p) => p === top).length === 1 ? points.indexOf(top) : null;
        net = ahead === null ? 0 : top - Math.max(0, ...points.filter((_, side) => side !== ahead));
      }
      c.expect("round", round);
      c.expect("points", points);
      c.expect("winner", ahead);
      c.expect("net", net);
      if (ahead !== null) {
        handPoints[ahead] += net;
        handsWon[ahead] += 1;
        // After a round nobody won the same side deals again.
        const seated = tables.map(({ seats }) => seats);
        dealerSide = format.nextDealerSide(/** @type {number} */ (dealerSide), seated, ahead, options.next_dealer);
      }
      c.expect("hand_points", handPoints);
      c.expect("hands_won", handsWon);
      scored = true;
      due = gameWinner(options, handPoints) === null ? "round_started" : "format_game_won";
    } else if (data.type === "format_game_won") {
      // Every two sides settle the game; the match may be won.
      const winner = /** @type {number} */ (gameWinner(options, handPoints));
      const settlements = settleGame(options, winner, handPoints, handsWon);
      for (const settled of settlements) if (settled.scored_by !== null) matchScores[settled.scored_by] += settled.points;
      gamesWon[winner] += 1;
      const lineBonuses = handsWon.map((won) => won * options.line_bonus);
      const want = { game, winner, hand_points: handPoints, hands_won: handsWon, game_bonus: options.game_bonus, line_bonuses: lineBonuses, settlements, match_scores: matchScores };
      for (const [field, value] of Object.entries(want)) c.expect(field, value);
      game += 1;
      hand = 0;
      handPoints = Array(sides).fill(0);
      handsWon = Array(sides).fill(0);
      champion = matchWinner(options, matchScores, winner);
      due = champion === null ? "round_started" : "format_match_won";
    } else if (data.type === "format_match_won") {
      for (const [field, want] of Object.entries({ winner: champion, match_scores: matchScores, games_won: gamesWon })) c.expect(field, want);
      over = true;
      due = null;
    } else if (data.type === "match_ended") {
      const forfeits = tables.some(({ seats, table }) => table.clock.forfeits && seats.includes(data.seat));
      checkEnding(c, format, { forfeits, noShow: clock.noShow }, { matchScores, gamesWon, handPoints });
      clock.noShow = false;
      clock.last = null;
      over = true;
      due = null;
    } else if (data.type === "deadline_set") {
      clock.deadlineSet(c, { cut: dealerSide !== null, over, tables, banks });
    } else if (data.type === "timed_out") {
      clock.timedOut(c, dealerSide !== null);
    } else {
      c.fail(`the record has ${c.name}, which no rule of a match of ${players} players gives`);
    }
  }
  if (restartedAt !== null && clock.changed(tables, banks)) {
    fail(`the record ends at version ${events.at(-1)?.version}, where the rules go on with DeadlineSet, the match's next deadline`);
  }
  if (due === "format_game_won" || due === "format_match_won") {
    fail(`the record ends at version ${events.at(-1)?.version}, where the rules go on with ${eventName(due)}`);
  }
  return t("verified.format", { players, hands: t("verified.hands", { count: hands }), rounds: t("verified.rounds", { count: round }) });
}
