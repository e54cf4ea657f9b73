// The scores and the results as one seat reads them: the status line, the scores by side, the
// hands that ended the last hand or round (both hands of each table shown, as the rules reveal
// them at its end), the last game's settlements and how the match ended.

import { cardLabel, sortCards } from "./cards.js";
import { cardRow, el, heading } from "./dom.js";
import { gameTable, points, scoredBreakdown, verb } from "./summary.js";

/** @typedef {import("./seats.js").AnyView} AnyView */
/** @typedef {import("./seats.js").Seats} Seats */
/** @typedef {import("./api.js").FormatMatchSummary["hands"][number]} EndedHand */

/** How the match ended, in words: who won, and why when it ended other than by play.
 * @param {AnyView} view @param {Seats} seats */
export function outcome(view, seats) {
  const winner = view.winner;
  let result = "Nobody won the match";
  if (winner !== null && seats.teams) result = winner === seats.sideOf(view.seat) ? "Your team won the match" : "The other team won the match";
  else if (winner !== null) result = `${seats.name(winner)} won the match`;
  const ending = view.ending;
  // A match played to its target needs no reason: who won says it all.
  if (!ending || ending.reason === "played_out") return result;
  const who = ending.seat === null ? "nobody" : seats.who(ending.seat);
  /** @type {Record<string, string>} */
  const why = {
    resigned: `${who} resigned`,
    forfeited_on_time: `${who} ran out of time too often`,
    no_show: `${who} never joined`,
    forfeited: `${who} forfeited (an organiser's decision)`,
    awarded: `the match was awarded to ${who} (an organiser's decision)`,
    voided: "the match was voided (an organiser's decision)",
    abandoned: "nobody moved for too long: the match was abandoned",
  };
  return `${result}: ${why[ending.reason] ?? ending.reason.replaceAll("_", " ")}`;
}

/** The status line. @param {AnyView} view @param {Seats} seats */
export function describeTurn(view, seats) {
  if (view.phase === "match_over") return `${outcome(view, seats)}.`;
  if (seats.waiting) return seats.players === 2 ? "Waiting for your opponent to join…" : "Waiting for every seat to join…";
  const mine = seats.own;
  if (!mine) {
    const players = seats.tables.flatMap((t) => t.seats).map((seat) => seats.name(seat));
    return `You sit this hand out: ${players.join(" and ")} play it.`;
  }
  const table = mine.view;
  const opponent = seats.name(seats.opponent() ?? view.seat);
  if (seats.myTurn) {
    const what = {
      choose_dealer: "You won the cut: choose who deals.",
      offer: "Your turn: take the upcard or pass.",
      draw: "Your turn: draw from the stock or the discard pile.",
      discard: "Your turn: discard a card, or knock.",
      layoff: `${opponent} knocked: lay off cards, then finish.`,
    };
    return what[/** @type {keyof typeof what} */ (table.phase)] ?? "Your turn.";
  }
  if (table.turn !== null) return `${opponent}'s turn.`;
  return "Your hand is over: waiting for the other table.";
}

/** The scores by side: the game's points so far and the match's. @param {AnyView} view @param {Seats} seats */
export function scores(view, seats) {
  const s = view.scores;
  const mySide = seats.sideOf(view.seat);
  return el("dl", { class: "scores", "aria-label": "Scores" }, [
    ...s.hand_points.flatMap((points, side) => [
      el("dt", {}, [seats.sideName(side)]),
      el("dd", { "data-score": side === mySide ? "you" : `side-${side}` }, [`${points} (match ${s.match_scores[side]})`]),
    ]),
    el("dt", {}, ["Game to"]),
    el("dd", {}, [`${view.options.game_target}, ${seats.stage}`]),
  ]);
}

/** The last hand (two players) or round (three or four): each table's ended hand, and with
 * more than one side per table, what each side scored.
 * @param {AnyView} view @param {Seats} seats @param {EndedHand[]} ended a round's hands, once read */
export function lastResult(view, seats, ended) {
  if (view.kind === "two_players") {
    const last = view.last_hand;
    if (!last) return null;
    return el("section", { class: "result", "aria-label": "Last hand" }, [
      heading("Last hand"),
      endedHand({ type: "table_event", table: 0, seats: [0, 1], event: last }, seats),
    ]);
  }
  const round = view.last_round;
  if (!round) return null;
  const name = round.winner === null ? "" : seats.sideName(round.winner);
  const winner = round.winner === null ? "Nobody scores" : `${name} ${verb(name, "score")} ${points(round.net)}`;
  return el("section", { class: "result", "aria-label": "Last round" }, [
    heading(`Round ${round.round}`),
    el("p", { "data-result": "round" }, [`${winner}.`]),
    ...ended.map((hand) => endedHand(hand, seats)),
  ]);
}

/** A table's ended hand, both hands shown. @param {EndedHand} ended @param {Seats} seats */
export function endedHand(ended, seats) {
  const event = ended.event;
  const seat = (/** @type {number} */ at) => ended.seats[at] ?? 0;
  let summary = "The hand was drawn: nobody scores.";
  if (event.type === "scored") {
    const winner = event.winner === null ? null : seat(event.winner);
    summary = winner === null
      ? `A tie (${event.outcome}): nobody scores.`
      : `${seats.name(winner)} ${verb(seats.name(winner), "win")} ${points(event.points)} (${event.outcome.replace("_", " ")}${event.knock_card ? `, knocked with ${cardLabel(event.knock_card)}` : ""}).`;
  }
  const hands = event.type === "scored" || event.type === "hand_drawn" ? event.hands : [];
  return el("div", { class: "ended-hand", "data-result": event.type }, [
    el("p", {}, [summary]),
    ...ended.seats.map((at, index) => {
      const whose = at === seats.seat ? "Your hand" : `${seats.name(at)}'s hand`;
      return el("p", { class: "ended-seat", "data-seat": at }, [`${whose}: `, cardRow(sortCards(hands[index] ?? []), whose)]);
    }),
    event.type === "scored" ? scoredBreakdown(event, ended.seats, seats, seats.view.options) : null,
  ]);
}

/** The last game's end and its settlements, between every two sides: three or four players.
 * @param {AnyView} view @param {Seats} seats */
export function lastGame(view, seats) {
  const game = view.last_game;
  if (!game) return null;
  return el("section", { class: "game", "aria-label": "Last game" }, [
    heading(`Game ${game.game}: ${seats.sideName(game.winner)} won`),
    gameTable(game, seats),
    "settlements" in game
      ? el("ul", {}, game.settlements.map((s) => {
          const [a, b] = s.sides;
          const name = s.scored_by === null ? "" : seats.sideName(s.scored_by);
          const who = s.scored_by === null ? "even" : `${name} ${verb(name, "score")} ${points(s.points)}`;
          const shutout = s.shutout_bonus ? ` (with a ${s.shutout_bonus} shutout bonus)` : "";
          return el("li", {}, [`${seats.sideName(a ?? 0)} ${s.totals[0]}, ${seats.sideName(b ?? 0)} ${s.totals[1]}${shutout}: ${who}`]);
        }))
      : null,
  ]);
}

/** The match's end: who won and by how much, the final scores, and another match.
 * @param {AnyView} view @param {Seats} seats @param {string} matchId @param {() => void} playAgain */
export function over(view, seats, matchId, playAgain) {
  if (view.phase !== "match_over") return null;
  const final = view.scores.match_scores;
  const ranked = [...final].sort((a, b) => b - a);
  const margin = (ranked[0] ?? 0) - (ranked[1] ?? 0);
  return el("section", { class: "over", "aria-label": "Match over" }, [
    heading(outcome(view, seats)),
    el("p", { "data-result": "match" }, [
      `Final score: ${final.map((score, side) => `${seats.sideName(side)} ${score}`).join(", ")}`,
      view.winner !== null && margin > 0 ? ` (by ${points(margin)}).` : ".",
    ]),
    el("p", {}, [
      el("button", { type: "button", "data-action": "play-again", onclick: playAgain }, ["Play again"]),
      " ", el("a", { href: `#/replay/${matchId}` }, ["Replay this match"]), " · ", el("a", { href: "#/" }, ["New match"]),
    ]),
  ]);
}
