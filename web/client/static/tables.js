// The other seats around the seat's hand, as anybody may see them: the opponent at its own
// table, every other table and the seat sitting out, and the invite links while the match
// waits for its seats.

import { sortCards } from "./cards.js";
import { cardFace, cardRow, el, heading } from "./dom.js";
import { endedHand } from "./results.js";

/** @typedef {import("./seats.js").Seats} Seats */
/** @typedef {import("./seats.js").SeatedTable} SeatedTable */
/** @typedef {{ seat: number, invite_code: string }} SeatInvite */
/** @typedef {{ token: string, seat: number, inviteCode?: string | null, invites?: SeatInvite[] }} SeatKey */

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
      let text = "Copied.";
      try {
        await navigator.clipboard.writeText(link);
      } catch {
        text = "Copy the link by hand: this browser did not allow it.";
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
      el("button", { type: "button", "data-copy": link, "aria-label": `Copy: ${label}`, onclick: copy }, ["Copy link"]),
      " ",
      done,
    ]);
  };
  // A key kept before answers listed every invite has only its one code.
  const all = key.invites?.length ? key.invites : key.inviteCode ? [{ seat: 1, invite_code: key.inviteCode }] : [];
  if (all.length === 1) {
    return el("p", { class: "invite" }, ["Send this link to your opponent: ", field(linkTo(all[0].invite_code), "Invite link")]);
  }
  if (!all.length) return null;
  return el("section", { class: "invite", "aria-label": "Invites" }, [
    el("p", {}, ["Send each player the link of their seat:"]),
    ...all.map((invite) =>
      el("p", {}, [`Seat ${invite.seat}: `, field(linkTo(invite.invite_code), `Invite link for seat ${invite.seat}`)]),
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
  const first =
    view.kind === "two_players" ? view.hand_number <= 1 : view.round <= (view.players === 3 ? 2 : 1);
  if (!cut || !first || view.phase === "match_over") return null;
  if (cut.type === "cards_cut") {
    return el("p", { class: "cut", "data-cut": "cards" }, [
      "The cut: ",
      ...cut.pairs.flatMap((pair, index) => [
        index ? ", then " : "",
        ...pair.flatMap((card, seat) => [seat ? ` against ${seats.who(seat)} ` : `${seats.name(seat)} `, cardRow([card], `${seats.name(seat)}'s cut card`)]),
      ]),
      `. ${seats.name(cut.winner)} won it.`,
    ]);
  }
  return el("p", { class: "cut", "data-cut": "seats" }, [
    "The cut: ",
    ...cut.rounds.flatMap((round, index) => [index ? ", then " : "", cardRow(round, `cut round ${index + 1}`)]),
    `. ${seats.name(cut.dealer)} cut lowest and deals.`,
  ]);
}

/** The other seat at the seat's own table. @param {Seats} seats */
export function opponent(seats) {
  const mine = seats.own;
  if (!mine) return null;
  const them = 1 - mine.seats.indexOf(seats.seat);
  const took = mine.view.took_from_pile[them] ?? [];
  return el("section", { class: "opponent", "aria-label": "Your opponent" }, [
    heading(seats.name(mine.seats[them] ?? 0)),
    el("p", {}, [`${mine.view.card_counts[them]} cards`]),
    took.length ? el("p", {}, ["Took from the pile: ", cardRow(sortCards(took), "Cards your opponent took")]) : null,
  ]);
}

/** Every table but the seat's own, and who sits out. @param {Seats} seats @param {boolean} ended */
export function otherTables(seats, ended) {
  // At the match's end the last round's hands are shown, every table's (results.js).
  if (ended) return null;
  const others = seats.tables.filter((t) => t.table !== seats.table);
  const out = seats.sittingOut;
  const sitting = out !== null && out !== seats.seat ? el("p", { "data-sitting-out": out }, [`${seats.name(out)} sits this hand out.`]) : null;
  if (!others.length && !sitting) return null;
  return el("section", { class: "others", "aria-label": "Other tables" }, [
    heading(!others.length ? "Sitting out" : seats.table === null ? "The table" : "The other table"),
    sitting,
    ...others.map((t) => otherTable(t, seats)),
  ]);
}

/** @param {SeatedTable} seated @param {Seats} seats */
function otherTable(seated, seats) {
  const table = seated.view;
  const top = table.discard_pile.at(-1);
  const turn = table.turn === null ? "hand over" : `${seats.name(seated.seats[table.turn] ?? 0)} to play`;
  return el("div", { class: "other-table", "data-table": seated.table }, [
    el("p", {}, [`${seated.seats.map((seat) => seats.name(seat)).join(" against ")}: ${turn}.`]),
    el("p", {}, [
      ...seated.seats.map((seat, at) => `${seats.name(seat)}: ${table.card_counts[at]} cards. `),
      `Stock ${table.stock_size}, discard pile ${table.discard_pile.length}`,
      top ? ": " : ".",
      top ? cardFace(top) : null,
    ]),
    // Once the hand is over both hands are shown, as the rules show them to everybody.
    table.last_hand
      ? endedHand({ type: "table_event", table: seated.table, seats: seated.seats, event: table.last_hand }, seats)
      : table.knock
      ? el("p", {}, [
          `${seats.name(seated.seats[table.knock.knocker] ?? 0)} knocked${table.knock.gin ? " (gin)" : ""}: `,
          ...table.knock.melds.map((meld, index) => cardRow(meld, `meld ${index + 1}`)),
        ])
      : null,
  ]);
}
