// A record's match stream stepped through for the replay viewer, for display only (verify.js
// checks; this only shows): the match after each event, every table's hand in it (both hands
// shown: a record holds only what the rules have revealed), and the scores by side. A
// two-player match is one table whose events come as they are; three or four players' come
// wrapped in a table_event, between the rounds that seat them.

import { bestArrangement, cardLabel, sortCards } from "./cards.js";
import { cardRow, el } from "./dom.js";
import { FORMATS } from "./formats.js";
import { t } from "./i18n.js";

/**
 * @typedef {object} Frame one table right after one event
 * @property {number} version
 * @property {string} said what the event was, in words
 * @property {number} game
 * @property {number} hand
 * @property {string[][]} hands
 * @property {string[]} pile
 * @property {number} stock
 * @property {number[]} handPoints
 * @property {number[]} matchScores
 * @property {{ seat: number, melds: string[][], deadwood: string[] } | null} knock
 */
/**
 * @typedef {object} MatchFrame the match right after one event
 * @property {number} players
 * @property {number} round
 * @property {number} game
 * @property {{ seats: number[], frame: Frame }[]} tables
 * @property {number | null} sittingOut
 * @property {number[]} handPoints by side
 * @property {number[]} matchScores by side
 */
/**
 * One step of the replay: what happened, where a hand (or a round) begins, and the table.
 * @typedef {{ version: number, said: string, jump: string | null, draw: () => (Node | string)[] }} Step
 */

/** @param {number} seat */
const seatName = (seat) => t("seat.number", { seat });

/** @param {number} players @param {number} side */
const sideName = (players, side) => {
  const team = FORMATS[players]?.teams?.[side];
  return team ? t("replay.team", { team: side, a: team[0], b: team[1] }) : seatName(side);
};

/**
 * @param {{ version: number, event: any }[]} entries the match stream's events, in order
 * @returns {Step[]}
 */
export function steps(entries) {
  /** @type {MatchFrame} */
  let match = { players: 2, round: 0, game: 1, tables: [{ seats: [0, 1], frame: emptyFrame() }], sittingOut: null, handPoints: [0, 0], matchScores: [0, 0] };
  /** @type {Step[]} */
  const found = [];
  for (const { version, event: e } of entries) {
    const next = { ...match };
    const sides = () => Array(FORMATS[next.players]?.sides ?? next.players).fill(0);
    let jump = null;
    let said = e.type;
    /** The event of one table's hand. @param {number} index @param {any} event */
    const atTable = (index, event) => {
      const table = next.tables[index];
      if (!table) throw new Error(`version ${version}: no table ${index}`);
      const moved = step(table.frame, version, event, (at) => seatName(table.seats[at] ?? at));
      next.tables = next.tables.map((t, i) => (i === index ? { ...t, frame: moved } : t));
      return moved;
    };
    switch (e.type) {
      case "format_match_created":
        Object.assign(next, { players: e.players, tables: [], handPoints: sides(), matchScores: sides() });
        said = t("replay.createdPlayers", { players: e.players, target: e.options.game_target });
        break;
      case "seats_cut":
        said = `${t("cut.title")} ${e.rounds.map((/** @type {string[]} */ r) => r.map(cardLabel).join(" ")).join(`, ${t("cut.then")} `)}; ${t("cut.deals", { who: seatName(e.dealer) })}`;
        break;
      case "round_started":
        Object.assign(next, { round: e.round, game: e.game, sittingOut: e.sitting_out });
        next.tables = e.tables.map((/** @type {number[]} */ seats) => ({ seats, frame: emptyFrame() }));
        if (e.game !== match.game) next.handPoints = sides();
        jump = `Round ${e.round} (game ${e.game})`;
        said = `${t("result.round", { number: e.round })}: ${e.tables.map((/** @type {number[]} */ s) => s.map(seatName).join(` ${t("others.against")} `)).join("; ")}${e.sitting_out === null ? "" : `; ${t("replay.sitsOut", { who: seatName(e.sitting_out) })}`}`;
        break;
      case "table_event":
        said = `${t("replay.table", { number: e.table })}: ${atTable(e.table, e.event).said}`;
        break;
      case "round_scored":
        next.handPoints = [...e.hand_points];
        said = `${t("result.round", { number: e.round })}: ${e.winner === null ? t("result.nobodyScores") : t("result.scores", { who: sideName(next.players, e.winner), points: t("points", { count: e.net }) })}`;
        break;
      case "format_game_won":
      case "format_match_won":
        next.matchScores = [...e.match_scores];
        said = e.type === "format_game_won" ? t("replay.winsGame", { who: sideName(next.players, e.winner), number: e.game }) : t("over.won", { who: sideName(next.players, e.winner) });
        break;
      default: {
        // A two-player match's own events: its one table's, the scores with them.
        if (next.players !== 2) break;
        const moved = atTable(0, e);
        Object.assign(next, { game: moved.game, handPoints: moved.handPoints, matchScores: moved.matchScores });
        said = moved.said;
        if (e.type === "dealt") jump = `${t("game.number", { number: moved.game })}, ${t("stage.hand", { number: moved.hand })}`;
      }
    }
    match = next;
    found.push({ version, said, jump, draw: () => drawn(next) });
  }
  return found;
}

/** @param {MatchFrame} match */
function drawn(match) {
  const stage = match.players === 2 ? t("stage.hand", { number: match.tables[0]?.frame.hand ?? 0 }) : t("stage.round", { number: match.round });
  return [
    el("dl", { class: "scores", "aria-label": t("scores.label") }, match.handPoints.flatMap((points, side) => [
      el("dt", {}, [sideName(match.players, side)]),
      el("dd", { "data-score": side }, [t("scores.value", { points, match: match.matchScores[side] ?? 0 })]),
    ])),
    el("p", {}, [`${t("game.number", { number: match.game })}, ${stage}`, match.sittingOut === null ? "" : ` · ${t("replay.sitsOut", { who: seatName(match.sittingOut) })}`]),
    ...match.tables.map(({ seats, frame: table }, index) =>
      el("section", { class: "replay-table", "data-table": index, "aria-label": t("replay.table", { number: index }) }, [
        el("p", {}, [
          `${t("replay.tableLine", { number: index, stock: table.stock })} `,
          table.pile.length ? cardRow([/** @type {string} */ (table.pile.at(-1))], t("replay.pileTop", { number: index })) : t("replay.empty"),
        ]),
        ...seats.map((seat, at) => seatHand(table.hands[at] ?? [], seat, seatName(seat))),
        knockLine(table, seatName(seats[table.knock?.seat ?? 0] ?? 0)),
      ]),
    ),
  ];
}

/** A seat's hand, melds first. @param {string[]} cards @param {number} seat @param {string} name */
function seatHand(cards, seat, name) {
  const arranged = bestArrangement(cards);
  return el("p", { class: "seat", "data-seat": seat }, [
    `${t("replay.seatHand", { who: name, count: arranged.count })} `,
    ...arranged.melds.map((meld) => el("span", { class: "meld" }, [cardRow(sortCards(meld), t("replay.seatMeld", { who: name }))])),
    " ",
    el("span", { class: "deadwood" }, [cardRow(arranged.deadwood, t("deadwood.whose", { who: name }))]),
  ]);
}

/** @param {Frame} frame @param {string} knocker */
function knockLine(frame, knocker) {
  const knock = frame.knock;
  if (!knock) return "";
  return el("p", {}, [
    `${t("others.knocked", { who: knocker })} `,
    ...knock.melds.map((meld) => cardRow(meld, t("replay.knockerMeld"))),
    ` ${t("deadwood.label")} `,
    cardRow(knock.deadwood, t("knock.deadwoodLabel")),
  ]);
}

/** A table before anything happened at it. @returns {Frame} */
const emptyFrame = () => ({ version: 0, said: "", game: 1, hand: 0, hands: [[], []], pile: [], stock: 0, handPoints: [0, 0], matchScores: [0, 0], knock: null });

/**
 * The table after one more event of its hand (a two-player match is one table's hands).
 * @param {Frame} frame @param {number} version @param {any} e the event
 * @param {(seat: number) => string} seatName a table seat's name in what is said
 * @returns {Frame}
 */
function step(frame, version, e, seatName) {
  const hands = [[...frame.hands[0]], [...frame.hands[1]]];
  const next = { ...frame, version, hands, pile: [...frame.pile] };
  /** @param {number} seat @param {string} card */
  const drop = (seat, card) => {
    next.hands[seat] = next.hands[seat].filter((c) => c !== card);
  };
  switch (e.type) {
    case "match_created":
      next.said = t("replay.created", { target: e.options.game_target });
      break;
    case "cards_cut":
      next.said = `${t("cut.title")} ${e.pairs.map((/** @type {string[]} */ p) => p.map(cardLabel).join(` ${t("others.against")} `)).join(", ")}; ${t("cut.won", { who: seatName(e.winner) })}`;
      break;
    case "dealer_chosen":
      next.said = t("replay.dealerChosen", { who: seatName(e.seat), dealer: seatName(e.dealer) });
      break;
    case "dealt":
      Object.assign(next, { game: e.game, hand: frame.hand + 1, hands: e.hands.map((/** @type {string[]} */ h) => [...h]), pile: [e.upcard], stock: e.stock.length, knock: null });
      if (e.game !== frame.game) next.handPoints = [0, 0];
      next.said = t("replay.dealt", { who: seatName(e.dealer), card: cardLabel(e.upcard) });
      break;
    case "upcard_passed":
      next.said = t("move.passed", { who: seatName(e.seat) });
      break;
    case "drew":
      if (e.source === "stock") next.stock = frame.stock - 1;
      else next.pile.pop();
      if (e.card) next.hands[e.seat].push(e.card);
      next.said = e.source === "stock"
        ? t(e.card ? "replay.drewStockCard" : "move.drewStock", { who: seatName(e.seat), card: e.card ? cardLabel(e.card) : "" })
        : t(e.card ? "move.tookCard" : "move.tookTop", { who: seatName(e.seat), card: e.card ? cardLabel(e.card) : "" });
      break;
    case "discarded":
      drop(e.seat, e.card);
      next.pile.push(e.card);
      next.said = t("move.discarded", { who: seatName(e.seat), card: cardLabel(e.card) });
      break;
    case "knocked":
      if (e.card) drop(e.seat, e.card);
      next.knock = { seat: e.seat, melds: e.melds, deadwood: e.deadwood };
      next.said = t(e.big_gin ? "move.bigGin" : e.gin ? "move.gin" : "move.knocked", { who: seatName(e.seat), count: e.deadwood_count });
      break;
    case "laid_off":
      drop(e.seat, e.card);
      if (next.knock) next.knock = { ...next.knock, melds: next.knock.melds.map((m, i) => (i === e.meld ? [...m, e.card] : m)) };
      next.said = t("move.laidOff", { who: seatName(e.seat), card: cardLabel(e.card), number: e.meld + 1 });
      break;
    case "scored": {
      // The event's hands hold the defender's cards laid off too; those lie on the knocker's
      // melds now, and the deadwood on screen must be the one scored.
      const laidOff = new Set(e.layoffs.map((/** @type {[string, number]} */ [card]) => card));
      next.hands = e.hands.map((/** @type {string[]} */ h) => h.filter((card) => !laidOff.has(card)));
      next.handPoints = [...e.hand_points];
      next.said = e.winner === null
        ? t("result.tie")
        : t("result.wins", { who: seatName(e.winner), points: t("points", { count: e.points }), how: t(`outcome.${e.outcome}`) });
      break;
    }
    case "hand_drawn":
      next.hands = e.hands.map((/** @type {string[]} */ h) => [...h]);
      next.said = t("result.drawn");
      break;
    case "game_won":
      next.matchScores = [...e.match_scores];
      next.said = `${t("replay.winsGame", { who: seatName(e.winner), number: e.game })}; ${e.scored_by === null ? t("game.even") : t("settlement.scores", { who: seatName(e.scored_by), points: t("points", { count: e.points }) })}`;
      break;
    case "match_won":
      next.matchScores = [...e.match_scores];
      next.said = t("over.won", { who: seatName(e.winner) });
      break;
    default:
      next.said = e.type;
  }
  return next;
}
