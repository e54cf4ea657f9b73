// The page's routes (in the URL's fragment, so a link never sends a token to any server):
//   #/                  start a match against a bot, or invite a friend
//   #/play/<match>      play it (the seat's token is kept in this browser's localStorage)
//   #/join/<invite>     take the invited seat, then play
//   #/replay/<match>    step through a finished match, or load a game-record file

import * as api from "./api.js";
import { el, heading } from "./dom.js";
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
  return el("p", { class: "problem", role: "alert" }, [error instanceof Error ? error.message : String(error)]);
}

function lobby() {
  const target = /** @type {HTMLInputElement} */ (
    el("input", { id: "game-target", type: "number", min: 1, max: 1000, value: 100 })
  );
  // Three players play round robin, four in partnerships (seats 0 and 2 against 1 and 3).
  const formats = [["2", "Two players"], ["3", "Three players (round robin)"], ["4", "Four players (partnerships)"]];
  const players = /** @type {HTMLSelectElement} */ (
    el("select", { id: "players" }, formats.map(([value, label]) => el("option", { value }, [label])))
  );
  const count = () => /** @type {api.Players} */ (Number(players.value));
  const level = /** @type {HTMLSelectElement} */ (
    el("select", { id: "bot-level" }, ["simple", "strong", "random"].map((name) => el("option", { value: name }, [name])))
  );
  // A clock's choices: seconds per move, then each seat's time bank for the match.
  const clocks = [["", "No clock"], ["30 300", "30 s a move, 5 min bank"], ["60 600", "1 min a move, 10 min bank"]];
  const clock = /** @type {HTMLSelectElement} */ (
    el("select", { id: "clock" }, clocks.map(([value, label]) => el("option", { value }, [label])))
  );
  // The page shows one clock, a two-player table's: three and four players play without.
  players.onchange = () => {
    clock.disabled = count() !== 2;
    if (clock.disabled) clock.value = "";
    const start = main.querySelector("[data-start=bot]");
    if (start) start.textContent = count() === 2 ? "Play against the bot" : "Play against the bots";
    const invite = main.querySelector("[data-start=friend]");
    if (invite) invite.textContent = count() === 2 ? "Invite a friend" : "Invite friends";
  };
  const options = () => {
    const [turn, bank] = clock.value.split(" ").map(Number);
    const timed = clock.value && count() === 2 ? { turn_seconds: turn, bank_seconds: bank } : {};
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
    el("section", { class: "lobby", "aria-label": "New match" }, [
      heading("New match"),
      el("p", {}, [el("label", { for: "players" }, ["Players "]), players]),
      el("p", {}, [el("label", { for: "game-target" }, ["Game to "]), target, " points (one game)"]),
      el("p", {}, [el("label", { for: "clock" }, ["Clock "]), clock]),
      el("p", {}, [
        el("label", { for: "bot-level" }, ["Bot "]), level, " ",
        el("button", { type: "button", "data-start": "bot", onclick: vsBot }, ["Play against the bot"]),
      ]),
      el("p", {}, [el("button", { type: "button", "data-start": "friend", onclick: withFriend }, ["Invite a friend"])]),
      errors,
      heading("Replay"),
      el("p", {}, [el("a", { href: "#/replay" }, ["Open a game record"])]),
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
    main.replaceChildren(failure(error), el("a", { href: "#/" }, ["New match"]));
  }
}

async function route() {
  document.onkeydown = null;
  const [, screen, argument] = location.hash.split("/");
  if (screen === "play" && argument) {
    const key = kept(argument);
    if (!key) {
      main.replaceChildren(failure("This browser holds no seat in this match."), el("a", { href: `#/replay/${argument}` }, ["Watch its replay"]));
      return;
    }
    // The table's modules load when a table opens: the first screen is the lobby.
    const { playScreen } = await import("./play.js");
    await playScreen(main, argument, key);
  } else if (screen === "join" && argument) {
    await joinMatch(argument);
  } else if (screen === "replay") {
    const { replayScreen } = await import("./replay.js");
    await replayScreen(main, argument ?? null);
  } else {
    lobby();
  }
}

window.addEventListener("hashchange", route);
// When the first screen can be used: the browser tests report the time to it.
route().then(() => performance.mark("gin:interactive"));
