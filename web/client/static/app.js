// The page's routes (in the URL's fragment, so a link never sends a token to any server):
//   #/                  start a match against a bot, or invite a friend
//   #/play/<match>      play it (the seat's token is kept in this browser's localStorage)
//   #/join/<invite>     take the invited seat, then play
//   #/replay/<match>    step through a finished match, or load a game-record file

import * as api from "./api.js";
import { el, heading } from "./dom.js";
import { LANGUAGES, chosenLanguage, language, switchLanguage, t, useLanguage } from "./i18n.js";
/** @typedef {import("./tables.js").SeatKey} SeatKey */

const main = /** @type {HTMLElement} */ (document.querySelector("main"));

/** @param {string} matchId @param {SeatKey} key */
function keep(matchId, key) {
  localStorage.setItem(`gin:seat:${matchId}`, JSON.stringify(key));
}

/** @param {string} matchId @returns {SeatKey | null} */
function kept(matchId) {
  const text = localStorage.getItem(`gin:seat:${matchId}`);
  return text ? JSON.parse(text) : null;
}

/** @param {unknown} error */
function failure(error) {
  return el("p", { class: "problem", role: "alert" }, [api.problemText(error)]);
}

function lobby() {
  const target = /** @type {HTMLInputElement} */ (
    el("input", { id: "game-target", type: "number", min: 1, max: 1000, value: 100 })
  );
  // Three players play round robin, four in partnerships (seats 0 and 2 against 1 and 3).
  const formats = [["2", t("lobby.players2")], ["3", t("lobby.players3")], ["4", t("lobby.players4")]];
  const players = /** @type {HTMLSelectElement} */ (
    el("select", { id: "players" }, formats.map(([value, label]) => el("option", { value }, [label])))
  );
  const count = () => /** @type {api.Players} */ (Number(players.value));
  const level = /** @type {HTMLSelectElement} */ (
    el("select", { id: "bot-level" }, ["simple", "strong", "random"].map((name) => el("option", { value: name }, [t(`bot.${name}`)])))
  );
  // A clock's choices: seconds per move, then each seat's time bank for the match.
  const clocks = [["", t("lobby.noClock")], ["30 300", t("lobby.clock30")], ["60 600", t("lobby.clock60")]];
  const clock = /** @type {HTMLSelectElement} */ (
    el("select", { id: "clock" }, clocks.map(([value, label]) => el("option", { value }, [label])))
  );
  players.onchange = () => {
    const start = main.querySelector("[data-start=bot]");
    if (start) start.textContent = t("lobby.vsBots", { count: count() - 1 });
    const invite = main.querySelector("[data-start=friend]");
    if (invite) invite.textContent = t("lobby.invite", { count: count() - 1 });
  };
  const options = () => {
    const [turn, bank] = clock.value.split(" ").map(Number);
    const timed = clock.value ? { turn_seconds: turn, bank_seconds: bank } : {};
    return { game_target: Number(target.value) || 100, match_target: 0, ...timed };
  };
  const errors = el("div");
  /** @param {() => Promise<void>} start */
  const starting = (start) => async () => {
    try {
      await start();
    } catch (error) {
      errors.replaceChildren(failure(error));
    }
  };
  const vsBot = starting(async () => {
    const created = await api.createBotMatch(options(), /** @type {api.BotLevel} */ (level.value), count());
    keep(created.match_id, { token: created.seats[0].token, seat: 0 });
    location.hash = `#/play/${created.match_id}`;
  });
  const withFriend = starting(async () => {
    const created = await api.createInviteMatch(options(), count());
    keep(created.match_id, { token: created.seats[0].token, seat: 0, inviteCode: created.invite_code, invites: created.invites ?? [] });
    location.hash = `#/play/${created.match_id}`;
  });
  main.replaceChildren(
    el("section", { class: "lobby", "aria-label": t("lobby.title") }, [
      heading(t("lobby.title")),
      el("p", {}, [el("label", { for: "players" }, [t("lobby.players"), " "]), players]),
      el("p", {}, [el("label", { for: "game-target" }, [t("lobby.gameTo"), " "]), target, " ", t("lobby.pointsOneGame")]),
      el("p", {}, [el("label", { for: "clock" }, [t("lobby.clock"), " "]), clock]),
      el("p", {}, [
        el("label", { for: "bot-level" }, [t("lobby.bot"), " "]), level, " ",
        el("button", { type: "button", "data-start": "bot", onclick: vsBot }, [t("lobby.vsBots", { count: 1 })]),
      ]),
      el("p", {}, [el("button", { type: "button", "data-start": "friend", onclick: withFriend }, [t("lobby.invite", { count: 1 })])]),
      errors,
      heading(t("lobby.replay")),
      el("p", {}, [el("a", { href: "#/replay" }, [t("lobby.openRecord")])]),
    ]),
  );
}

/** @param {string} inviteCode */
async function joinMatch(inviteCode) {
  try {
    const joined = await api.join(inviteCode);
    keep(joined.match_id, { token: joined.token, seat: joined.seat });
    location.replace(`#/play/${joined.match_id}`);
  } catch (error) {
    main.replaceChildren(failure(error), el("a", { href: "#/" }, [t("lobby.title")]));
  }
}

// Each routing counts: a screen whose modules arrive after a later routing (the person went on
// meanwhile) is not drawn over the later one.
let routed = 0;

async function route() {
  document.onkeydown = null;
  // The table's state on <main> (its version, phase, turn) is the table screen's: no other
  // screen, the lobby after a match included, says a match's phase. The screen left goes at
  // once, not when the next one is drawn: its answers still on the way draw nothing (a table
  // draws only while its own parts are on the page), even while the next screen's modules load.
  for (const name of Object.keys(main.dataset)) delete main.dataset[name];
  main.replaceChildren();
  const mine = ++routed;
  const [, screen, argument] = location.hash.split("/");
  if (screen === "play" && argument) {
    const key = kept(argument);
    if (!key) {
      main.replaceChildren(failure(t("play.noSeat")), el("a", { href: `#/replay/${argument}` }, [t("play.watchReplay")]));
      return;
    }
    // The table's modules load when a table opens: the first screen is the lobby.
    const { playScreen } = await import("./play.js");
    if (mine === routed) await playScreen(main, argument, key);
  } else if (screen === "join" && argument) {
    await joinMatch(argument);
  } else if (screen === "replay") {
    const { replayScreen } = await import("./replay.js");
    if (mine === routed) await replayScreen(main, argument ?? null);
  } else {
    lobby();
  }
}

/** The words the page's frame says (its header, title and footer) and the language choice. */
function frame() {
  document.title = t("app.title");
  const home = document.querySelector("header h1 a");
  if (home) home.textContent = t("app.title");
  for (const node of document.querySelectorAll("[data-i18n]")) {
    if (node instanceof HTMLElement) node.textContent = t(node.dataset.i18n ?? "");
  }
  const choice = /** @type {HTMLSelectElement | null} */ (document.querySelector("#language"));
  if (!choice) return;
  choice.setAttribute("aria-label", t("app.language"));
  if (!choice.options.length) {
    choice.append(...Object.entries(LANGUAGES).map(([code, name]) => el("option", { value: code, lang: code }, [name])));
    // The whole screen drawn again in the new language, as it stands.
    choice.onchange = async () => {
      await switchLanguage(/** @type {import("./i18n.js").Language} */ (choice.value));
      frame();
      await route();
    };
  }
  choice.value = language();
}

window.addEventListener("hashchange", route);
// When the first screen can be used: the browser tests report the time to it.
useLanguage(chosenLanguage())
  .catch(() => useLanguage("en"))
  .then(() => {
    frame();
    return route();
  })
  .then(() => performance.mark("gin:interactive"));
