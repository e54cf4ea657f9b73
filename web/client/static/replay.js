// The replay viewer: a finished match's record (fetched by its link, or loaded from a file),
// stepped through event by event with every table's hands shown, the scores at each step
// (replay_steps.js), and the browser's own verdict on the record (verify.js).

import * as api from "./api.js";
import { el, heading } from "./dom.js";
import { t } from "./i18n.js";
import { receiptForm } from "./log_proof.js";
import { steps } from "./replay_steps.js";
import { verifyRecord } from "./verify.js";

/** @typedef {import("./api.js").GameRecord} GameRecord */
/** @typedef {import("./replay_steps.js").Step} Step */

/** @param {HTMLElement} root @param {string | null} matchId */
export async function replayScreen(root, matchId) {
  const viewer = el("div", { class: "viewer" });
  const fileInput = /** @type {HTMLInputElement} */ (
    el("input", { id: "record-file", type: "file", accept: "application/json,.json" })
  );
  fileInput.addEventListener("change", async () => {
    const file = fileInput.files?.[0];
    if (!file) return;
    /** @type {unknown} */
    let loaded;
    try {
      loaded = JSON.parse(await file.text());
    } catch (error) {
      // Not even JSON: no record, which is a verdict too.
      const line = verdictLine();
      viewer.replaceChildren(line);
      say(line, false, `${t("replay.discrepancy")} ${t("replay.notJson")}: ${error instanceof Error ? error.message : String(error)}`);
      return;
    }
    await show(viewer, /** @type {GameRecord} */ (loaded));
  });
  root.replaceChildren(
    el("section", { class: "replay", "aria-label": t("lobby.replay") }, [
      heading(t("lobby.replay")),
      el("p", {}, [el("label", { for: "record-file" }, [t("replay.loadFile"), " "]), fileInput]),
      viewer,
    ]),
  );
  if (matchId) {
    try {
      await show(viewer, await api.record(matchId));
    } catch (error) {
      viewer.replaceChildren(el("p", { class: "problem", role: "alert" }, [api.problemText(error)]));
    }
  }
}

/** The line that will say a record's verdict. */
const verdictLine = () => el("p", { class: "verdict", role: "status", "aria-live": "polite" }, [t("replay.checking")]);

/** @param {HTMLElement} line @param {boolean} ok @param {string} said */
function say(line, ok, said) {
  line.dataset.verdict = ok ? "verified" : "discrepancy";
  line.className = `verdict ${ok ? "verified" : "tampered"}`;
  line.textContent = said;
}

/** @param {HTMLElement} viewer @param {GameRecord} record */
async function show(viewer, record) {
  const line = verdictLine();
  viewer.replaceChildren(line);
  const verdict = await verifyRecord(record);
  say(line, verdict.ok, verdict.ok
    ? `${t("replay.verified")} ${verdict.lines.join("; ")}.`
    : `${t("replay.discrepancy")} ${verdict.problem}`);
  if (verdict.ok) viewer.append(receiptForm(record));
  /** @type {Step[]} */
  let frames;
  try {
    const entries = record.match_stream.events.map((entry) => ({ version: entry.version, event: JSON.parse(entry.data) }));
    frames = steps(entries);
  } catch {
    return;
  }
  if (frames.length === 0) return;
  let at = frames.length - 1;
  const stage = el("div", { class: "stage" });
  const position = el("span", { class: "position", "aria-live": "polite" });
  const jump = /** @type {HTMLSelectElement} */ (
    el("select", { id: "jump-to-hand", "aria-label": t("replay.jump") }, [
      el("option", { value: "" }, [t("replay.jumpTo")]),
      ...frames.flatMap((frame, index) => (frame.jump ? [el("option", { value: index }, [frame.jump])] : [])),
    ])
  );
  /** @param {number} to */
  const go = (to) => {
    at = Math.max(0, Math.min(frames.length - 1, to));
    draw();
  };
  jump.addEventListener("change", () => jump.value && go(Number(jump.value)));
  const controls = el("div", { class: "controls" }, [
    el("button", { type: "button", "data-step": "first", onclick: () => go(0) }, [t("replay.first")]),
    el("button", { type: "button", "data-step": "back", "aria-keyshortcuts": "ArrowLeft", onclick: () => go(at - 1) }, [`◀ ${t("replay.back")}`]),
    el("button", { type: "button", "data-step": "forward", "aria-keyshortcuts": "ArrowRight", onclick: () => go(at + 1) }, [`${t("replay.forward")} ▶`]),
    el("button", { type: "button", "data-step": "last", onclick: () => go(frames.length - 1) }, [t("replay.last")]),
    jump,
    position,
  ]);
  document.onkeydown = (event) => {
    if (event.target instanceof HTMLSelectElement || event.target instanceof HTMLInputElement) return;
    if (event.key === "ArrowLeft") go(at - 1);
    if (event.key === "ArrowRight") go(at + 1);
  };

  function draw() {
    const frame = frames[at];
    position.textContent = `${t("replay.event", { at: frame.version, of: frames[frames.length - 1].version })}: ${frame.said}`;
    viewer.dataset.version = String(frame.version);
    try {
      stage.replaceChildren(...frame.draw());
    } catch (error) {
      // A mangled record's step may hold what no table can show; its verdict says so.
      stage.replaceChildren(el("p", { class: "problem", role: "alert" }, [`${t("replay.cannotDraw")} ${error instanceof Error ? error.message : String(error)}`]));
    }
  }
  viewer.append(controls, stage);
  draw();
}
