// The table as one seat sees it, and the only moves the service lists for it
// (``legal_actions``): nothing here decides what is legal, and nothing shows more than the
// seat's view holds.

import * as api from "./api.js";
import { arrangements, bestArrangement, cardLabel, cardName, sortCards } from "./cards.js";
import { cardFace, cardRow, el, heading } from "./dom.js";
import { clockReading } from "./clock.js";
import { follow } from "./live.js";

/** @typedef {import("./api.js").MatchView} MatchView */
/** @typedef {import("./api.js").FormatMatchView} FormatMatchView */
/** @typedef {import("./api.js").Action} Action */
/** @typedef {{ seat: number, invite_code: string }} SeatInvite */
/** @typedef {{ token: string, seat: number, inviteCode?: string | null, invites?: SeatInvite[] }} SeatKey */
/** One seat's side of a two-player table (a three- or four-player match's seat has one too,
 * in table seats): what the table, the hand and the knock are drawn from.
 * @typedef {Pick<MatchView, "seat" | "hand" | "discard_pile" | "stock_size" | "knock" | "knock_limit">} Side */
/** @typedef {typeof import("./format_table.js")} FormatParts */

const ARRANGEMENTS_PER_KNOCK = 3;

/** @param {string} card */
const spoken = (card) => `${cardName(card)} (${cardLabel(card)})`;

/**
 * @param {HTMLElement} root
 * @param {string} matchId
 * @param {SeatKey} key
 */
export async function playScreen(root, matchId, key) {
  /** @type {MatchView | FormatMatchView | null} */
  let view = null;
  // For three or four players: the parts of the page that draw them, loaded with the first
  // such view; each seat's bot level, and the last round's ended hands (the public summary).
  /** @type {FormatParts | null} */
  let formats = null;
  /** @type {(string | null)[]} */
  let bots = [];
  /** @type {import("./format_table.js").EndedHand[]} */
  let ended = [];
  let endedRound = -1;
  let busy = false;
  let knocking = false;
  /** @type {string | null} */
  let problem = null;
  let connection = "connecting";

  const status = el("p", { class: "status", role: "status", "aria-live": "polite" });
  // A timer is not read out on every tick (its live region is off); a screen reader reads it when asked.
  const clock = el("p", { class: "clock", role: "timer", "aria-live": "off", hidden: true });
  const board = el("div", { class: "board" });
  root.replaceChildren(el("section", { class: "play", "aria-label": "Your table" }, [status, clock, board]));

  const tick = () => {
    // Three- and four-player matches have no clock.
    const reading = view && !("players" in view) ? clockReading(view, Date.now()) : null;
    clock.hidden = !reading;
    clock.textContent = reading ? reading.text : "";
    clock.dataset.whose = reading ? reading.whose : "";
    clock.dataset.up = String(Boolean(reading?.up));
  };
  const ticking = setInterval(() => (clock.isConnected ? tick() : clearInterval(ticking)), 250);

  /** @param {MatchView | FormatMatchView} next */
  const show = async (next) => {
    if (view && next.version < view.version) return;
    view = next;
    if ("players" in next) {
      formats ??= await import("./format_table.js");
      if ((next.last_round?.round ?? 0) !== endedRound || !bots.length) {
        endedRound = next.last_round?.round ?? 0;
        // Read again with the next view should this read fail.
        readSummary(next).catch(() => (endedRound = -1));
      }
    }
    render();
  };

  /** Which seats bots play, and the hands that ended the last round: both public.
   * @param {FormatMatchView} at */
  const readSummary = async (at) => {
    const summary = await api.summary(matchId);
    if (!("rounds" in summary)) return;
    bots = summary.players.map((player) => player.bot ?? null);
    const rounds = summary.rounds.length;
    const round = at.last_round?.round ?? 0;
    // Each round ends one hand at every table, and no hand of a round ends before the round
    // ahead of it is scored: round r's hands come after those of the rounds before it.
    const tables = at.players === 4 ? 2 : 1;
    ended = rounds >= round && round > 0 ? summary.hands.slice((round - 1) * tables, round * tables) : [];
    render();
  };

  const refresh = async () => {
    try {
      await show(await api.view(matchId, key.token));
    } catch (error) {
      problem = error instanceof Error ? error.message : String(error);
      render();
    }
  };

  /** @param {Action} action */
  const act = async (action) => {
    if (busy) return;
    busy = true;
    problem = null;
    knocking = false;
    try {
      await show(await api.send(matchId, key.token, action));
    } catch (error) {
      problem = error instanceof Error ? error.message : String(error);
      await refresh();
    } finally {
      busy = false;
      render();
    }
  };

  const toggleKnock = () => {
    knocking = !knocking;
    render();
  };

  /** The seat's own table: the same controls whatever the number of players.
   * @param {Side | null} side @param {Action[]} actions */
  const ownTable = (side, actions) => side
    ? [
        table(side, actions, act),
        knockOnTable(side, actions, act),
        hand(side, actions, act, toggleKnock),
        knocking ? knockChoices(side, actions, act) : null,
      ]
    : [];

  function render() {
    if (!view) return;
    const current = view;
    const actions = current.legal_actions;
    root.dataset.version = String(current.version);
    root.dataset.phase = current.phase;
    /** @type {(Node | null)[]} */
    let parts;
    let turn;
    if ("players" in current) {
      if (!formats) return;
      const seats = new formats.Seats(current, bots);
      root.dataset.players = String(current.players);
      root.dataset.turn = current.turns.includes(current.seat) ? "me" : "them";
      turn = formats.describeTurn(current, seats);
      parts = [
        formats.scores(current, seats),
        invites(formats.waiting(current), key),
        formats.opponent(current, seats),
        ...ownTable(formats.ownSide(current), actions),
        formats.otherTables(current, seats),
        formats.lastRound(current, seats, current.last_round?.round === endedRound ? ended : []),
        formats.lastGame(current, seats),
        over(current.phase === "match_over", formats.outcome(current, seats), matchId),
      ];
    } else {
      root.dataset.players = "2";
      root.dataset.turn = current.turn === current.seat ? "me" : "them";
      turn = describeTurn(current);
      parts = [
        scores(current),
        invites(current.turn === null, key),
        opponent(current),
        ...ownTable(current, actions),
        lastHand(current),
        over(current.phase === "match_over", matchOutcome(current), matchId),
      ];
    }
    status.textContent = [turn, problem, connection === "reconnecting" ? "Reconnecting…" : null]
      .filter(Boolean)
      .join(" · ");
    board.replaceChildren(...parts.filter((part) => part !== null));
    tick();
  }

  document.onkeydown = (event) => {
    if (!view || event.altKey || event.ctrlKey || event.metaKey) return;
    if (event.target instanceof HTMLInputElement) return;
    const byKey = { s: "draw_from_stock", d: "draw_from_discard", t: "take_upcard", p: "pass_upcard", f: "finish_layoff", g: "big_gin" };
    const type = byKey[/** @type {keyof typeof byKey} */ (event.key)];
    const action = type && view.legal_actions.find((a) => a.type === type);
    if (action) {
      event.preventDefault();
      act(action);
    } else if (event.key === "k" && view.legal_actions.some((a) => a.type === "knock")) {
      knocking = !knocking;
      render();
    } else if (event.key === "ArrowLeft" || event.key === "ArrowRight") {
      moveFocus(event.key === "ArrowLeft" ? -1 : 1);
    }
  };

  await refresh();
  const follower = follow(
    matchId,
    key.token,
    view ? /** @type {MatchView | FormatMatchView} */ (view).version : 0,
    (entry) => {
      // The person left this table for another screen: stop listening for it.
      if (!status.isConnected) return follower.stop();
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

/** @param {number} step */
function moveFocus(step) {
  const cards = /** @type {HTMLElement[]} */ ([...document.querySelectorAll(".hand .card")]);
  const at = cards.indexOf(/** @type {HTMLElement} */ (document.activeElement));
  const next = cards[(at + step + cards.length) % cards.length];
  next?.focus();
}

/** How the match ended, in words: who won, and why when it ended other than by play.
 * @param {MatchView} view */
function matchOutcome(view) {
  const result = view.winner === null ? "Nobody won the match" : view.winner === view.seat ? "You won the match" : "Your opponent won the match";
  const ending = view.ending;
  // A match played to its target needs no reason: who won says it all.
  if (!ending || ending.reason === "played_out") return result;
  const who = ending.seat === view.seat ? "you" : "your opponent";
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

/** @param {MatchView} view */
function describeTurn(view) {
  if (view.phase === "match_over") return `${matchOutcome(view)}.`;
  if (view.turn === null) return "Waiting for your opponent to join…";
  if (view.turn !== view.seat) return "Your opponent's turn.";
  const what = {
    choose_dealer: "You won the cut: choose who deals.",
    offer: "Your turn: take the upcard or pass.",
    draw: "Your turn: draw from the stock or the discard pile.",
    discard: "Your turn: discard a card, or knock.",
    layoff: "Your opponent knocked: lay off cards, then finish.",
  };
  return what[/** @type {keyof typeof what} */ (view.phase)] ?? "Your turn.";
}

/** @param {MatchView} view */
function scores(view) {
  const you = view.seat;
  const them = 1 - you;
  const s = view.scores;
  return el("dl", { class: "scores", "aria-label": "Scores" }, [
    el("dt", {}, ["You"]),
    el("dd", { "data-score": "you" }, [`${s.hand_points[you]} (match ${s.match_scores[you]})`]),
    el("dt", {}, ["Opponent"]),
    el("dd", { "data-score": "them" }, [`${s.hand_points[them]} (match ${s.match_scores[them]})`]),
    el("dt", {}, ["Game to"]),
    el("dd", {}, [`${view.options.game_target}, hand ${view.hand_number}`]),
  ]);
}

/** The invite links, while the match waits for its seats. @param {boolean} waiting @param {SeatKey} key */
function invites(waiting, key) {
  if (!waiting) return null;
  /** @param {string} code */
  const linkTo = (code) => `${location.origin}${location.pathname}#/join/${code}`;
  /** @param {string} link @param {string} label */
  const field = (link, label) => el("input", { readonly: true, value: link, "aria-label": label, size: 40, "data-invite": link });
  if (key.inviteCode) {
    return el("p", { class: "invite" }, ["Send this link to your opponent: ", field(linkTo(key.inviteCode), "Invite link")]);
  }
  if (!key.invites?.length) return null;
  return el("section", { class: "invite", "aria-label": "Invites" }, [
    el("p", {}, ["Send each player the link of their seat:"]),
    ...key.invites.map((invite) =>
      el("p", {}, [`Seat ${invite.seat}: `, field(linkTo(invite.invite_code), `Invite link for seat ${invite.seat}`)]),
    ),
  ]);
}

/** @param {MatchView} view */
function opponent(view) {
  return el("section", { class: "opponent", "aria-label": "Your opponent" }, [
    heading("Opponent"),
    el("p", {}, [`${view.opponent_card_count} cards`]),
    view.opponent_took.length ? el("p", {}, ["Took from the pile: ", cardRow(sortCards(view.opponent_took), "Cards your opponent took")]) : null,
  ]);
}

/** @param {Action[]} actions @param {string} type */
const find = (actions, type) => actions.find((action) => action.type === type);

/**
 * @param {string} label
 * @param {Action | undefined} action
 * @param {(action: Action) => void} act
 * @param {string} [keyHint]
 */
function actionButton(label, action, act, keyHint) {
  if (!action) return null;
  return el("button", { type: "button", "data-action": action.type, "aria-keyshortcuts": keyHint, onclick: () => act(action) }, [label]);
}

/** @param {Side} view @param {Action[]} actions @param {(action: Action) => void} act */
function table(view, actions, act) {
  const top = view.discard_pile.at(-1);
  const dealerChoices = actions.filter((a) => a.type === "choose_dealer");
  return el("section", { class: "table", "aria-label": "Table" }, [
    el("div", { class: "stock" }, [
      el("span", { class: "card back", role: "img", "aria-label": `stock, ${view.stock_size} cards` }, [String(view.stock_size)]),
      actionButton("Draw from stock", find(actions, "draw_from_stock"), act, "s"),
    ]),
    el("div", { class: "pile" }, [
      top ? cardFace(top) : el("span", { class: "card empty" }, ["—"]),
      el("span", { class: "count" }, [`discard pile: ${view.discard_pile.length}`]),
      actionButton(top ? `Take ${cardLabel(top)}` : "Take", find(actions, "draw_from_discard"), act, "d"),
      actionButton(top ? `Take the upcard ${cardLabel(top)}` : "Take the upcard", find(actions, "take_upcard"), act, "t"),
      actionButton("Pass", find(actions, "pass_upcard"), act, "p"),
    ]),
    dealerChoices.length
      ? el("div", { class: "choices" }, dealerChoices.map((a) =>
          actionButton(a.type === "choose_dealer" && a.dealer === view.seat ? "I deal" : "Opponent deals", a, act),
        ))
      : null,
  ]);
}

/** The knocker's melds during layoff, with each layoff the service lists. */
function knockOnTable(/** @type {Side} */ view, /** @type {Action[]} */ actions, /** @type {(action: Action) => void} */ act) {
  const knock = view.knock;
  if (!knock) return null;
  const who = knock.knocker === view.seat ? "You" : "Your opponent";
  return el("section", { class: "knock", "aria-label": "The knock" }, [
    heading(`${who} knocked${knock.gin ? " (gin)" : ""}`),
    el("ol", { class: "melds" }, knock.melds.map((meld, index) =>
      el("li", { "data-meld": index }, [
        cardRow(meld, `meld ${index + 1}`),
        ...actions.flatMap((a) =>
          a.type === "lay_off" && a.meld === index
            ? [actionButton(`Lay off ${cardLabel(a.card)}`, a, act)]
            : [],
        ),
      ]),
    )),
    el("p", {}, [`Deadwood ${knock.deadwood_count}: `, cardRow(knock.deadwood, "knocker's deadwood")]),
    actionButton("Finish laying off", find(actions, "finish_layoff"), act, "f"),
  ]);
}

/**
 * Your hand, melds grouped and deadwood last; a card is a button when discarding it is legal.
 * @param {Side} view @param {Action[]} actions @param {(action: Action) => void} act
 * @param {() => void} toggleKnock
 */
function hand(view, actions, act, toggleKnock) {
  const arranged = bestArrangement(view.hand);
  /** @param {string} card */
  const face = (card) => {
    const discard = actions.find((a) => a.type === "discard" && a.card === card);
    return discard ? cardFace(card, () => act(discard), "discard") : cardFace(card);
  };
  return el("section", { class: "hand", "aria-label": "Your hand" }, [
    heading(`Your hand · deadwood ${arranged.count}`),
    el("div", { class: "groups" }, [
      ...arranged.melds.map((meld) => el("span", { class: "meld", role: "group", "aria-label": "meld" }, sortCards(meld).map(face))),
      arranged.deadwood.length
        ? el("span", { class: "deadwood", role: "group", "aria-label": "deadwood" }, arranged.deadwood.map(face))
        : null,
    ]),
    el("div", { class: "actions" }, [
      actions.some((a) => a.type === "knock")
        ? el("button", { type: "button", "data-action": "knock-menu", "aria-keyshortcuts": "k", onclick: toggleKnock }, ["Knock…"])
        : null,
      actionButton("Big gin!", find(actions, "big_gin"), act, "g"),
    ]),
  ]);
}

/**
 * Each knock the service lists, with the ways to lay out the other ten cards within the
 * knock limit: the player picks the arrangement shown to the opponent.
 * @param {Side} view @param {Action[]} actions @param {(action: Action) => void} act
 */
function knockChoices(view, actions, act) {
  const rows = actions.flatMap((action) => {
    if (action.type !== "knock") return [];
    const rest = view.hand.filter((card) => card !== action.card);
    return arrangements(rest)
      .filter((a) => a.count <= view.knock_limit)
      .slice(0, ARRANGEMENTS_PER_KNOCK)
      .map((arrangement) => {
        const melds = arrangement.melds.map((meld) => sortCards(meld));
        const gin = arrangement.count === 0;
        const text = `${gin ? "Gin" : "Knock"}: ${cardLabel(action.card)} face down; ${melds.map((m) => m.map(cardLabel).join(" ")).join(" | ")}; deadwood ${arrangement.count}`;
        return el("li", {}, [
          el("button", {
            type: "button",
            "data-action": gin ? "gin" : "knock",
            "data-card": action.card,
            "aria-label": `${gin ? "Gin" : "Knock"}, ${spoken(action.card)} face down, deadwood ${arrangement.count}`,
            onclick: () => act({ ...action, melds }),
          }, [text]),
        ]);
      });
  });
  return el("section", { class: "knock-choices", "aria-label": "Ways to knock" }, [heading("Knock with…"), el("ul", {}, rows)]);
}

/** The last hand's result, both hands shown. @param {MatchView} view */
function lastHand(view) {
  const last = view.last_hand;
  if (!last) return null;
  const you = view.seat;
  const them = 1 - you;
  let summary = "The hand was drawn: nobody scores.";
  if (last.type === "scored") {
    const winner = last.winner === null ? "Nobody" : last.winner === you ? "You" : "Your opponent";
    const verb = last.winner === you ? "win" : "wins";
    summary = last.winner === null
      ? `A tie (${last.outcome}): nobody scores.`
      : `${winner} ${verb} ${last.points} points (${last.outcome.replace("_", " ")}).`;
  }
  return el("section", { class: "result", "aria-label": "Last hand" }, [
    heading("Last hand"),
    el("p", { "data-result": last.type }, [summary]),
    el("p", {}, ["Your hand: ", cardRow(sortCards(last.hands[you]), "your hand")]),
    el("p", {}, ["Opponent's hand: ", cardRow(sortCards(last.hands[them]), "your opponent's hand")]),
  ]);
}

/** @param {boolean} ended @param {string} outcome @param {string} matchId */
function over(ended, outcome, matchId) {
  if (!ended) return null;
  return el("section", { class: "over", "aria-label": "Match over" }, [
    heading(outcome),
    el("p", {}, [el("a", { href: `#/replay/${matchId}` }, ["Replay this match"]), " · ", el("a", { href: "#/" }, ["New match"])]),
  ]);
}
