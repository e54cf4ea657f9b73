// The scores and the results as one seat reads them: the status line, the scores by side, the
// hands that ended the last hand or round (both hands of each table shown, as the rules reveal
// them at its end), the last game's settlements and how the match ended.

import { cardLabel, sortCards } from "./cards.js";
import { cardRow, el, heading } from "./dom.js";
import { t } from "./i18n.js";
import { aboutSide, gameTable, points, scoredBreakdown } from "./summary.js";

/** @typedef {import("./seats.js").AnyView} AnyView */
/** @typedef {import("./seats.js").Seats} Seats */
/** @typedef {import("./api.js").FormatMatchSummary["hands"][number]} EndedHand */

/** How the match ended, in words: who won, and why when it ended other than by play.
 * @param {AnyView} view @param {Seats} seats */
export function outcome(view, seats) {
  const winner = view.winner;
  let result = t("over.nobodyWon");
  if (winner !== null && seats.teams) result = t(winner === seats.sideOf(view.seat) ? "over.yourTeamWon" : "over.otherTeamWon");
  else if (winner !== null) result = aboutSide(seats, winner, "over.youWon", "over.won");
  const ending = view.ending;
  // A match played to its target needs no reason: who won says it all.
  if (!ending || ending.reason === "played_out") return result;
  const who = ending.seat === null ? t("ending.nobody") : seats.who(ending.seat);
  /** @type {Record<string, string>} */
  const why = {
    resigned: t("ending.resigned", { who }),
    forfeited_on_time: t("ending.forfeitedOnTime", { who }),
    no_show: t("ending.noShow", { who }),
    forfeited: t("ending.forfeited", { who }),
    awarded: t("ending.awarded", { who }),
    voided: t("ending.voided"),
    abandoned: t("ending.abandoned"),
  };
  return `${result}: ${why[ending.reason] ?? ending.reason.replaceAll("_", " ")}`;
}

/** The status line. @param {AnyView} view @param {Seats} seats */
export function describeTurn(view, seats) {
  if (view.phase === "match_over") return `${outcome(view, seats)}.`;
  if (seats.waiting) return t(seats.players === 2 ? "status.waitingOpponent" : "status.waitingSeats");
  const mine = seats.own;
  if (!mine) {
    const players = seats.tables.flatMap((t) => t.seats).map((seat) => seats.name(seat));
    return t("status.sittingOut", { players: players.join(t("list.and")) });
  }
  const table = mine.view;
  const opponent = seats.name(seats.opponent() ?? view.seat);
  if (seats.myTurn) {
    const what = {
      choose_dealer: t("status.chooseDealer"),
      offer: t("status.offer"),
      draw: t("status.draw"),
      discard: t("status.discard"),
      layoff: t("status.layoff", { who: opponent }),
    };
    return what[/** @type {keyof typeof what} */ (table.phase)] ?? t("status.yourTurn");
  }
  if (table.turn !== null) return seats.players === 2 ? t("status.opponentsTurn") : t("status.seatsTurn", { who: opponent });
  return t("status.otherTable");
}

/** The scores by side: the game's points so far and the match's. @param {AnyView} view @param {Seats} seats */
export function scores(view, seats) {
  const s = view.scores;
  const mySide = seats.sideOf(view.seat);
  return el("dl", { class: "scores", "aria-label": t("scores.label") }, [
    ...s.hand_points.flatMap((points, side) => [
      el("dt", {}, [seats.sideName(side)]),
      el("dd", { "data-score": side === mySide ? "you" : `side-${side}` }, [t("scores.value", { points, match: s.match_scores[side] ?? 0 })]),
    ]),
    el("dt", {}, [t("scores.gameTo")]),
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
    return el("section", { class: "result", "aria-label": t("result.lastHand") }, [
      heading(t("result.lastHand")),
      endedHand({ type: "table_event", table: 0, seats: [0, 1], event: last }, seats),
    ]);
  }
  const round = view.last_round;
  if (!round) return null;
  const winner = round.winner === null
    ? t("result.nobodyScores")
    : aboutSide(seats, round.winner, "result.youScore", "result.scores", { points: points(round.net) });
  return el("section", { class: "result", "aria-label": t("result.lastRound") }, [
    heading(t("result.round", { number: round.round })),
    el("p", { "data-result": "round" }, [winner]),
    ...ended.map((hand) => endedHand(hand, seats)),
  ]);
}

/** A table's ended hand, both hands shown. @param {EndedHand} ended @param {Seats} seats */
export function endedHand(ended, seats) {
  const event = ended.event;
  const seat = (/** @type {number} */ at) => ended.seats[at] ?? 0;
  let summary = t("result.drawn");
  if (event.type === "scored") {
    const winner = event.winner === null ? null : seat(event.winner);
    const how = event.knock_card
      ? t("result.howKnockCard", { outcome: t(`outcome.${event.outcome}`), card: cardLabel(event.knock_card) })
      : t(`outcome.${event.outcome}`);
    summary = winner === null
      ? t("result.tieOutcome", { outcome: t(`outcome.${event.outcome}`) })
      : t(winner === seats.seat ? "result.youWin" : "result.wins", { who: seats.name(winner), points: points(event.points), how });
  }
  const hands = event.type === "scored" || event.type === "hand_drawn" ? event.hands : [];
  return el("div", { class: "ended-hand", "data-result": event.type }, [
    el("p", {}, [summary]),
    ...ended.seats.map((at, index) => {
      const whose = at === seats.seat ? t("result.yourHand") : t("result.seatsHand", { who: seats.name(at) });
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
  return el("section", { class: "game", "aria-label": t("result.lastGame") }, [
    heading(aboutSide(seats, game.winner, "result.gameYouWon", "result.gameWon", { number: game.game })),
    gameTable(game, seats),
    "settlements" in game
      ? el("ul", {}, game.settlements.map((s) => {
          const [a, b] = s.sides;
          const who = s.scored_by === null
            ? t("settlement.even")
            : aboutSide(seats, s.scored_by, "settlement.youScore", "settlement.scores", { points: points(s.points) });
          const shutout = s.shutout_bonus ? ` ${t("settlement.shutout", { bonus: s.shutout_bonus })}` : "";
          return el("li", {}, [`${seats.sideName(a ?? 0)} ${s.totals[0]}, ${seats.sideName(b ?? 0)} ${s.totals[1]}${shutout}: ${who}`]);
        }))
      : null,
  ]);
}

/** The match's end: who won and by how much, the final scores, and another match: a rematch
 * offered to the same players, or another match like it.
 * @param {AnyView} view @param {Seats} seats @param {string} matchId
 * @param {{ rematch?: () => void, playAgain?: () => void }} again */
export function over(view, seats, matchId, again) {
  if (view.phase !== "match_over") return null;
  const final = view.scores.match_scores;
  const ranked = [...final].sort((a, b) => b - a);
  const margin = (ranked[0] ?? 0) - (ranked[1] ?? 0);
  return el("section", { class: "over", "aria-label": t("over.label") }, [
    heading(outcome(view, seats)),
    el("p", { "data-result": "match" }, [
      t("over.final", { scores: final.map((score, side) => `${seats.sideName(side)} ${score}`).join(", ") }),
      view.winner !== null && margin > 0 ? ` ${t("over.margin", { points: points(margin) })}.` : ".",
    ]),
    el("p", {}, [
      again.rematch
        ? el("button", { type: "button", "data-action": "rematch", onclick: again.rematch }, [t("over.rematch")])
        : el("button", { type: "button", "data-action": "play-again", onclick: again.playAgain }, [t("over.playAgain")]),
      " ", el("a", { href: `#/replay/${matchId}` }, [t("over.replay")]), " · ", el("a", { href: "#/" }, [t("lobby.title")]),
    ]),
  ]);
}
