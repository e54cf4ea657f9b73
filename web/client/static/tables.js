// The other seats around the seat's hand, as anybody may see them: the opponent at its own
// table, every other table and the seat sitting out, and the invite links while the match
// waits for its seats.

import { sortCards } from "./cards.js";
import { cardFace, cardRow, el, heading } from "./dom.js";
import { FORMATS } from "./formats.js";
import { t } from "./i18n.js";
import { endedHand } from "./results.js";

/** @typedef {import("./seats.js").Seats} Seats */
/** @typedef {import("./seats.js").SeatedTable} SeatedTable */
/** @typedef {{ seat: number, invite_code: string }} SeatInvite */
/** How this browser holds a seat: its token, or the credential of a player with an account
 * (``account``), which opens the seat too.
 * @typedef {{ token: string, seat: number, inviteCode?: string | null, invites?: SeatInvite[], account?: boolean }} SeatKey */

/** The invite link last copied and what was said of it. @type {{ link: string, text: string } | null} */
let copied = null;

/** The invite links, while the match waits for its seats. @param {Seats} seats @param {SeatKey} key */
export function invites(seats, key) {
  if (!seats.waiting) return null;
  /** @param {string} code */
  const linkTo = (code) => `${location.origin}${location.pathname}#/join/${code}`;
  /** A link's field, and a button that copies it. @param {string} link @param {string} label */
  const field = (link, label) => {
    const said = copied?.link === link ? [copied.text] : [];
    const done = el("span", { class: "copied", role: "status", "data-copied": link }, said);
    const copy = async () => {
      let text = t("invite.copied");
      try {
        await navigator.clipboard.writeText(link);
      } catch {
        text = t("invite.copyByHand");
      }
      // The table may have been drawn again meanwhile: say it where the link is now, and in
      // every later drawing.
      copied = { link, text };
      for (const node of document.querySelectorAll(".copied")) {
        if (node instanceof HTMLElement && node.dataset.copied === link) node.textContent = text;
      }
    };
    return el("span", { class: "invite-link" }, [
      el("input", { readonly: true, value: link, "aria-label": label, size: 40, "data-invite": link }),
      " ",
      el("button", { type: "button", "data-copy": link, "aria-label": t("invite.copyLabel", { label }), onclick: copy }, [t("invite.copy")]),
      " ",
      done,
    ]);
  };
  // A key kept before answers listed every invite has only its one code.
  const all = key.invites?.length ? key.invites : key.inviteCode ? [{ seat: 1, invite_code: key.inviteCode }] : [];
  if (all.length === 1) {
    return el("p", { class: "invite" }, [t("invite.sendOne"), " ", field(linkTo(all[0].invite_code), t("invite.link"))]);
  }
  if (!all.length) return null;
  return el("section", { class: "invite", "aria-label": t("invite.label") }, [
    el("p", {}, [t("invite.sendEach")]),
    ...all.map((invite) =>
      el("p", {}, [`${t("seat.number", { seat: invite.seat })}: `, field(linkTo(invite.invite_code), t("invite.linkFor", { seat: invite.seat }))]),
    ),
  ]);
}

/** The cut that chose the first dealer, shown through the first hand every seat plays: the
 * first round, or at three seats the second too (one seat sits the first out, and against
 * bots it is over before the page first draws).
 * @param {Seats} seats */
export function cutShown(seats) {
  const view = seats.view;
  const cut = view.cut;
  // A seat that sits the first round out plays its first hand in the second.
  const rounds = view.kind === "two_players" || FORMATS[view.players]?.sittingOut(0) == null ? 1 : 2;
  const first = view.kind === "two_players" ? view.hand_number <= 1 : view.round <= rounds;
  if (!cut || !first || view.phase === "match_over") return null;
  if (cut.type === "cards_cut") {
    return el("p", { class: "cut", "data-cut": "cards" }, [
      `${t("cut.title")} `,
      ...cut.pairs.flatMap((pair, index) => [
        index ? `, ${t("cut.then")} ` : "",
        ...pair.flatMap((card, seat) => [
          seat ? ` ${t("cut.against", { who: seats.who(seat) })} ` : `${seats.name(seat)} `,
          cardRow([card], t("cut.card", { who: seats.name(seat) })),
        ]),
      ]),
      `. ${t(cut.winner === seats.seat ? "cut.youWon" : "cut.won", { who: seats.name(cut.winner) })}`,
    ]);
  }
  return el("p", { class: "cut", "data-cut": "seats" }, [
    `${t("cut.title")} `,
    ...cut.rounds.flatMap((round, index) => [index ? `, ${t("cut.then")} ` : "", cardRow(round, t("cut.round", { number: index + 1 }))]),
    `. ${t(cut.dealer === seats.seat ? "cut.youDeal" : "cut.deals", { who: seats.name(cut.dealer) })}`,
  ]);
}

/** The other seat at the seat's own table. @param {Seats} seats */
export function opponent(seats) {
  const mine = seats.own;
  if (!mine) return null;
  const them = 1 - mine.seats.indexOf(seats.seat);
  const took = mine.view.took_from_pile[them] ?? [];
  return el("section", { class: "opponent", "aria-label": t("seat.opponent") }, [
    heading(seats.name(mine.seats[them] ?? 0)),
    el("p", {}, [t("cards", { count: mine.view.card_counts[them] ?? 0 })]),
    took.length ? el("p", {}, [t("opponent.took"), " ", cardRow(sortCards(took), t("opponent.tookLabel"))]) : null,
  ]);
}

/** Every table but the seat's own, and who sits out. @param {Seats} seats @param {boolean} ended */
export function otherTables(seats, ended) {
  // At the match's end the last round's hands are shown, every table's (results.js).
  if (ended) return null;
  const others = seats.tables.filter((t) => t.table !== seats.table);
  const out = seats.sittingOut;
  const sitting = out !== null && out !== seats.seat ? el("p", { "data-sitting-out": out }, [t("others.sitsOut", { who: seats.name(out) })]) : null;
  if (!others.length && !sitting) return null;
  return el("section", { class: "others", "aria-label": t("others.label") }, [
    heading(t(!others.length ? "others.sittingOut" : seats.table === null ? "others.theTable" : "others.otherTable")),
    sitting,
    ...others.map((t) => otherTable(t, seats)),
  ]);
}

/** @param {SeatedTable} seated @param {Seats} seats */
function otherTable(seated, seats) {
  const table = seated.view;
  const top = table.discard_pile.at(-1);
  const turn = table.turn === null ? t("others.handOver") : t("others.toPlay", { who: seats.name(seated.seats[table.turn] ?? 0) });
  return el("div", { class: "other-table", "data-table": seated.table }, [
    el("p", {}, [`${seated.seats.map((seat) => seats.name(seat)).join(` ${t("others.against")} `)}: ${turn}.`]),
    el("p", {}, [
      ...seated.seats.map((seat, at) => `${seats.name(seat)}: ${t("cards", { count: table.card_counts[at] ?? 0 })}. `),
      t("others.stockPile", { stock: table.stock_size, pile: table.discard_pile.length }),
      top ? ": " : ".",
      top ? cardFace(top) : null,
    ]),
    // Once the hand is over both hands are shown, as the rules show them to everybody.
    table.last_hand
      ? endedHand({ type: "table_event", table: seated.table, seats: seated.seats, event: table.last_hand }, seats)
      : table.knock
      ? el("p", {}, [
          `${t(table.knock.gin ? "others.knockedGin" : "others.knocked", { who: seats.name(seated.seats[table.knock.knocker] ?? 0) })} `,
          ...table.knock.melds.map((meld, index) => cardRow(meld, t("meld.number", { number: index + 1 }))),
        ])
      : null,
  ]);
}
